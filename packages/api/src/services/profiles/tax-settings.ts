// What a profile states about its own returns (docs/iva-isr.md): the IVA proportion fixed for a
// year (LIVA 5-B) and the RESICO provisional payments actually made (LISR 113-E), which the annual
// computation (113-F) subtracts instead of the computed ones.
import { setIvaProporcion5b, setPagoProvisional } from '@folio/db/queries/tax-settings';
import type { Context } from '../../context';
import { badRequest } from '../../errors';
import { audit } from '../audit';
import { authorizeProfile } from './access';

const twoDecimals = (field: string, n: number) => {
  if (Math.abs(Math.round(n * 100) - n * 100) > 1e-6) {
    throw badRequest(`${field}: at most 2 decimals`, 'too_many_decimals');
  }
};

/** PUT /api/profiles/{id}/iva-proporcion-5b: the previous year's proportion (%), binding for the year. */
export async function fixIvaProporcion5b(
  ctx: Context,
  userId: string,
  profileRef: string,
  input: { año: number; proporcion: number },
) {
  twoDecimals('proporcion', input.proporcion);
  const profile = await authorizeProfile(ctx, userId, profileRef, 'write');
  const row = await setIvaProporcion5b(ctx.db, profile.id, input.año, input.proporcion);
  await audit(ctx, 'profile.iva_proporcion_5b', userId, {
    entity: 'profile',
    entityId: profile.id,
    data: { año: input.año, proporcion: input.proporcion },
  });
  return { profile_id: profile.id, año: row.anio, proporcion: Number(row.proporcion) };
}

/** PUT /api/profiles/{id}/pagos-provisionales/{año}/{mes}: the ISR actually paid for a RESICO month. */
export async function recordPagoProvisional(
  ctx: Context,
  userId: string,
  profileRef: string,
  input: { año: number; mes: number; isr_pagado: number },
) {
  twoDecimals('isr_pagado', input.isr_pagado);
  const profile = await authorizeProfile(ctx, userId, profileRef, 'write');
  const row = await setPagoProvisional(ctx.db, profile.id, input.año, input.mes, input.isr_pagado);
  await audit(ctx, 'profile.pago_provisional', userId, {
    entity: 'profile',
    entityId: profile.id,
    data: { año: input.año, mes: input.mes, isr_pagado: input.isr_pagado },
  });
  return { profile_id: profile.id, año: row.anio, mes: row.mes, isr_pagado: Number(row.isrPagado) };
}
