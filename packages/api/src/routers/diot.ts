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
