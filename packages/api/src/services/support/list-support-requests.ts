import { listSupportRequests as listRows } from '@folio/db/queries/support';
import type { z } from 'zod';
import type { Context } from '../../context';
import type { SupportRequest } from '../../schemas/support';
import { toSupportRequest } from './support-request-dto';

/** The user's own support requests, newest first (any plan: a downgrade keeps the history readable). */
export async function listSupportRequests(
  ctx: Context,
  userId: string,
): Promise<z.infer<typeof SupportRequest>[]> {
  return (await listRows(ctx.db, userId)).map(toSupportRequest);
}
