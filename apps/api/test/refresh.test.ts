import { sessions } from '@folio/db/schema';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  caller,
  cookie,
  expectError,
  request,
  signUp,
  startTestApp,
  type TestApp,
  testConfig,
} from './harness';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const DAY = 86_400_000;
const refresh = (headers: Record<string, string>) => request(t, 'POST', '/api/auth/refresh', { headers });
const expOf = (jwt: string) =>
  JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()).exp as number;
const sessionExpiry = async (userId: string) =>
  (await t.handle.db.select().from(sessions).where(eq(sessions.userId, userId)))[0]!.expiresAt.getTime();
/** Ages the user's session as if it had been opened days ago: it now ends tomorrow. */
const endTomorrow = (userId: string) =>
  t.handle.db
    .update(sessions)
    .set({ expiresAt: new Date(Date.now() + DAY) })
    .where(eq(sessions.userId, userId));

describe('POST /api/auth/refresh', () => {
  it('gives a Bearer client a fresh access token whose expiry is the session’s, moved to now + TTL', async () => {
    const u = await signUp(t);
    await endTomorrow(u.id);
    const before = Date.now();
    const res = await refresh(bearer(u.token));
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(Object.keys(body).sort()).toEqual(['accessToken', 'expiresAt', 'message']);
    const expiresAt = new Date(body.expiresAt).getTime();
    expect(expiresAt).toBeGreaterThanOrEqual(before + testConfig.sessionTtlMs - 1000);
    expect(await sessionExpiry(u.id)).toBe(expiresAt);
    expect(expOf(body.accessToken)).toBe(Math.floor(expiresAt / 1000));
    expect(res.headers.get('set-cookie')).toBeNull();
    // The new token works, and so does the old one: it is the same session.
    for (const token of [body.accessToken, u.token]) {
      expect((await request(t, 'GET', '/api/auth/me', { headers: bearer(token) })).status).toBe(200);
    }
  });

  it('renews the cookie of a cookie client', async () => {
    const u = await signUp(t);
    await endTomorrow(u.id);
    const res = await refresh(cookie(u.token));
    expect(res.status).toBe(200);
    const set = res.headers.get('set-cookie') ?? '';
    expect(set).toMatch(/^access_token=[\w.-]+;.*HttpOnly/);
    expect(Number(/Max-Age=(\d+)/.exec(set)?.[1])).toBeGreaterThan(6 * 86_400);
  });

  it('refuses a revoked session, a missing token and a cross-site cookie request', async () => {
    const u = await signUp(t);
    await request(t, 'POST', '/api/auth/logout', { headers: bearer(u.token) });
    await expectError(await refresh(bearer(u.token)), 401, 'Unauthorized');
    await expectError(await refresh({}), 401, 'Unauthorized');
    const v = await signUp(t);
    await expectError(
      await refresh({ cookie: `access_token=${v.token}`, origin: 'https://evil.example' }),
      403,
      'Forbidden',
    );
  });

  it('works through the tRPC caller', async () => {
    const u = await signUp(t);
    await endTomorrow(u.id);
    const out = await caller(t, u.token).auth.refresh();
    expect(new Date(out.expiresAt).getTime()).toBeGreaterThan(Date.now() + 6 * DAY);
    expect(await sessionExpiry(u.id)).toBe(new Date(out.expiresAt).getTime());
  });
});
