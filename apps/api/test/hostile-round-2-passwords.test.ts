// Hostile round 2 (issue 25, findings 3, 4, 6 and 7): password reset and change against someone who
// held the account for a while, floods of bogus reset tokens, probes for registered addresses, and
// clients spending a victim's reset limit. Each test is named after the rule that holds.
import { rowsOf } from '@folio/db';
import { emailOutbox } from '@folio/db/schema';
import * as argon2 from '@node-rs/argon2';
import { and, desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  bearer,
  caller,
  expectError,
  mailedToken,
  randomIp,
  request,
  setPlan,
  signUp,
  signUpVerified,
  startTestApp,
  type TestApp,
  type TestUser,
} from './harness';

// A pass-through spy on the library's hash (not on our code): it counts the argon2 runs a request buys.
vi.mock('@node-rs/argon2', async (importOriginal) => {
  const real = await importOriginal<typeof import('@node-rs/argon2')>();
  return { ...real, hash: vi.fn(real.hash) };
});
const argon2Hashes = () => vi.mocked(argon2.hash).mock.calls.length;

/** Every statement the app's database runs, while `recording`. */
const statements: string[] = [];
let recording = false;

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({}, { logQuery: (query) => recording && statements.push(query) });
});
afterAll(() => t.close());

const forgot = (email: string, ip?: string) =>
  request(t, 'POST', '/api/auth/forgot-password', { body: { email }, ip });
const reset = (token: string, password: string, ip?: string) =>
  request(t, 'POST', '/api/auth/reset-password', { body: { token, password }, ip });
const resetTokenFor = (email: string) => mailedToken(t, email, 'reset-password');
const keyAnswers = (key: string) => request(t, 'GET', '/api/auth/me', { headers: bearer(key) });

/** The newest mail of `kind` to `email`. */
async function newestMail(email: string, kind: string) {
  const [mail] = await t.handle.db
    .select()
    .from(emailOutbox)
    .where(and(eq(emailOutbox.to, email), eq(emailOutbox.kind, kind)))
    .orderBy(desc(emailOutbox.createdAt))
    .limit(1);
  if (!mail) throw new Error(`no ${kind} mail to ${email}`);
  return mail;
}

/** A verified BASIC user (API access) with a write key and a read key. */
async function withTwoKeys(): Promise<{ u: TestUser; keys: { key: string; prefix: string }[] }> {
  const u = await signUpVerified(t);
  await setPlan(t, u.id, 'BASIC');
  const keys = [];
  for (const scope of ['write', 'read']) {
    const res = await request(t, 'POST', '/api/api-keys', {
      headers: bearer(u.token),
      body: { name: `script ${scope}`, scope },
    });
    expect(res.status).toBe(201);
    keys.push((await res.json()).data as { key: string; prefix: string });
  }
  return { u, keys };
}

describe('API keys do not outlive a password reset', () => {
  it('a reset revokes every API key of the user, and its notice names how many', async () => {
    const { u, keys } = await withTwoKeys();
    for (const k of keys) expect((await keyAnswers(k.key)).status).toBe(200);
    await forgot(u.email);
    const res = await reset(await resetTokenFor(u.email), 'recovered pass 1');
    expect(await res.json()).toEqual({
      message: 'Password changed and 2 API keys revoked; log in with the new password',
    });
    for (const k of keys) {
      const refused = await keyAnswers(k.key);
      await expectError(refused.clone(), 401, 'Unauthorized');
      expect((await refused.json()).code).toBe('api_key_invalid');
    }
    const notice = await newestMail(u.email, 'password-changed');
    expect(notice.text).toContain('También revocamos tus 2 claves de API');
  });

  it('a password change keeps the keys unless asked, and its notice lists those left active', async () => {
    const { u, keys } = await withTwoKeys();
    const kept = await request(t, 'POST', '/api/auth/change-password', {
      headers: bearer(u.token),
      body: { currentPassword: u.password, newPassword: 'second pass 1' },
    });
    expect(await kept.json()).toEqual({ message: 'Password changed; your other sessions were ended' });
    for (const k of keys) expect((await keyAnswers(k.key)).status).toBe(200);
    const listing = (await newestMail(u.email, 'password-changed')).text;
    expect(listing).toContain('Estas claves de API siguen activas');
    for (const k of keys) expect(listing).toContain(`${k.prefix}…`);
    expect(listing).not.toContain('script write'); // names are typed by whoever held the account

    const revoked = await caller(t, u.token).auth.changePassword({
      currentPassword: 'second pass 1',
      newPassword: 'third pass 1',
      revokeApiKeys: true,
    });
    expect(revoked).toEqual({
      message: 'Password changed; your other sessions were ended and 2 API keys revoked',
    });
    for (const k of keys) expect((await keyAnswers(k.key)).status).toBe(401);
    const notice = (await newestMail(u.email, 'password-changed')).text;
    expect(notice).toContain('También revocamos tus 2 claves de API');
    expect(notice).not.toContain('siguen activas');
  });
});

