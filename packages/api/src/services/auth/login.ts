import { createSession, signAccessToken, verifyPassword } from '@folio/auth';
import { resetRateLimit } from '@folio/db/queries/rate-limits';
import { users } from '@folio/db/schema';
import { sql } from 'drizzle-orm';
import type { Context } from '../../context';
import { unauthorized } from '../../errors';
import { toUser, type User } from '../../schemas/user';
import { audit } from '../audit';
import { enforceRateLimit } from '../rate-limit';
import { setAccessCookie } from './cookies';

export interface LoginResult {
  user: User;
  accessToken: string;
  expiresAt: string;
}

export async function login(ctx: Context, input: { email: string; password: string }): Promise<LoginResult> {
  const email = input.email.trim().toLowerCase();
  const limitKey = `login:${ctx.req.ip ?? 'local'}:${email}`;
  await enforceRateLimit(ctx, { key: limitKey, limit: 5, windowMs: 15 * 60_000 });
  const [user] = await ctx.db.select().from(users).where(sql`lower(${users.email}) = ${email}`);
  // Unknown email and wrong password take the same path and time.
  const ok = await verifyPassword(user?.passwordHash ?? null, input.password);
  if (!user || !ok) throw unauthorized('Invalid email or password');
  await resetRateLimit(ctx.db, limitKey);
  const { token, session } = await createSession(ctx.db, user.id, ctx.config.sessionTtlMs);
  const accessToken = await signAccessToken(
    ctx.config.authSecret,
    { userId: user.id, sessionToken: token },
    session.expiresAt,
  );
  setAccessCookie(ctx, accessToken, session.expiresAt);
  await audit(ctx, 'user.login', user.id, { entity: 'session' });
  return { user: toUser(user), accessToken, expiresAt: session.expiresAt.toISOString() };
}
