import { auditLog, emailOutbox, sessions, users } from '@folio/db/schema';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  APP_URL,
  bearer,
  caller,
  cookie,
  expectError,
  randomIp,
  request,
  signUp,
  startTestApp,
  type TestApp,
  verificationTokenFor,
} from './harness';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const USER_KEYS = [
  'apellido',
  'email',
  'email_verified',
  'id',
  'nombre',
  'telefono',
  'tour_completed_at',
  'tour_version',
];
const register = (body: unknown, ip?: string) => request(t, 'POST', '/api/auth/register', { body, ip });
const auditActions = async (userId: string) =>
  (await t.handle.db.select().from(auditLog).where(eq(auditLog.userId, userId))).map((r) => r.action).sort();

describe('POST /api/auth/register', () => {
  it('creates an unverified user (201) with exactly the spec fields, email trimmed and lower-cased', async () => {
    const res = await register({
      email: '  Maria.Lopez@Example.COM ',
      password: 'una-clave-larga',
      nombre: 'María',
      telefono: '5512345678',
    });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(Object.keys(body).sort()).toEqual(['message', 'user']);
    expect(Object.keys(body.user).sort()).toEqual(USER_KEYS);
    expect(body.user).toMatchObject({
      email: 'maria.lopez@example.com',
      nombre: 'María',
      apellido: null,
      telefono: '5512345678',
      email_verified: false,
      tour_version: null,
      tour_completed_at: null,
    });
  });

  it('stores the password as an argon2id hash, never as given', async () => {
    await register({ email: 'hash@example.com', password: 'plain-text-pass' });
    const [row] = await t.handle.db.select().from(users).where(eq(users.email, 'hash@example.com'));
    expect(row?.passwordHash).toMatch(/^\$argon2id\$/);
    expect(row?.passwordHash).not.toContain('plain-text-pass');
  });

  it('writes the Spanish verification email to the outbox in the same transaction', async () => {
    await register({ email: 'mail@example.com', password: 'long-enough-1', nombre: 'Luis' });
    const rows = await t.handle.db.select().from(emailOutbox).where(eq(emailOutbox.to, 'mail@example.com'));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.subject).toBe('Confirma tu correo en Folio');
    expect(rows[0]?.text).toContain(`${APP_URL}/api/auth/verify-email?token=`);
    expect(rows[0]?.text).toMatch(/^Hola$/m); // the registrant's name stays out (unverified address)
  });

  it('refuses an already registered email, in any letter case, with 400 VALIDATION_ERROR', async () => {
    await register({ email: 'taken@example.com', password: 'long-enough-1' });
    const res = await register({ email: 'TAKEN@example.com', password: 'other-pass-123' });
    expect(await expectError(res, 400, 'VALIDATION_ERROR')).toMatch(/already registered/);
    expect(await t.handle.db.select().from(users).where(eq(users.email, 'taken@example.com'))).toHaveLength(
      1,
    );
  });

  it('refuses an invalid email format with 400 VALIDATION_ERROR', async () => {
    for (const email of ['not-an-email', 'a@', '@b.mx', '']) {
      const res = await register({ email, password: 'long-enough-1' });
      expect(await expectError(res, 400, 'VALIDATION_ERROR')).toMatch(/^email: /);
    }
  });

  it('refuses a missing, short or over-long password with 400 VALIDATION_ERROR', async () => {
    for (const password of [undefined, 'short', 'x'.repeat(129), 12345678]) {
      const res = await register({ email: `pw-${Math.random()}@example.com`, password });
      expect(await expectError(res, 400, 'VALIDATION_ERROR')).toMatch(/^password: /);
    }
  });

  it('limits registrations to 10 per hour per IP (429 with Retry-After)', async () => {
    const ip = randomIp();
    for (let i = 0; i < 10; i++) {
      expect(
        (await register({ email: `burst-${i}@example.com`, password: 'long-enough-1' }, ip)).status,
      ).toBe(201);
    }
    const res = await register({ email: 'burst-10@example.com', password: 'long-enough-1' }, ip);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(3000);
    await expectError(res, 429, 'Too Many Requests');
    expect((await register({ email: 'burst-10@example.com', password: 'long-enough-1' })).status).toBe(201);
  });
});

