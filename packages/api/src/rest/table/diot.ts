import type { RouteEntry } from './entry';

/** The REST routes of the DIOT's supplier settings. */
export const diotRoutes: RouteEntry[] = [
  {
    method: 'PUT',
    path: '/profiles/{profileId}/diot/proveedores/{rfc}',
    procedure: 'diot.setProveedor',
    docs: {
      tags: ['reports'],
      summary: 'Set a DIOT supplier’s tipo de operación (and 8 % region) instead of the derived one (PRO)',
      description:
        '`rfc` is the supplier’s RFC, XAXX010101000 for the global row, or a foreign supplier’s tax id. ' +
        '`tipo_operacion` must be one the DIOT instructivo allows for that tercero (04: 02, 03, 06, 08, 85; ' +
        '05: 02, 03, 07; 15: 87), else 400; null goes back to the derived code. `region_8` places its 8 % ' +
        'IVA in the región fronteriza norte or sur (null: from its postal code). Needs `advanced`.',
    },
    errors: [400, 401, 403, 404, 500],
  },
];
