import { issueVerificationToken, VERIFICATION_TTL_HOURS } from '@folio/auth';
import type { Tx } from '@folio/db';
import { enqueueEmail, renderVerificationEmail } from '@folio/email';
import type { Context } from '../../context';
import { VERIFY_MAIL } from './secret-link-mails';

/** Issues a fresh verification token and queues its email, inside the caller's transaction. */
export async function queueVerificationEmail(
  ctx: Context,
  tx: Tx,
  user: { id: string; email: string },
): Promise<void> {
  const token = await issueVerificationToken(tx, user.id, user.email);
  const verifyUrl = new URL('/api/auth/verify-email', ctx.config.appUrl);
  verifyUrl.searchParams.set('token', token);
  const mail = await renderVerificationEmail({
    verifyUrl: verifyUrl.toString(),
    expiresHours: VERIFICATION_TTL_HOURS,
  });
  await enqueueEmail(tx, { to: user.email, kind: VERIFY_MAIL, ...mail });
}
