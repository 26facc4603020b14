import { listSatAlerts, markSatAlertRead } from '@folio/db/queries/sat-alerts';
import type { z } from 'zod';
import type { Context } from '../../context';
import { notFound } from '../../errors';
import type { OffsetPage } from '../../schemas/sat-user';
import { offsetPaginationOf } from '../pagination';
import { requireSatFeature } from './rules';
import { toSatAlert } from './sat-user-dto';

export async function alertsOf(ctx: Context, userId: string, page: z.infer<typeof OffsetPage>) {
  await requireSatFeature(ctx, userId, 'satHasAlerts');
  const { rows, total } = await listSatAlerts(ctx.db, userId, page);
  return { data: rows.map(toSatAlert), pagination: offsetPaginationOf(total, page) };
}

export async function readAlert(ctx: Context, userId: string, id: string) {
  await requireSatFeature(ctx, userId, 'satHasAlerts');
  const row = await markSatAlertRead(ctx.db, userId, id);
  if (!row) throw notFound('Alert not found');
  return { message: 'Alert marked as read', data: toSatAlert(row) };
}
