import { sessions } from '@folio/db/schema';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { caller, signUp, startTestApi, type TestApi, type TestUser, testConfig } from './harness';

// The session cache (services/auth/session-cache.ts, docs/design.md#session-cache): what this process
// does to a session takes effect at once, what happens elsewhere within SESSION_CACHE_MS. Its window
// here is a minute, so an answer that comes at once comes from the forgetting, not from the window.

const WINDOW_MS = 60_000;
let t: TestApi;
let cached: TestApi;
beforeAll(async () => {
  t = await startTestApi();
  cached = { ...t, deps: { ...t.deps, config: { ...testConfig, sessionCacheMs: WINDOW_MS } } };
});
afterAll(() => t.close());
afterEach(() => {
  vi.useRealTimers();
});

const me = (token: string) => caller(cached, token).auth.me();
const refused = { code: 'UNAUTHORIZED' };
const anotherLogin = async (u: TestUser) =>
  (await caller(cached).auth.login({ email: u.email, password: u.password })).accessToken;

describe('a session read is trusted for SESSION_CACHE_MS', () => {
  it('a session deleted straight in the database still answers within the window, and not after it', async () => {
    const u = await signUp(t);
    expect((await me(u.token)).user.id).toBe(u.id);
    await t.handle.db.delete(sessions).where(eq(sessions.userId, u.id));
    // Without the cache the deletion is seen on the next request.
    await expect(caller(t, u.token).auth.me()).rejects.toMatchObject(refused);
    expect((await me(u.token)).user.id).toBe(u.id);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + WINDOW_MS + 1);
    await expect(me(u.token)).rejects.toMatchObject(refused);
  });
});

describe('what this process does to a session takes effect at once', () => {
  it('logout: the token is refused on the next request', async () => {
    const u = await signUp(t);
    await me(u.token);
    await caller(cached, u.token).auth.logout();
    await expect(me(u.token)).rejects.toMatchObject(refused);
  });

  it("a password change: the user's other sessions are refused, the caller's own goes on", async () => {
    const u = await signUp(t);
    const other = await anotherLogin(u);
    await me(u.token);
    await me(other);
    await caller(cached, u.token).auth.changePassword({
      currentPassword: u.password,
      newPassword: 'another horse 2',
    });
    await expect(me(other)).rejects.toMatchObject(refused);
    expect((await me(u.token)).user.id).toBe(u.id);
  });

  it("another user's logout leaves this user's cached session alone", async () => {
    const [a, b] = [await signUp(t), await signUp(t)];
    await me(a.token);
    await caller(cached, b.token).auth.logout();
    // Deleted behind the cache's back: only the cache can still answer for it.
    await t.handle.db.delete(sessions).where(eq(sessions.userId, a.id));
    expect((await me(a.token)).user.id).toBe(a.id);
  });
});
