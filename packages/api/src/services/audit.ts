import type { Executor } from '@folio/db';
import { writeAudit } from '@folio/db/queries/audit';
import type { Context } from '../context';

/** Records who did what, with the request's IP and id for tracing. */
export function audit(
  ctx: Context,
  action: string,
  userId: string | null,
  extra: { entity?: string; entityId?: string | null; data?: Record<string, unknown> } = {},
  db: Executor = ctx.db,
): Promise<void> {
  return writeAudit(db, { userId, action, ip: ctx.req.ip, requestId: ctx.req.requestId, ...extra });
}