describe('login, sessions and access tokens', () => {
  it('logs in with {message, user, accessToken, expiresAt} and an HttpOnly SameSite=Lax cookie', async () => {
    await register({ email: 'login@example.com', password: 'right-password' });
    const res = await request(t, 'POST', '/api/auth/login', {
      body: { email: 'LOGIN@example.com', password: 'right-password' },
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(Object.keys(body).sort()).toEqual(['accessToken', 'expiresAt', 'message', 'user']);
    expect(body.accessToken.split('.')).toHaveLength(3);
    expect(new Date(body.expiresAt).getTime()).toBeGreaterThan(Date.now() + 6 * 86_400_000);
    const setCookie = res.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/^access_token=[\w.-]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+$/);
  });

  it('answers a wrong password and an unknown email with the same 401', async () => {
    await register({ email: 'known@example.com', password: 'right-password' });
    const wrong = await request(t, 'POST', '/api/auth/login', {
      body: { email: 'known@example.com', password: 'nope-nope' },
    });
    const unknown = await request(t, 'POST', '/api/auth/login', {
      body: { email: 'ghost@example.com', password: 'nope-nope' },
    });
    const m1 = await expectError(wrong, 401, 'Unauthorized');
    const m2 = await expectError(unknown, 401, 'Unauthorized');
    expect(m1).toBe(m2);
  });

  it('limits login to 5 attempts per 15 minutes per IP and email', async () => {
    await register({ email: 'brute@example.com', password: 'right-password' });
    const ip = randomIp();
    const attempt = (password: string, from = ip) =>
      request(t, 'POST', '/api/auth/login', { body: { email: 'brute@example.com', password }, ip: from });
    for (let i = 0; i < 5; i++) expect((await attempt('wrong-guess')).status).toBe(401);
    const blocked = await attempt('right-password');
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    await expectError(blocked, 429, 'Too Many Requests');
    expect((await attempt('right-password', randomIp())).status).toBe(200);
  });

  it('accepts the token as Bearer only and as cookie only', async () => {
    const user = await signUp(t);
    for (const headers of [bearer(user.token), { cookie: `access_token=${user.token}` }]) {
      const res = await request(t, 'GET', '/api/auth/me', { headers });
      expect(res.status).toBe(200);
      expect((await res.json()).user.id).toBe(user.id);
    }
  });

  it('answers 401 for a missing, malformed, tampered or foreign-signed token', async () => {
    const user = await signUp(t);
    const [h, p, s] = user.token.split('.');
    const tampered = `${h}.${Buffer.from(JSON.stringify({ sub: 'someone-else', sid: 'x' })).toString('base64url')}.${s}`;
    const forged = `${h}.${p}.${Buffer.from('not the signature').toString('base64url')}`;
    for (const headers of [
      {},
      bearer('garbage'),
      bearer(tampered),
      bearer(forged),
      { authorization: `Basic ${user.token}` },
    ]) {
      await expectError(await request(t, 'GET', '/api/auth/me', { headers }), 401, 'Unauthorized');
    }
  });

  it('revokes the session on logout: the same token then gets 401, and the cookie is cleared', async () => {
    const user = await signUp(t);
    const res = await request(t, 'POST', '/api/auth/logout', { headers: bearer(user.token) });
    expect(res.status).toBe(200);
    expect(res.headers.get('set-cookie')).toMatch(/^access_token=; .*Max-Age=0/);
    await expectError(
      await request(t, 'GET', '/api/auth/me', { headers: bearer(user.token) }),
      401,
      'Unauthorized',
    );
    expect((await request(t, 'POST', '/api/auth/logout')).status).toBe(200);
  });

  it('rejects a token whose session expired', async () => {
    const user = await signUp(t);
    await t.handle.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.userId, user.id));
    await expectError(
      await request(t, 'GET', '/api/auth/me', { headers: bearer(user.token) }),
      401,
      'Unauthorized',
    );
  });

  it('slides a half-spent session forward and hands cookie clients a fresh token', async () => {
    const user = await signUp(t);
    const soon = new Date(Date.now() + 86_400_000);
    await t.handle.db.update(sessions).set({ expiresAt: soon }).where(eq(sessions.userId, user.id));
    const res = await request(t, 'GET', '/api/auth/me', {
      headers: { cookie: `access_token=${user.token}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('set-cookie')).toMatch(/^access_token=[\w.-]+;/);
    const [row] = await t.handle.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(row!.expiresAt.getTime()).toBeGreaterThan(Date.now() + 6 * 86_400_000);
  });

  it('stores only a hash of the session secret', async () => {
    const user = await signUp(t);
    const sid = JSON.parse(Buffer.from(user.token.split('.')[1]!, 'base64url').toString()).sid as string;
    const rows = await t.handle.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(rows.map((r) => r.id)).not.toContain(sid);
    expect(rows[0]?.id).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('CSRF: cookie-authenticated writes need our Origin', () => {
  it('refuses a cookie POST without Origin or from another origin with 403', async () => {
    const user = await signUp(t);
    const jar = { cookie: `access_token=${user.token}` };
    for (const headers of [jar, { ...jar, origin: 'https://evil.example' }]) {
      const res = await request(t, 'POST', '/api/auth/resend-verification', { headers });
      expect(await expectError(res, 403, 'Forbidden')).toMatch(/Origin/);
    }
  });

  it('accepts a cookie POST from APP_URL and a Bearer POST with no Origin', async () => {
    const user = await signUp(t);
    expect(
      (await request(t, 'POST', '/api/auth/resend-verification', { headers: cookie(user.token) })).status,
    ).toBe(200);
    expect(
      (await request(t, 'POST', '/api/auth/resend-verification', { headers: bearer(user.token) })).status,
    ).toBe(200);
  });
});

describe('email verification', () => {
  it('verifies through the GET link and through POST {token}; a second use says already verified', async () => {
    const a = await signUp(t);
    const linkToken = await verificationTokenFor(t, a.email);
    const res = await request(t, 'GET', `/api/auth/verify-email?token=${linkToken}`);
    expect(res.status).toBe(200);
    const first = await res.json();
    expect(first.message).toBe('Email verified');
    expect(first.user).toMatchObject({ id: a.id, email_verified: true });
    const again = await request(t, 'GET', `/api/auth/verify-email?token=${linkToken}`, {
      headers: { accept: 'application/json' },
    });
    expect(again.status).toBe(200);
    // A used link reveals nothing of the account (id, email, names, phone) to whoever holds it.
    expect(await again.json()).toEqual({ message: 'Email already verified' });
    const viaPostAgain = await request(t, 'POST', '/api/auth/verify-email', { body: { token: linkToken } });
    expect(await viaPostAgain.json()).toEqual({ message: 'Email already verified' });

    const b = await signUp(t);
    const postToken = await verificationTokenFor(t, b.email);
    const viaPost = await request(t, 'POST', '/api/auth/verify-email', { body: { token: postToken } });
    expect((await viaPost.json()).user.email_verified).toBe(true);
    const me = await request(t, 'GET', '/api/auth/me', { headers: bearer(b.token) });
    expect((await me.json()).user.email_verified).toBe(true);
  });

  it('answers 400 for an unknown, missing or expired token', async () => {
    await expectError(await request(t, 'GET', '/api/auth/verify-email?token=nope'), 400, 'Bad Request');
    await expectError(await request(t, 'GET', '/api/auth/verify-email'), 400, 'Bad Request');
    await expectError(await request(t, 'POST', '/api/auth/verify-email', { body: {} }), 400, 'Bad Request');
  });

  it('resend issues a new link and the old one stops working', async () => {
    const user = await signUp(t);
    const first = await verificationTokenFor(t, user.email);
    const res = await request(t, 'POST', '/api/auth/resend-verification', { headers: bearer(user.token) });
    expect(await res.json()).toEqual({ message: 'Verification email sent' });
    const second = await verificationTokenFor(t, user.email);
    expect(second).not.toBe(first);
    await expectError(await request(t, 'GET', `/api/auth/verify-email?token=${first}`), 400, 'Bad Request');
    expect((await request(t, 'GET', `/api/auth/verify-email?token=${second}`)).status).toBe(200);
  });

  it('limits resends to 3 per hour per user', async () => {
    const user = await signUp(t);
    for (let i = 0; i < 3; i++) {
      expect(
        (await request(t, 'POST', '/api/auth/resend-verification', { headers: bearer(user.token) })).status,
      ).toBe(200);
    }
    const res = await request(t, 'POST', '/api/auth/resend-verification', { headers: bearer(user.token) });
    await expectError(res, 429, 'Too Many Requests');
  });
});

describe('audit trail', () => {
  it('records register, login, verify and logout for the user', async () => {
    const user = await signUp(t);
    const token = await verificationTokenFor(t, user.email);
    await request(t, 'GET', `/api/auth/verify-email?token=${token}`);
    await request(t, 'POST', '/api/auth/logout', { headers: bearer(user.token) });
    expect(await auditActions(user.id)).toEqual([
      'user.login',
      'user.logout',
      'user.register',
      'user.verify_email',
    ]);
    const [login] = await t.handle.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.userId, user.id), eq(auditLog.action, 'user.login')));
    expect(login?.ip).toMatch(/^10\./);
    expect(login?.requestId).toBeTruthy();
  });
});

describe('the same procedures through the tRPC caller', () => {
  it('registers, logs in and reads the user with the same rules', async () => {
    const anon = caller(t);
    const { user } = await anon.auth.register({ email: 'Trpc@Example.com', password: 'long-enough-1' });
    expect(user.email).toBe('trpc@example.com');
    await expect(
      anon.auth.register({ email: 'trpc@example.com', password: 'long-enough-1' }),
    ).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: 'Email is already registered',
    });
    const { accessToken } = await anon.auth.login({ email: 'trpc@example.com', password: 'long-enough-1' });
    const me = await caller(t, accessToken).auth.me();
    expect(me.user.id).toBe(user.id);
    await expect(anon.auth.me()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });
});
