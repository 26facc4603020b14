import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  mailedToken,
  request,
  signUp,
  startTestApp,
  type TestApp,
  testConfig,
  verificationTokenFor,
} from './harness';

// The session cache over HTTP (packages/api/test/session-cache.test.ts holds its window through the
// caller): with a window of a minute, what this process does to a session or its user shows at once.

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ config: { ...testConfig, sessionCacheMs: 60_000 } });
});
afterAll(() => t.close());

const me = async (token: string) => {
  const res = await request(t, 'GET', '/api/auth/me', { headers: bearer(token) });
  return { status: res.status, body: (await res.json()) as { user?: { email_verified: boolean } } };
};

describe('a cached session over HTTP', () => {
  it('logout: the next request with the token is 401', async () => {
    const u = await signUp(t);
    expect((await me(u.token)).status).toBe(200);
    const out = await request(t, 'POST', '/api/auth/logout', { headers: bearer(u.token) });
    expect(out.status).toBe(200);
    expect((await me(u.token)).status).toBe(401);
  });

  it("verifying the email shows on the session's next request", async () => {
    const u = await signUp(t);
    expect((await me(u.token)).body.user?.email_verified).toBe(false);
    const token = await verificationTokenFor(t, u.email);
    const verified = await request(t, 'POST', '/api/auth/verify-email', { body: { token } });
    expect(verified.status).toBe(200);
    expect((await me(u.token)).body.user?.email_verified).toBe(true);
  });

  it('a password reset: every session of the user is 401 on its next request', async () => {
    const u = await signUp(t);
    expect((await me(u.token)).status).toBe(200);
    await request(t, 'POST', '/api/auth/forgot-password', { body: { email: u.email } });
    const token = await mailedToken(t, u.email, 'reset-password');
    const reset = await request(t, 'POST', '/api/auth/reset-password', {
      body: { token, password: 'a-brand-new-pass' },
    });
    expect(reset.status).toBe(200);
    expect((await me(u.token)).status).toBe(401);
  });
});
