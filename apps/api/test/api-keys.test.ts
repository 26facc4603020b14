import { createHash } from 'node:crypto';
import { rowsOf } from '@folio/db';
import { apiKeys, auditLog } from '@folio/db/schema';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditActions, cancelNowInPortal, subscribe } from './billing-helpers';
import {
  bearer,
  caller,
  cookie,
  createProfile,
  expectError,
  randomIp,
  request,
  rfcMoral,
  setPlan,
  signUp,
  signUpVerified,
  startTestApp,
  type TestApp,
  type TestUser,
} from './harness';

/** plan-features §1: API keys, on both transports (REST through app.request, tRPC through the caller). */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

interface KeyAnswer {
  id: string;
  name: string;
  scope: 'read' | 'write';
  prefix: string;
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
  key: string;
}

/** A verified user on a plan with apiAccess. */
async function developer(plan: 'BASIC' | 'PRO' = 'BASIC'): Promise<TestUser> {
  const u = await signUpVerified(t);
  await setPlan(t, u.id, plan);
  return u;
}

const postKey = (u: TestUser, body: unknown = { name: 'script' }) =>
  request(t, 'POST', '/api/api-keys', { headers: bearer(u.token), body });

async function newKey(u: TestUser, body: Record<string, unknown> = { name: 'script' }): Promise<KeyAnswer> {
  const res = await postKey(u, body);
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()).data;
}

const withKey = (key: string, method: string, path: string, body?: unknown, ip?: string) =>
  request(t, method, path, { headers: bearer(key), body, ip });

const me = async (key: string, ip?: string) => withKey(key, 'GET', '/api/auth/me', undefined, ip);

async function keyRow(id: string) {
  const [row] = await t.handle.db.select().from(apiKeys).where(eq(apiKeys.id, id));
  return row!;
}

/** expectError, plus the body's stable `code`. */
async function refused(res: Response, status: number, label: string, code: string): Promise<string> {
  expect((await res.clone().json()).code).toBe(code);
  return expectError(res, status, label);
}

let rfcSeq = 500;
const profileBody = () => ({ nombre: 'Por llave', rfc: rfcMoral(++rfcSeq), tipo_persona: 'MORAL' as const });

