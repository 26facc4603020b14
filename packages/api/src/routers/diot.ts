import { z } from 'zod';
import { TipoOperacion } from '../schemas/report';
import { setDiotProveedor } from '../services/diot/proveedores';
import { authedProcedure, router } from '../trpc';

const DiotProveedor = z
  .object({
    rfc: z.string(),
    tipo_tercero: z.enum(['04', '05', '15']),
    tipo_operacion: TipoOperacion.nullable(),
    region_8: z.enum(['norte', 'sur']).nullable(),
    updated_at: z.string(),
  })
  .meta({ id: 'DiotProveedorSetting' });

export const diotRouter = router({
  setProveedor: authedProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/profiles/{profileId}/diot/proveedores/{rfc}',
        tags: ['reports'],
        summary: 'Set a DIOT supplier’s tipo de operación (and 8 % region) instead of the derived one (PRO)',
        description:
          '`rfc` is the supplier’s RFC, XAXX010101000 for the global row, or a foreign supplier’s tax id. ' +
          '`tipo_operacion` must be one the DIOT instructivo allows for that tercero (04: 02, 03, 06, 08, 85; ' +
          '05: 02, 03, 07; 15: 87), else 400; null goes back to the derived code. `region_8` places its 8 % ' +
          'IVA in the región fronteriza norte or sur (null: from its postal code). Needs `advanced`.',
        errorResponses: [400, 401, 403, 404, 500],
      },
    })
    .input(
      z
        .object({
          profileId: z.string().min(1).max(100),
          rfc: z.string().trim().min(1).max(40),
          tipo_operacion: TipoOperacion.nullable(),
          region_8: z.enum(['norte', 'sur']).nullable().optional(),
        })
        .meta({ example: { tipo_operacion: '06', region_8: null } }),
    )
    .output(z.object({ message: z.string(), data: DiotProveedor }))
    .mutation(({ ctx, input }) => setDiotProveedor(ctx, ctx.user.id, input)),
});