describe('reset-password: the token before any hash, and limits per client and per token', () => {
  it('a bogus token is refused before argon2 runs: twenty of them hash nothing; a real one hashes once', async () => {
    const before = argon2Hashes();
    for (let i = 0; i < 20; i++) {
      await expectError(await reset(`bogus${i}`, 'whatever pass 1'), 400, 'Bad Request');
    }
    expect(argon2Hashes()).toBe(before);
    const u = await signUp(t);
    await forgot(u.email);
    const token = await resetTokenFor(u.email);
    const hashed = argon2Hashes();
    expect((await reset(token, 'recovered pass 1')).status).toBe(200);
    expect(argon2Hashes()).toBe(hashed + 1);
  });

  it('one client gets 10 tries an hour: the 11th is 429 with Retry-After', async () => {
    const ip = randomIp();
    for (let i = 0; i < 10; i++) expect((await reset(`guess${i}`, 'whatever pass 1', ip)).status).toBe(400);
    const refused = await reset('guess-last', 'whatever pass 1', ip);
    await expectError(refused.clone(), 429, 'Too Many Requests');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('one token gets 5 tries an hour from any clients; the limit is keyed by its hash, never the link', async () => {
    const token = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
    for (let i = 0; i < 5; i++) expect((await reset(token, 'whatever pass 1')).status).toBe(400);
    await expectError(await reset(token, 'whatever pass 1'), 429, 'Too Many Requests');
    const leaked = await t.handle.db.execute(sql`select 1 from rate_limits where key like ${`%${token}%`}`);
    expect(rowsOf(leaked)).toHaveLength(0);
  });
});

describe('forgot-password tells nobody which addresses are registered, and nobody can spend the owner’s limit', () => {
  it('an existing and an unknown address run the very same statements', async () => {
    const u = await signUp(t);
    const run = async (email: string) => {
      statements.length = 0;
      recording = true;
      const res = await forgot(email);
      recording = false;
      expect(res.status).toBe(200);
      return [...statements];
    };
    const known = await run(u.email);
    const unknown = await run(`nobody-${u.id}@example.com`);
    expect(known.length).toBeGreaterThan(2); // the limits, then the token, the mail and the audit
    expect(unknown).toEqual(known);
    expect((await newestMail(u.email, 'password-reset')).to).toBe(u.email);
  });

  it('requests for a victim’s address from other clients never refuse the victim’s own', async () => {
    const victim = await signUp(t);
    const attacker = randomIp();
    for (let i = 0; i < 3; i++) expect((await forgot(victim.email, attacker)).status).toBe(200);
    await expectError(await forgot(victim.email, attacker), 429, 'Too Many Requests');
    for (let i = 0; i < 3; i++) expect((await forgot(victim.email)).status).toBe(200); // three more clients
    const own = await forgot(victim.email, randomIp());
    expect(own.status).toBe(200);
    const token = await resetTokenFor(victim.email);
    expect((await reset(token, 'recovered pass 1')).status).toBe(200);
  });
});

describe('the outbox yields no live reset or verification link', () => {
  /** Rows of the outbox whose text or HTML still hold `token`. */
  const rowsHolding = async (token: string) =>
    rowsOf(
      await t.handle.db.execute(
        sql`select id from email_outbox where text like ${`%${token}%`} or html like ${`%${token}%`}`,
      ),
    );

  it('a reset link shows in the dev outbox until it is used, then no row holds it', async () => {
    const u = await signUp(t);
    await forgot(u.email);
    const token = await resetTokenFor(u.email); // read from /__dev/mail.json, as a developer would
    expect(await rowsHolding(token)).toHaveLength(1);
    expect((await reset(token, 'recovered pass 1')).status).toBe(200);
    expect(await rowsHolding(token)).toHaveLength(0);
    const mail = await newestMail(u.email, 'password-reset');
    expect(mail.text).toMatch(/\/auth\/reset-password\?token=\[retirado\]\s/);
  });

  it('a verification link leaves the outbox once the address is verified', async () => {
    const u = await signUpVerified(t); // reads the link from /__dev/mail.json, then follows it
    const mail = await newestMail(u.email, 'verify-email');
    expect(mail.text).toMatch(/\/api\/auth\/verify-email\?token=\[retirado\]\s/);
    expect(mail.html).not.toMatch(/token=(?!\[retirado\])/);
  });
});
