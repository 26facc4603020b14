import { createHash } from 'node:crypto';
import { rowsOf } from '@folio/db';
import { auditLog, emailOutbox, passwordResetTokens, sessions } from '@folio/db/schema';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  APP_URL,
  bearer,
  caller,
  expectError,
  mailedToken,
  randomIp,
  request,
  signUp,
  startTestApp,
  type TestApp,
  type TestUser,
} from './harness';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const forgot = (email: string, ip?: string) =>
  request(t, 'POST', '/api/auth/forgot-password', { body: { email }, ip });
const reset = (token: string, password: string) =>
  request(t, 'POST', '/api/auth/reset-password', { body: { token, password } });
const login = (email: string, password: string) =>
  request(t, 'POST', '/api/auth/login', { body: { email, password } });
const me = (token: string) => request(t, 'GET', '/api/auth/me', { headers: bearer(token) });
const mailsTo = (email: string, kind: string) =>
  t.handle.db
    .select()
    .from(emailOutbox)
    .where(and(eq(emailOutbox.to, email), eq(emailOutbox.kind, kind)));
const resetTokenFor = (email: string) => mailedToken(t, email, 'reset-password');

/** A second session of the same user, as another device would have it. */
async function anotherSession(u: TestUser): Promise<string> {
  const res = await login(u.email, u.password);
  expect(res.status).toBe(200);
  return (await res.json()).accessToken;
}

/** What a caller can observe of an answer, apart from the request id. */
async function observable(res: Response) {
  const headers = [...res.headers.keys()].filter((h) => h !== 'x-request-id').sort();
  return { status: res.status, headers, body: await res.text() };
}

