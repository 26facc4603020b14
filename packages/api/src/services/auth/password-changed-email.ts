import type { Tx } from '@folio/db';
import { enqueueEmail, renderPasswordChangedEmail } from '@folio/email';
import type { Context } from '../../context';

/** Tells the owner their password changed, inside the transaction that changed it. */
export async function queuePasswordChangedEmail(
  ctx: Context,
  tx: Tx,
  user: { email: string },
): Promise<void> {
  const mail = await renderPasswordChangedEmail({
    forgotUrl: new URL('/auth/forgot-password', ctx.config.appUrl).toString(),
  });
  await enqueueEmail(tx, { to: user.email, kind: 'password-changed', ...mail });
}