describe('creating, listing and revoking keys', () => {
  it('POST answers 201 with the key once: folio_ + 256 random bits, its 12-character prefix, write scope by default', async () => {
    const u = await developer();
    const res = await postKey(u, { name: '  Contabilidad  ' });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(Object.keys(body).sort()).toEqual(['data', 'message']);
    const data = body.data as KeyAnswer;
    expect(Object.keys(data).sort()).toEqual(
      ['created_at', 'expires_at', 'id', 'key', 'last_used_at', 'name', 'prefix', 'scope'].sort(),
    );
    expect(data).toMatchObject({
      name: 'Contabilidad',
      scope: 'write',
      expires_at: null,
      last_used_at: null,
    });
    expect(data.key).toMatch(/^folio_[a-z2-7]{52}$/);
    expect(data.prefix).toBe(data.key.slice(0, 12));
    expect((await newKey(u)).key).not.toBe(data.key);
  });

  it('GET lists active keys newest first and never the key itself; the secret is nowhere in the table', async () => {
    const u = await developer();
    const first = await newKey(u, { name: 'primera', scope: 'read' });
    const second = await newKey(u, { name: 'segunda', expires_in_days: 30 });
    const res = await request(t, 'GET', '/api/api-keys', { headers: bearer(u.token) });
    expect(res.status).toBe(200);
    const text = await res.text();
    const { data } = JSON.parse(text) as { data: Record<string, unknown>[] };
    expect(data.map((k) => k.id)).toEqual([second.id, first.id]);
    const { key: _k1, ...firstListed } = first;
    expect(data[1]).toEqual(firstListed);
    for (const k of data) expect(k).not.toHaveProperty('key');
    for (const { id, key } of [first, second]) {
      expect(text).not.toContain(key);
      expect(text).not.toContain(key.slice(12));
      // Stored only as its SHA-256: neither the key nor its secret part is in any column of any row.
      expect((await keyRow(id)).secretHash).toBe(createHash('sha256').update(key).digest('hex'));
      const hits = await t.handle.db.execute(
        sql`select 1 from api_keys k where k::text like ${`%${key.slice(12)}%`}`,
      );
      expect(rowsOf(hits)).toHaveLength(0);
    }
    const expires = Date.parse(second.expires_at!);
    expect(Math.abs(expires - (Date.parse(second.created_at) + 30 * 86_400_000))).toBeLessThan(5_000);
  });

  it('DELETE revokes at once (the key answers 401 next), drops it from the list; again → 404', async () => {
    const u = await developer();
    const k = await newKey(u);
    expect((await me(k.key)).status).toBe(200);
    const res = await request(t, 'DELETE', `/api/api-keys/${k.id}`, { headers: bearer(u.token) });
    expect(res.status).toBe(200);
    expect(Object.keys(await res.json())).toEqual(['message']);
    await expectError(await me(k.key), 401, 'Unauthorized');
    const list = await request(t, 'GET', '/api/api-keys', { headers: bearer(u.token) });
    expect((await list.json()).data).toEqual([]);
    await expectError(
      await request(t, 'DELETE', `/api/api-keys/${k.id}`, { headers: bearer(u.token) }),
      404,
      'Not Found',
    );
  });

  it("another user's key id or an unknown id → 404, and the key keeps working", async () => {
    const owner = await developer();
    const other = await developer();
    const k = await newKey(owner);
    for (const id of [k.id, 'no-such-key']) {
      await expectError(
        await request(t, 'DELETE', `/api/api-keys/${id}`, { headers: bearer(other.token) }),
        404,
        'Not Found',
      );
    }
    await expect(caller(t, other.token).apiKeys.revoke({ id: k.id })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    expect((await me(k.key)).status).toBe(200);
    expect(
      (await (await request(t, 'GET', '/api/api-keys', { headers: bearer(other.token) })).json()).data,
    ).toEqual([]);
  });

  it.each([
    [{}],
    [{ name: '' }],
    [{ name: '   ' }],
    [{ name: 'x'.repeat(101) }],
    [{ name: 'a', scope: 'admin' }],
    [{ name: 'a', expires_in_days: 0 }],
    [{ name: 'a', expires_in_days: 366 }],
    [{ name: 'a', expires_in_days: 1.5 }],
  ])('invalid input %j → 400 and no key', async (body) => {
    const u = await developer();
    await expectError(await postKey(u, body), 400, 'Bad Request');
    await expect(caller(t, u.token).apiKeys.create(body as never)).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
    expect(await t.handle.db.select().from(apiKeys).where(eq(apiKeys.userId, u.id))).toEqual([]);
  });

  it('the same procedures on tRPC: create shows the key once, list omits it, revoke stops it', async () => {
    const u = await developer('PRO');
    const trpc = caller(t, u.token);
    const created = await trpc.apiKeys.create({ name: 'trpc', scope: 'read', expires_in_days: 1 });
    expect(created.data).toMatchObject({
      name: 'trpc',
      scope: 'read',
      prefix: created.data.key.slice(0, 12),
    });
    const listed = await trpc.apiKeys.list();
    expect(listed.data).toHaveLength(1);
    expect(listed.data[0]).not.toHaveProperty('key');
    expect((await caller(t, created.data.key).auth.me()).user.id).toBe(u.id);
    await trpc.apiKeys.revoke({ id: created.data.id });
    await expect(caller(t, created.data.key).auth.me()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('the 21st active key → 403, decided atomically: 25 concurrent creates leave exactly 20', async () => {
    const u = await developer();
    const results = await Promise.all(Array.from({ length: 25 }, () => postKey(u)));
    expect(results.map((r) => r.status).sort()).toEqual([...Array(20).fill(201), ...Array(5).fill(403)]);
    await refused(await postKey(u), 403, 'Forbidden', 'api_key_limit_reached');
    await expect(caller(t, u.token).apiKeys.create({ name: 'x' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    // A revoked key frees its place.
    const { data } = await (await request(t, 'GET', '/api/api-keys', { headers: bearer(u.token) })).json();
    expect(data).toHaveLength(20);
    await request(t, 'DELETE', `/api/api-keys/${data[0].id}`, { headers: bearer(u.token) });
    expect((await postKey(u)).status).toBe(201);
  });

  it('creating a key needs a verified email (403 "verify your email first")', async () => {
    const u = await signUp(t);
    await setPlan(t, u.id, 'PRO');
    const message = await expectError(await postKey(u), 403, 'Forbidden');
    expect(message.toLowerCase()).toContain('verify your email first');
    await expect(caller(t, u.token).apiKeys.create({ name: 'x' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
  });

  it('on FREE, POST → 403 naming the plans with API access; listing stays open', async () => {
    const u = await signUpVerified(t);
    const message = await refused(await postKey(u), 403, 'Forbidden', 'plan_required');
    expect(message).toContain('BASIC or PRO');
    await expect(caller(t, u.token).apiKeys.create({ name: 'x' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message: expect.stringContaining('BASIC or PRO'),
    });
    expect((await request(t, 'GET', '/api/api-keys', { headers: bearer(u.token) })).status).toBe(200);
  });
});

describe('authenticating with a key', () => {
  it('GET /api/auth/me with a key answers the owner, on REST and tRPC', async () => {
    const u = await developer();
    const { key } = await newKey(u);
    const res = await me(key);
    expect(res.status).toBe(200);
    expect((await res.json()).user).toMatchObject({ id: u.id, email: u.email });
    expect((await caller(t, key).auth.me()).user.id).toBe(u.id);
    // Only as a header: a key in the cookie (sent on cross-site requests too) is not accepted.
    await expectError(await request(t, 'GET', '/api/auth/me', { headers: cookie(key) }), 401, 'Unauthorized');
    await expect(caller(t, key, 'cookie').auth.me()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('unknown, revoked and expired keys → 401 on REST and tRPC', async () => {
    const u = await developer();
    const expired = await newKey(u, { name: 'vieja', expires_in_days: 1 });
    await t.handle.db
      .update(apiKeys)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(apiKeys.id, expired.id));
    const revoked = await newKey(u);
    await caller(t, u.token).apiKeys.revoke({ id: revoked.id });
    const unknown = `folio_${'a'.repeat(52)}`;
    for (const key of [unknown, revoked.key, expired.key, 'folio_']) {
      await refused(await me(key), 401, 'Unauthorized', 'api_key_invalid');
      await expectError(await withKey(key, 'GET', '/api/profiles'), 401, 'Unauthorized');
      await expect(caller(t, key).profiles.list()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    }
    // Expired keys are not listed as active.
    const { data } = await (await request(t, 'GET', '/api/api-keys', { headers: bearer(u.token) })).json();
    expect(data).toEqual([]);
  });

  it('a write key does what its owner may: create and read profiles, upload CFDI', async () => {
    const u = await developer();
    const { key } = await newKey(u);
    const created = await withKey(key, 'POST', '/api/profiles', profileBody());
    expect(created.status).toBe(201);
    const profile = (await created.json()).data;
    expect(profile.user_id).toBe(u.id);
    const got = await withKey(key, 'GET', `/api/profiles/${profile.id}`);
    expect(got.status).toBe(200);
    expect((await caller(t, key).profiles.create(profileBody())).data.user_id).toBe(u.id);
    const upload = await t.app.request(`/api/profiles/${profile.id}/cfdi`, {
      method: 'POST',
      headers: { ...bearer(key), 'content-type': 'application/xml' },
      body: '<not-a-cfdi/>',
    });
    expect(upload.status).toBe(400); // authenticated and authorised: the document itself is refused
  });

  it('a read key may use GET routes and tRPC queries only: writes → 403, nothing written', async () => {
    const u = await developer();
    const profile = await createProfile(t, u, profileBody());
    const { key } = await newKey(u, { name: 'lectura', scope: 'read' });
    expect((await withKey(key, 'GET', '/api/profiles')).status).toBe(200);
    expect((await caller(t, key).profiles.list()).data).toHaveLength(1);
    await refused(
      await withKey(key, 'POST', '/api/profiles', profileBody()),
      403,
      'Forbidden',
      'api_key_read_only',
    );
    await expectError(
      await withKey(key, 'PUT', `/api/profiles/${profile.id}`, { nombre: 'Cambiado' }),
      403,
      'Forbidden',
    );
    const upload = await t.app.request(`/api/profiles/${profile.id}/cfdi`, {
      method: 'POST',
      headers: { ...bearer(key), 'content-type': 'application/xml' },
      body: '<x/>',
    });
    await expectError(upload, 403, 'Forbidden');
    await expect(caller(t, key).profiles.create(profileBody())).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(caller(t, key).auth.resendVerification()).rejects.toMatchObject({ code: 'FORBIDDEN' });
    const { data } = await (await request(t, 'GET', '/api/profiles', { headers: bearer(u.token) })).json();
    expect(data.map((p: { nombre: string }) => p.nombre)).toEqual(['Por llave']);
  });

  it('session-only operations refuse a key with 403: keys, logout, checkout, portal, profile deletion', async () => {
    const u = await developer();
    const profile = await createProfile(t, u, profileBody());
    const { key, id } = await newKey(u);
    const sessionOps: [string, string, unknown?][] = [
      ['POST', '/api/api-keys', { name: 'otra' }],
      ['GET', '/api/api-keys'],
      ['DELETE', `/api/api-keys/${id}`],
      ['POST', '/api/auth/logout'],
      ['POST', '/api/subscription/create-checkout', { plan: 'PRO' }],
      ['POST', '/api/subscription/create-portal-session'],
      ['DELETE', `/api/profiles/${profile.id}`],
    ];
    for (const [method, path, body] of sessionOps) {
      await refused(await withKey(key, method, path, body), 403, 'Forbidden', 'session_required');
    }
    const trpc = caller(t, key);
    for (const call of [
      () => trpc.apiKeys.create({ name: 'otra' }),
      () => trpc.apiKeys.list(),
      () => trpc.apiKeys.revoke({ id }),
      () => trpc.auth.logout(),
      () => trpc.subscription.createCheckout({ plan: 'PRO' }),
      () => trpc.subscription.createPortalSession(),
      () => trpc.profiles.delete({ profileId: profile.id }),
    ]) {
      await expect(call()).rejects.toMatchObject({ code: 'FORBIDDEN' });
    }
    // Nothing happened: the key and the profile are still there.
    expect((await me(key)).status).toBe(200);
    expect((await withKey(key, 'GET', `/api/profiles/${profile.id}`)).status).toBe(200);
  });

  it('a downgrade through the dev billing portal suspends the key (403), a re-upgrade revives it', async () => {
    const u = await signUpVerified(t);
    await subscribe(t, u, { plan: 'BASIC' });
    const { key } = await newKey(u);
    expect((await me(key)).status).toBe(200);

    await cancelNowInPortal(t, u);
    const message = await refused(await me(key), 403, 'Forbidden', 'plan_required');
    expect(message).toContain('BASIC or PRO');
    await expect(caller(t, key).profiles.list()).rejects.toMatchObject({ code: 'FORBIDDEN' });
    // The key is kept: still listed for its owner.
    const { data } = await (await request(t, 'GET', '/api/api-keys', { headers: bearer(u.token) })).json();
    expect(data).toHaveLength(1);

    await subscribe(t, u, { plan: 'PRO' });
    expect((await me(key)).status).toBe(200);
    expect((await caller(t, key).auth.me()).user.id).toBe(u.id);
  });

  it('a SAT search through a key moves the same monthly quota counter as the session', async () => {
    const u = await developer();
    const { key } = await newKey(u, { name: 'sat', scope: 'read' });
    const remaining = async (headers: Record<string, string>) => {
      const res = await request(t, 'GET', '/api/sat/search?query=computadoras', { headers });
      expect(res.status).toBe(200);
      return Number(res.headers.get('x-quota-remaining'));
    };
    const bySession = await remaining(bearer(u.token));
    expect(await remaining(bearer(key))).toBe(bySession - 1);
    await caller(t, key).sat.search({ query: 'computadoras' });
    expect(await remaining(bearer(u.token))).toBe(bySession - 3);
  });
});

describe('bookkeeping: last_used_at and the audit log', () => {
  it('last_used_at is null until used, then written at most once a minute', async () => {
    const u = await developer();
    const k = await newKey(u);
    expect((await keyRow(k.id)).lastUsedAt).toBeNull();
    await me(k.key);
    const first = (await keyRow(k.id)).lastUsedAt;
    expect(first).not.toBeNull();
    await me(k.key);
    await caller(t, k.key).auth.me();
    expect((await keyRow(k.id)).lastUsedAt).toEqual(first);

    const twoMinutesAgo = new Date(Date.now() - 120_000);
    await t.handle.db.update(apiKeys).set({ lastUsedAt: twoMinutesAgo }).where(eq(apiKeys.id, k.id));
    await me(k.key);
    expect((await keyRow(k.id)).lastUsedAt!.getTime()).toBeGreaterThan(twoMinutesAgo.getTime());
    const listed = await (await request(t, 'GET', '/api/api-keys', { headers: bearer(u.token) })).json();
    expect(listed.data[0].last_used_at).not.toBeNull();
  });

  it('audits creation, revocation and the first use from each new IP (once per IP)', async () => {
    const u = await developer();
    const k = await newKey(u);
    const [a, b] = [randomIp(), randomIp()];
    await me(k.key, a);
    await me(k.key, a);
    await me(k.key, b);
    await me(k.key, a);
    await caller(t, u.token).apiKeys.revoke({ id: k.id });

    expect((await auditActions(t, u.id, 'api_key.create')).map((r) => r.entityId)).toEqual([k.id]);
    expect((await auditActions(t, u.id, 'api_key.revoke')).map((r) => r.entityId)).toEqual([k.id]);
    const uses = await auditActions(t, u.id, 'api_key.new_ip');
    expect(uses.map((r) => [r.entityId, r.ip])).toEqual([
      [k.id, a],
      [k.id, b],
    ]);
    // The audit rows never carry the secret.
    const hits = await t.handle.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.userId, u.id), sql`${auditLog}::text like ${`%${k.key.slice(12)}%`}`));
    expect(hits).toEqual([]);
  });
});
