import { randomUUID } from 'node:crypto';
import { ensurePeriod, findPeriod, listPeriods, setPeriodState } from '@folio/db/queries/periods';
import type { Context } from '../../context';
import { notFound } from '../../errors';
import { audit } from '../audit';
import { authorizeProfile } from '../profiles/access';
import { toPeriod } from './period-dto';

export async function periodsOf(ctx: Context, userId: string, profileRef: string) {
  const profile = await authorizeProfile(ctx, userId, profileRef, 'read');
  return (await listPeriods(ctx.db, profile.id)).map(toPeriod);
}

/** One period per profile and month: creating an existing one returns it (200 instead of 201). */
export async function openPeriod(
  ctx: Context,
  userId: string,
  input: { profileId: string; año: number; mes: number },
) {
  const profile = await authorizeProfile(ctx, userId, input.profileId, 'write');
  const { row, created } = await ensurePeriod(ctx.db, {
    id: randomUUID(),
    profileId: profile.id,
    anio: input.año,
    mes: input.mes,
  });
  if (created) await audit(ctx, 'period.create', userId, { entity: 'period', entityId: row.id });
  else ctx.req.status = 200;
  return toPeriod(row);
}

/** A period of one of the caller's profiles; writes also need the profile not frozen. */
export async function ownedPeriod(ctx: Context, userId: string, periodId: string, access: 'read' | 'write') {
  const period = await findPeriod(ctx.db, periodId);
  if (!period) throw notFound('Period not found');
  await authorizeProfile(ctx, userId, period.profileId, access);
  return period;
}

export async function setPeriodEstado(
  ctx: Context,
  userId: string,
  periodId: string,
  estado: 'ABIERTO' | 'CERRADO',
) {
  await ownedPeriod(ctx, userId, periodId, 'write');
  const row = await setPeriodState(ctx.db, periodId, estado);
  await audit(ctx, estado === 'CERRADO' ? 'period.close' : 'period.reopen', userId, {
    entity: 'period',
    entityId: periodId,
  });
  return toPeriod(row);
}
