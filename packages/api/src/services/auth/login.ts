import { createSession, verifyPassword } from '@folio/auth';
import { refundRateLimit, resetRateLimit } from '@folio/db/queries/rate-limits';
import { findUserByEmail } from '@folio/db/queries/users';
import type { Context } from '../../context';
import { unauthorized } from '../../errors';
import type { User } from '../../schemas/user';
import { audit } from '../audit';
import { enforceRateLimit } from '../rate-limit';
import { assertCookieOrigin } from './cookies';
import { grantAccessToken } from './grant-access-token';
import { normalizeEmail } from './register';
import { toUser } from './user-dto';

/** Failed logins one client (IP) may make in 15 minutes, over all e-mails together. */
export const CLIENT_LOGIN_FAILURES = 20;

export interface LoginResult {
  user: User;
  accessToken: string;
  expiresAt: string;
}

export async function login(ctx: Context, input: { email: string; password: string }): Promise<LoginResult> {
  assertCookieOrigin(ctx); // before any work: a cross-site login is refused, not half done
  const email = normalizeEmail(input.email);
  const client = ctx.req.ip ?? 'local';
  const limitKey = `login:${client}:${email}`;
  // Spraying one password over many e-mails: failures per client, whatever the address.
  const clientKey = `login-client:${client}`;
  await enforceRateLimit(ctx, { key: limitKey, limit: 5, windowMs: 15 * 60_000 });
  await enforceRateLimit(ctx, { key: clientKey, limit: CLIENT_LOGIN_FAILURES, windowMs: 15 * 60_000 });
  const user = await findUserByEmail(ctx.db, email);
  // Unknown email and wrong password take the same path and time.
  const ok = await verifyPassword(user?.passwordHash ?? null, input.password);
  if (!user || !ok) throw unauthorized('Invalid email or password');
  await resetRateLimit(ctx.db, limitKey);
  // Counted before the check (so parallel guesses cannot all slip in), given back when it succeeds.
  await refundRateLimit(ctx.db, clientKey);
  const { token, session } = await createSession(ctx.db, user.id, ctx.config.sessionTtlMs);
  const accessToken = await grantAccessToken(
    ctx,
    { userId: user.id, sessionToken: token },
    session.expiresAt,
    {
      cookie: true,
    },
  );
  await audit(ctx, 'user.login', user.id, { entity: 'session' });
  return { user: toUser(user), accessToken, expiresAt: session.expiresAt.toISOString() };
}
