import type { Tx } from '@folio/db';
import { listActiveApiKeys, revokeAllApiKeys } from '@folio/db/queries/api-keys';
import { enqueueEmail, renderPasswordChangedEmail } from '@folio/email';
import type { Context } from '../../context';

/**
 * After a new password: revokes every API key of the user when `revokeApiKeys` (always on a reset:
 * whoever held the account may have minted one), then tells the owner, inside the transaction that
 * changed it, how many were revoked and which still work.
 */
export async function settleKeysAndNotify(
  ctx: Context,
  tx: Tx,
  user: { id: string; email: string },
  revokeApiKeys: boolean,
): Promise<{ revokedKeys: number }> {
  const revokedKeys = revokeApiKeys ? await revokeAllApiKeys(tx, user.id) : 0;
  const active = revokeApiKeys ? [] : await listActiveApiKeys(tx, user.id);
  const mail = await renderPasswordChangedEmail({
    forgotUrl: new URL('/auth/forgot-password', ctx.config.appUrl).toString(),
    revokedKeys,
    activeKeys: active.map((k) => ({
      prefix: k.prefix,
      scope: k.scope,
      created: k.createdAt.toISOString().slice(0, 10),
    })),
  });
  await enqueueEmail(tx, { to: user.email, kind: 'password-changed', ...mail });
  return { revokedKeys };
}