describe('POST /api/auth/forgot-password', () => {
  it('answers an existing and an unknown address with the same status, headers and body', async () => {
    const u = await signUp(t);
    const known = await observable(await forgot(u.email));
    const unknown = await observable(await forgot(`nobody-${u.id}@example.com`));
    expect(known.status).toBe(200);
    expect(unknown).toEqual(known);
    expect(JSON.parse(known.body)).toEqual({
      message: 'If an account exists for that address, we have sent it a link to reset the password',
    });
  });

  it('mails a Spanish reset link only when the account exists; only the token hash is stored', async () => {
    const u = await signUp(t, { nombre: 'Lucía <a href=x>' });
    await forgot(`  ${u.email.toUpperCase()} `);
    const [mail] = await mailsTo(u.email, 'password-reset');
    expect(mail?.subject).toBe('Restablece tu contraseña de Folio');
    // Greets without the name the registrant typed (it could be anyone's words).
    expect(mail?.text).toMatch(/^Hola$/m);
    expect(mail?.html).not.toContain('Lucía');
    expect(mail?.text).toContain(`${APP_URL}/auth/reset-password?token=`);
    expect(mail?.text).toMatch(/caduca en 60 minutos y sirve una sola vez/);

    const token = await resetTokenFor(u.email);
    const rows = await t.handle.db
      .select()
      .from(passwordResetTokens)
      .where(eq(passwordResetTokens.userId, u.id));
    expect(rows.map((r) => r.id)).toEqual([createHash('sha256').update(token).digest('hex')]);
    const leaked = await t.handle.db.execute(
      sql`select 1 from password_reset_tokens p where p::text like ${`%${token}%`}`,
    );
    expect(rowsOf(leaked)).toHaveLength(0);
    const lifetime = rows[0]!.expiresAt.getTime() - rows[0]!.createdAt.getTime();
    expect(Math.abs(lifetime - 3600_000)).toBeLessThan(60_000);

    const nobody = `nobody-${u.id}@example.com`;
    await forgot(nobody);
    expect(await mailsTo(nobody, 'password-reset')).toHaveLength(0);
  });

  it('counts requests per address from one client in the database: the 4th in an hour is 429, account or not', async () => {
    const u = await signUp(t);
    const ip = randomIp();
    for (const email of [u.email, `ghost-${u.id}@example.com`]) {
      for (let i = 0; i < 3; i++) expect((await forgot(email, ip)).status).toBe(200);
      const refused = await forgot(email, ip);
      await expectError(refused, 429, 'Too Many Requests');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect(await mailsTo(u.email, 'password-reset')).toHaveLength(3);
  });

  it('counts requests per IP too: the 11th in an hour from one address is 429', async () => {
    const ip = randomIp();
    for (let i = 0; i < 10; i++) expect((await forgot(`spray-${i}-${ip}@example.com`, ip)).status).toBe(200);
    await expectError(await forgot(`spray-last-${ip}@example.com`, ip), 429, 'Too Many Requests');
  });

  it('answers 400 for a malformed address', async () => {
    await expectError(await forgot('not-an-email'), 400, 'Bad Request');
  });

  it('takes as long for an unknown address as for an existing one (latency check)', async () => {
    const users = await Promise.all(Array.from({ length: 7 }, () => signUp(t)));
    const timed = async (email: string) => {
      const started = performance.now();
      expect((await forgot(email)).status).toBe(200);
      return performance.now() - started;
    };
    const known: number[] = [];
    const unknown: number[] = [];
    // Interleaved, so load on the machine hits both alike.
    for (const u of users) {
      known.push(await timed(u.email));
      unknown.push(await timed(`absent-${u.id}@example.com`));
    }
    // The fastest of each is the least disturbed by load on the machine. Both paths look up, render
    // and run a transaction; only the known one writes its three rows, tens of ms at most here.
    const fastest = (xs: number[]) => Math.min(...xs);
    expect(Math.abs(fastest(known) - fastest(unknown))).toBeLessThan(Math.max(40, fastest(unknown) * 0.5));
  });
});

describe('POST /api/auth/reset-password', () => {
  it('sets the new password and ends every session of the user; the link works once', async () => {
    const u = await signUp(t);
    const other = await anotherSession(u);
    await forgot(u.email);
    const token = await resetTokenFor(u.email);

    const res = await reset(token, 'a-brand-new-pass');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: 'Password changed; log in with the new password' });
    for (const session of [u.token, other]) await expectError(await me(session), 401, 'Unauthorized');
    expect(await t.handle.db.select().from(sessions).where(eq(sessions.userId, u.id))).toHaveLength(0);
    await expectError(await login(u.email, u.password), 401, 'Unauthorized');
    expect((await login(u.email, 'a-brand-new-pass')).status).toBe(200);

    expect(await expectError(await reset(token, 'yet-another-pass'), 400, 'Bad Request')).toMatch(
      /Invalid or expired password reset token/,
    );
    expect((await login(u.email, 'a-brand-new-pass')).status).toBe(200);
  });

  it('mails a Spanish "your password changed" notice and writes the audit trail', async () => {
    const u = await signUp(t);
    await forgot(u.email);
    await reset(await resetTokenFor(u.email), 'a-brand-new-pass');
    const [notice] = await mailsTo(u.email, 'password-changed');
    expect(notice?.subject).toBe('Tu contraseña de Folio cambió');
    expect(notice?.text).toContain(`${APP_URL}/auth/forgot-password`);
    const actions = await t.handle.db.select().from(auditLog).where(eq(auditLog.userId, u.id));
    expect(actions.map((a) => a.action)).toEqual(
      expect.arrayContaining(['user.password_reset_requested', 'user.password_reset']),
    );
  });

  it('refuses a link older than an hour, and changes nothing', async () => {
    const u = await signUp(t);
    await forgot(u.email);
    const token = await resetTokenFor(u.email);
    await t.handle.db
      .update(passwordResetTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(passwordResetTokens.userId, u.id));
    await expectError(await reset(token, 'a-brand-new-pass'), 400, 'Bad Request');
    expect((await me(u.token)).status).toBe(200);
    expect((await login(u.email, u.password)).status).toBe(200);
  });

  it('a newer request replaces the older link', async () => {
    const u = await signUp(t);
    await forgot(u.email);
    const older = await resetTokenFor(u.email);
    await forgot(u.email);
    const newer = await resetTokenFor(u.email);
    expect(newer).not.toBe(older);
    await expectError(await reset(older, 'a-brand-new-pass'), 400, 'Bad Request');
    expect((await reset(newer, 'a-brand-new-pass')).status).toBe(200);
  });

  it('two concurrent uses of one link: exactly one succeeds', async () => {
    const u = await signUp(t);
    await forgot(u.email);
    const token = await resetTokenFor(u.email);
    const statuses = (
      await Promise.all([reset(token, 'first-new-pass'), reset(token, 'second-new-pass')])
    ).map((r) => r.status);
    expect(statuses.sort()).toEqual([200, 400]);
  });

  it('refuses a password shorter than 8 characters (400) and keeps the link usable', async () => {
    const u = await signUp(t);
    await forgot(u.email);
    const token = await resetTokenFor(u.email);
    await expectError(await reset(token, 'short'), 400, 'Bad Request');
    expect((await reset(token, 'long-enough-now')).status).toBe(200);
  });
});

