import { invalidateSession, isApiKey } from '@folio/auth';
import type { Context } from '../../context';
import { requireSession } from '../api-keys/rules';
import { audit } from '../audit';
import { assertSameOrigin, resolveSession } from './authenticate';
import { clearAccessCookie } from './cookies';
import { forgetSession } from './session-cache';

/** Revokes the caller's session if there is one; succeeds either way so clients can always log out. */
export async function logout(ctx: Context): Promise<void> {
  if (isApiKey(ctx.req.token)) requireSession({ via: 'api_key' });
  const valid = await resolveSession(ctx);
  if (valid) {
    assertSameOrigin(ctx);
    await invalidateSession(ctx.db, valid.session.id);
    forgetSession(ctx.db, valid.session.id);
    await audit(ctx, 'user.logout', valid.user.id, { entity: 'session' });
  }
  clearAccessCookie(ctx);
}
