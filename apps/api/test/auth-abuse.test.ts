import { randomUUID } from 'node:crypto';
import { CLIENT_LOGIN_FAILURES } from '@folio/api';
import { sessions, users } from '@folio/db/schema';
import type { TRPCError } from '@trpc/server';
import { eq } from 'drizzle-orm';
import superjson from 'superjson';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BATCH } from '../src/http/trpc';
import {
  APP_URL,
  caller,
  expectError,
  randomIp,
  request,
  signUp,
  startTestApp,
  type TestApp,
} from './harness';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const sessionsOf = async (userId: string) =>
  (await t.handle.db.select().from(sessions).where(eq(sessions.userId, userId))).length;

describe('login CSRF: no cross-site request sets the session cookie', () => {
  it('a text/plain (or type-less) login or register is refused with 415 and sets nothing', async () => {
    const u = await signUp(t);
    const before = await sessionsOf(u.id);
    const credentials = JSON.stringify({ email: u.email, password: u.password });
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', undefined]) {
      const headers: Record<string, string> = type ? { 'content-type': type } : {};
      const res = await t.app.request('/api/auth/login', { method: 'POST', headers, body: credentials });
      expect(res.headers.get('set-cookie')).toBeNull();
      await expectError(res, 415, 'Unsupported Media Type');
      const email = `csrf-${randomUUID()}@example.com`;
      const reg = await t.app.request('/api/auth/register', {
        method: 'POST',
        headers: { ...headers, 'x-forwarded-for': randomIp() },
        body: JSON.stringify({ email, password: 'correct horse 1' }),
      });
      await expectError(reg, 415, 'Unsupported Media Type');
      expect(await t.handle.db.select().from(users).where(eq(users.email, email))).toHaveLength(0);
    }
    expect(await sessionsOf(u.id)).toBe(before);
  });

  it('a JSON login from another Origin is refused with 403 before any session exists; ours and none pass', async () => {
    const u = await signUp(t);
    const before = await sessionsOf(u.id);
    const body = { email: u.email, password: u.password };
    for (const origin of ['https://evil.example', 'null']) {
      const res = await request(t, 'POST', '/api/auth/login', { headers: { origin }, body });
      expect(res.headers.get('set-cookie')).toBeNull();
      await expectError(res, 403, 'Forbidden');
    }
    expect(await sessionsOf(u.id)).toBe(before);
    const ours = await request(t, 'POST', '/api/auth/login', { headers: { origin: APP_URL }, body });
    expect(ours.status).toBe(200);
    expect(ours.headers.get('set-cookie')).toMatch(/^access_token=/);
    // Clients that are not browsers send no Origin (the CLI, the SDK).
    expect((await request(t, 'POST', '/api/auth/login', { body })).status).toBe(200);
  });

  it('a cross-site logout cannot clear the cookie either', async () => {
    const res = await request(t, 'POST', '/api/auth/logout', { headers: { origin: 'https://evil.example' } });
    expect(res.headers.get('set-cookie')).toBeNull();
    await expectError(res, 403, 'Forbidden');
  });
});

describe('password guessing at scale', () => {
  const trpcBatch = (paths: string[], input: unknown) =>
    t.app.request(`/trpc/${paths.join(',')}?batch=1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': randomIp() },
      body: JSON.stringify(Object.fromEntries(paths.map((_, i) => [i, superjson.serialize(input)]))),
    });

  it(`a tRPC batch holds at most ${MAX_BATCH} calls`, async () => {
    const u = await signUp(t);
    const me = (n: number) =>
      t.app.request(`/trpc/${Array(n).fill('auth.me').join(',')}?batch=1&input={}`, {
        headers: { authorization: `Bearer ${u.token}` },
      });
    expect((await me(MAX_BATCH)).status).toBe(200);
    expect((await me(MAX_BATCH + 1)).status).toBe(400);
  });

  it('auth mutations cannot be batched: one request checks at most one password', async () => {
    const u = await signUp(t);
    const res = await trpcBatch(['auth.login', 'auth.login'], { email: u.email, password: 'guess' });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { json: { message: string } } }[];
    expect(body.map((b) => b.error.json.message)).toEqual([
      'auth mutations cannot be batched',
      'auth mutations cannot be batched',
    ]);
    // Alone, it is an ordinary login.
    const alone = await t.app.request('/trpc/auth.login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(superjson.serialize({ email: u.email, password: u.password })),
    });
    expect(alone.status).toBe(200);
  });

  it(`one client gets ${CLIENT_LOGIN_FAILURES} failed logins per 15 minutes over all e-mails, then 429`, async () => {
    const ip = randomIp();
    const statuses: number[] = [];
    for (let i = 0; i < CLIENT_LOGIN_FAILURES + 5; i++) {
      const body = { email: `spray-${i}-${randomUUID()}@example.com`, password: 'Verano2025!' };
      const res = await request(t, 'POST', '/api/auth/login', { ip, body });
      statuses.push(res.status);
      if (res.status === 429) expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
    }
    expect(statuses).toEqual([...Array(CLIENT_LOGIN_FAILURES).fill(401), ...Array(5).fill(429)]);
    // Another client is not affected.
    const other = { email: `spray-x-${randomUUID()}@example.com`, password: 'Verano2025!' };
    expect((await request(t, 'POST', '/api/auth/login', { body: other })).status).toBe(401);
  });

  it('successful logins do not count toward the client limit (an office behind one address)', async () => {
    const u = await signUp(t);
    const ip = randomIp();
    const body = { email: u.email, password: u.password };
    for (let i = 0; i < CLIENT_LOGIN_FAILURES + 2; i++) {
      expect((await request(t, 'POST', '/api/auth/login', { ip, body })).status).toBe(200);
    }
  });

  it('the tRPC caller meets the same client limit', async () => {
    const c = caller(t); // one caller, one client address
    const attempt = (i: number) =>
      c.auth
        .login({ email: `caller-${i}-${randomUUID()}@example.com`, password: 'Verano2025!' })
        .catch((e) => e);
    for (let i = 0; i < CLIENT_LOGIN_FAILURES; i++) {
      expect(((await attempt(i)) as TRPCError).code).toBe('UNAUTHORIZED');
    }
    expect(((await attempt(-1)) as TRPCError).code).toBe('TOO_MANY_REQUESTS');
  });
});

describe('the verification mail to an unverified address', () => {
  it('carries nothing the registrant typed: no name, no link of theirs', async () => {
    const email = `victim-${randomUUID()}@example.com`;
    const nombre = 'Soporte: tu cuenta será suspendida, entra a https://evil.example';
    const reg = await request(t, 'POST', '/api/auth/register', {
      body: { email, password: 'correct horse 1', nombre, apellido: 'www.evil.example' },
    });
    expect(reg.status).toBe(201);
    const res = await t.app.request(`/__dev/mail.json?to=${encodeURIComponent(email)}`);
    const { data } = (await res.json()) as { data: { subject: string; text: string; html: string }[] };
    expect(data).toHaveLength(1);
    for (const part of [data[0]!.subject, data[0]!.text, data[0]!.html]) {
      expect(part).not.toContain('evil.example');
      expect(part).not.toContain('Soporte');
    }
    expect(data[0]!.text).toMatch(/verify-email\?token=/);
  });
});