describe('POST /api/auth/change-password', () => {
  const change = (token: string, body: unknown) =>
    request(t, 'POST', '/api/auth/change-password', { headers: bearer(token), body });

  it('changes the password, keeps the caller signed in and ends the other sessions', async () => {
    const u = await signUp(t);
    const other = await anotherSession(u);
    const res = await change(u.token, { currentPassword: u.password, newPassword: 'changed-pass-1' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: 'Password changed; your other sessions were ended' });
    expect((await me(u.token)).status).toBe(200);
    await expectError(await me(other), 401, 'Unauthorized');
    await expectError(await login(u.email, u.password), 401, 'Unauthorized');
    expect((await login(u.email, 'changed-pass-1')).status).toBe(200);
    expect(await mailsTo(u.email, 'password-changed')).toHaveLength(1);
  });

  it('refuses a wrong current password (400) and changes nothing', async () => {
    const u = await signUp(t);
    const other = await anotherSession(u);
    const res = await change(u.token, { currentPassword: 'not-my-password', newPassword: 'changed-pass-1' });
    expect(await expectError(res, 400, 'Bad Request')).toBe('Current password is incorrect');
    expect((await me(other)).status).toBe(200);
    expect((await login(u.email, u.password)).status).toBe(200);
  });

  it('limits guesses of the current password: the 6th attempt in 15 minutes is 429', async () => {
    const u = await signUp(t);
    for (let i = 0; i < 5; i++) {
      expect(
        (await change(u.token, { currentPassword: `guess-${i}-pass`, newPassword: 'changed-pass-1' })).status,
      ).toBe(400);
    }
    await expectError(
      await change(u.token, { currentPassword: u.password, newPassword: 'changed-pass-1' }),
      429,
      'Too Many Requests',
    );
  });

  it('needs a session (401), and a new password of at least 8 characters (400)', async () => {
    await expectError(
      await request(t, 'POST', '/api/auth/change-password', {
        body: { currentPassword: 'x', newPassword: 'changed-pass-1' },
      }),
      401,
      'Unauthorized',
    );
    const u = await signUp(t);
    await expectError(
      await change(u.token, { currentPassword: u.password, newPassword: 'short' }),
      400,
      'Bad Request',
    );
  });

  it('works the same through the tRPC caller', async () => {
    const u = await signUp(t);
    const other = await anotherSession(u);
    await expect(
      caller(t, u.token).auth.changePassword({
        currentPassword: 'wrong-password',
        newPassword: 'changed-pass-1',
      }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(
      caller(t, u.token).auth.changePassword({ currentPassword: u.password, newPassword: 'changed-pass-1' }),
    ).resolves.toEqual({ message: 'Password changed; your other sessions were ended' });
    expect((await me(u.token)).status).toBe(200);
    expect((await me(other)).status).toBe(401);
  });
});
