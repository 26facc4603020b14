/**
 * Hostile input (issue 8): property-based fuzzing of every REST route, generated from the route
 * table so a new procedure entry is covered without touching this file, plus the
 * XML/ZIP cases cfdi-import.test.ts does not already cover.
 *
 * The properties: never a 5xx, always a 2xx or 4xx, every error body exactly `{error, message}`
 * with two strings, and the server healthy afterwards. Runs are random (fast-check prints the seed
 * and the shrunk counterexample on failure; FC_SEED=<n> replays one) and bounded: FUZZ_RUNS per
 * route (default 30).
 *
 * Memory is not asserted (the process is shared with the rest of the file); the XML/ZIP cases
 * assert the outcome and that nothing was stored, never a duration.
 */
import { randomUUID } from 'node:crypto';
import { type RestRoute, restRoutes } from '@folio/api';
import { invoiceXml, newUuid, type Party } from '@folio/cfdi/testing';
import { cfdis, cfdiXml } from '@folio/db/schema';
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { strToU8, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  caller,
  createProfile,
  expectErrorBody,
  randomIp,
  request,
  setPlan,
  signUp,
  startTestApp,
  type TestApp,
  type TestUser,
  testConfig,
  uploadFiles,
  uploadXml,
} from './harness';
import { simulatorInApp } from './sync-runner';

const RUNS = Number(process.env.FUZZ_RUNS ?? 30);
const SEED = process.env.FC_SEED ? Number(process.env.FC_SEED) : undefined;
const fcOptions = { numRuns: RUNS, ...(SEED !== undefined ? { seed: SEED } : {}), endOnFailure: false };

const ME: Party = { rfc: 'ABC970701NN4', nombre: 'Comercial ABC', regimen: '601' };
const CLIENT: Party = { rfc: 'COSC8001137NA', nombre: 'Carlos Cortés Soto', regimen: '612' };
const sale = (uuid = newUuid()) =>
  invoiceXml({ uuid, emisor: ME, receptor: CLIENT, fecha: '2025-03-10T10:00:00', metodoPago: 'PPD' });

let t: TestApp;
let owner: TestUser; // the fuzzing user: owns real ids so some requests get past "not found"
let stranger: TestUser; // owns ids the fuzzing user must not reach
const realIds: string[] = [];

beforeAll(async () => {
  // SAT is the app's own simulator reached in process: with no server listening on appUrl, a fuzzed
  // POST /invoices/{id}/sat-status that reached SAT got the 503 of a SAT outage.
  t = await startTestApp({ config: { ...testConfig, sat: simulatorInApp(() => t) } });
  owner = await signUp(t);
  stranger = await signUp(t);
  await setPlan(t, owner.id, 'PRO');
  const p = await createProfile(t, owner, {
    nombre: ME.nombre,
    rfc: ME.rfc,
    tipo_persona: 'MORAL',
    regimenes_fiscales: ['601'],
  });
  const inv = await (await uploadXml(t, owner, p.id, sale())).json();
  const period = await (
    await request(t, 'POST', '/api/periods', {
      headers: bearer(owner.token),
      body: { profile_id: p.id, año: 2025, mes: 3 },
    })
  ).json();
  const foreign = await createProfile(t, stranger, {
    nombre: 'Ajeno',
    rfc: CLIENT.rfc,
    tipo_persona: 'FISICA',
    regimenes_fiscales: ['612'],
  });
  realIds.push(p.id, p.rfc, inv.data.files[0].id, period.data.id, foreign.id, '43211500', '601');
});
afterAll(() => t?.close());

// ---------------------------------------------------------------------------------------------
// Generators

const LONG = 100 * 1024;
/** Strings that have broken parsers, coercions, SQL drivers and loggers somewhere. */
const NASTY = [
  '',
  ' ',
  '\t\n',
  '\u0000',
  'a\u0000b',
  '\u0000'.repeat(64),
  'NaN',
  'Infinity',
  '-Infinity',
  '1e309',
  '-1e309',
  '1e-400',
  '0x1F',
  '0b101',
  '1_000',
  '٣',
  '１２',
  '99999999999999999999999999',
  '-0',
  '1.',
  '.5',
  ' 7 ',
  '7\u0000',
  'true',
  'false',
  'null',
  'undefined',
  '[]',
  '{}',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  '../../etc/passwd',
  '..%2F..%2F',
  '%00',
  '%',
  '%zz',
  '\uD800',
  '\uDFFF\uD800',
  '\uFFFE\uFFFF',
  '💩'.repeat(20),
  'e\u0301\u0301\u0301',
  '\u202Eevil',
  "' OR 1=1 --",
  '"; drop table users; --',
  '\\',
  '$1',
  '%s%n%x',
  '<script>alert(1)</script>',
  '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "a">]><x>&a;</x>',
  '2025-02-30',
  '0000-00-00',
  '9999-12-31T23:59:59.999999999Z',
  'ABC970701NN4',
  'GOMA800101AB1',
  '601',
  'MXN',
];
const LONG_STRINGS = [
  'x'.repeat(LONG),
  'é'.repeat(LONG / 2),
  '\u0000'.repeat(LONG / 8),
  '💩'.repeat(LONG / 4),
  '%'.repeat(LONG / 4),
];
const PROTO_KEYS = ['__proto__', 'constructor', 'prototype'];

const hostileString = fc.oneof(
  { arbitrary: fc.constantFrom(...NASTY), weight: 5 },
  { arbitrary: fc.string({ maxLength: 40, unit: 'binary' }), weight: 3 },
  { arbitrary: fc.string({ maxLength: 40, unit: 'grapheme' }), weight: 1 },
  { arbitrary: fc.constantFrom(...LONG_STRINGS), weight: 1 },
  // Real ids (read at generation time: they exist only after beforeAll).
  { arbitrary: fc.nat(20).map((i) => realIds[i] ?? 'missing'), weight: 2 },
);
const str = hostileString;

const hugeNumber = fc.constantFrom(
  0,
  -0,
  1,
  -1,
  0.5,
  12,
  13,
  1990,
  2100,
  2 ** 31,
  2 ** 53 + 1,
  -(2 ** 63),
  1e12 + 1,
  1e21,
  1e308,
  -1e308,
  Number.MIN_VALUE,
  Number.EPSILON,
);
const number = fc.oneof(hugeNumber, fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }));

/** Any JSON value, with nasty strings, huge numbers and prototype-named keys. */
const junk: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    str,
    number,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.constantFrom(...PROTO_KEYS), fc.string({ maxLength: 8 })), tie('value'), {
      maxKeys: 4,
    }),
  ),
})).value;

type ZodDef = {
  type: string;
  innerType?: unknown;
  in?: unknown;
  shape?: Record<string, unknown>;
  element?: unknown;
  entries?: Record<string, string>;
  values?: unknown[];
};
const defOf = (s: unknown) => (s as { _zod?: { def?: ZodDef } } | undefined)?._zod?.def;
function unwrap(schema: unknown): ZodDef | undefined {
  let s = schema;
  for (let i = 0; i < 20; i++) {
    const def = defOf(s);
    if (!def) return undefined;
    if (
      ['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch', 'nonoptional'].includes(def.type)
    )
      s = def.innerType;
    else if (def.type === 'pipe') s = def.in;
    else return def;
  }
  return undefined;
}
const shapeOf = (schema: unknown) => {
  const def = unwrap(schema);
  return def?.type === 'object' && def.shape ? def.shape : {};
};

/** A value of roughly the field's type (so other fields' checks run) or junk of another type. */
function fieldValue(schema: unknown, depth = 0): fc.Arbitrary<unknown> {
  const def = unwrap(schema);
  let typed: fc.Arbitrary<unknown> = junk;
  switch (def?.type) {
    case 'string':
      typed = str;
      break;
    case 'number':
    case 'int':
      typed = number;
      break;
    case 'boolean':
      typed = fc.boolean();
      break;
    case 'enum':
      typed = fc.constantFrom(...Object.values(def.entries ?? { x: 'x' }));
      break;
    case 'literal':
      typed = fc.constantFrom(...(def.values ?? ['x']));
      break;
    case 'array':
      typed = depth > 3 ? fc.constant([]) : fc.array(fieldValue(def.element, depth + 1), { maxLength: 25 });
      break;
    case 'object':
      typed = depth > 3 ? fc.constant({}) : objectFor(schema, depth + 1);
      break;
  }
  return fc.oneof({ arbitrary: typed, weight: 3 }, { arbitrary: junk, weight: 1 });
}

function objectFor(schema: unknown, depth = 0): fc.Arbitrary<Record<string, unknown>> {
  const shape = shapeOf(schema);
  const fields = Object.fromEntries(Object.entries(shape).map(([k, s]) => [k, fieldValue(s, depth)]));
  return fc.record(fields, { requiredKeys: [] }).chain((known) =>
    fc
      .dictionary(fc.oneof(fc.constantFrom(...PROTO_KEYS), fc.string({ maxLength: 10 })), junk, {
        maxKeys: 2,
      })
      .map((extra) => ({ ...extra, ...known })),
  );
}

/** JSON text that puts `__proto__` (and friends) in as own keys, as an attacker's JSON would. */
function withProtoKeys(body: Record<string, unknown>, polluted: string | null): string {
  const json = JSON.stringify(body);
  if (!polluted) return json;
  const evil = `"${polluted}":{"isAdmin":true,"plan":"ENTERPRISE","status":"ACTIVE","profileId":"x"}`;
  return json === '{}' ? `{${evil}}` : `{${evil},${json.slice(1)}`;
}

const RAW_BODIES = [
  '{',
  '{"a":',
  '[',
  '"just a string"',
  '42',
  'null',
  'true',
  '[1,2,3]',
  '[{}]',
  '\uFEFF{}',
  '{"a":1}{"b":2}',
  '{"a":1e999}',
  '{"a":-1e999}',
  '{"a":NaN}',
  "{'a':1}",
  '{"a":"\\u0000"}',
  '{"a":"\\ud800"}',
  `{"a":"${'\\u0000'.repeat(1000)}"}`,
  '\u0000',
  `${'['.repeat(100_000)}${']'.repeat(100_000)}`,
  `${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}`,
  `{${Array.from({ length: 20_000 }, (_, i) => `"k${i}":${i}`).join(',')}}`,
  JSON.stringify({ a: 'x'.repeat(LONG) }),
];

/** A body for a route: shaped after its input schema, any JSON, or raw text that is not JSON. */
const bodyFor = (route: RestRoute) =>
  fc.oneof(
    {
      weight: 5,
      arbitrary: fc
        .tuple(objectFor(route.input), fc.option(fc.constantFrom(...PROTO_KEYS), { nil: null }))
        .map(([body, proto]) => withProtoKeys(body, proto)),
    },
    { weight: 2, arbitrary: junk.map((v) => JSON.stringify(v) ?? 'null') },
    { weight: 2, arbitrary: fc.constantFrom(...RAW_BODIES) },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );

/** Percent-encodes what can be; a lone surrogate becomes bytes that are not UTF-8 (as raw clients send). */
function enc(s: string): string {
  try {
    return encodeURIComponent(s);
  } catch {
    return s.replace(/[^\w.~-]/gu, (ch) => {
      try {
        return encodeURIComponent(ch);
      } catch {
        return '%ED%A0%80';
      }
    });
  }
}

const pathValue = fc.oneof(
  { weight: 4, arbitrary: str.map(enc) },
  // Raw percent junk, straight into the path.
  {
    weight: 1,
    arbitrary: fc.constantFrom('%', '%zz', '%E0%A4%A', '%ED%A0%80', '%C0%AE%C0%AE', '%00', '..', '.'),
  },
);

/** A query string: the schema's keys and junk keys, with nasty, numeric-ish or repeated values. */
const queryFor = (route: RestRoute) => {
  const keys = [...Object.keys(shapeOf(route.input)), ...PROTO_KEYS, 'a%C3%B1o', '%zz', ''];
  const value = fc.oneof(str, number.map(String), fc.constantFrom('', '%zz', '%', '+', '%2B'));
  return fc.array(fc.tuple(fc.constantFrom(...keys), value, fc.boolean()), { maxLength: 8 }).map((pairs) =>
    pairs
      .map(([k, v, raw]) => {
        const key = k.includes('%') ? k : enc(k);
        return raw && /^[%+\w]*$/.test(v) ? `${key}=${v}` : `${key}=${enc(v)}`;
      })
      .join('&'),
  );
};

const printable = (s: string) => /^[\x20-\x7e]*$/.test(s);
type Who = 'user' | 'anonymous' | 'garbage-token' | 'cookie-no-origin';
const who = fc.constantFrom<Who>('user', 'user', 'user', 'anonymous', 'garbage-token', 'cookie-no-origin');
const garbageToken = fc.oneof(
  fc.constantFrom('x', 'Bearer', 'a.b.c', 'eyJhbGciOiJub25lIn0.eyJ1c2VySWQiOiJ4In0.', 'null', '%00'),
  fc.string({ maxLength: 300, unit: 'binary-ascii' }).filter(printable),
);

const CONTENT_TYPES = [
  'application/json',
  'application/json',
  'application/json',
  'application/json; charset=utf-16',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  undefined,
];

// ---------------------------------------------------------------------------------------------
// Checking one response

type Seen = Map<number, number>;
async function checkResponse(res: Response, what: string, seen?: Seen): Promise<void> {
  seen?.set(res.status, (seen.get(res.status) ?? 0) + 1);
  const text = await res.text();
  const ok = (res.status >= 200 && res.status < 300) || (res.status >= 400 && res.status < 500);
  if (!ok) throw new Error(`${what} answered ${res.status}: ${text.slice(0, 500)}`);
  if (res.status >= 400) {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new Error(`${what} answered ${res.status} with a non-JSON body: ${text.slice(0, 200)}`);
    }
    try {
      expectErrorBody(body);
    } catch {
      throw new Error(`${what} answered ${res.status} with ${text.slice(0, 300)}`);
    }
  }
}

function describeRequest(method: string, path: string, body: string | undefined) {
  const short = (s: string) => (s.length > 300 ? `${s.slice(0, 300)}…(${s.length} chars)` : s);
  return `${method} ${short(path)}${body === undefined ? '' : ` body=${short(body)}`}`;
}

// ---------------------------------------------------------------------------------------------

// The procedure entries (JSON in); the file routes have their own junk cases below.
const routes = restRoutes().filter((r) => r.procedure);
const stats: string[] = [];

describe('every REST route survives hostile input', () => {
  it('the route table is not empty (new routes are picked up from it)', () => {
    expect(routes.length).toBeGreaterThan(15);
  });

  it.each(routes.map((r) => [`${r.method} /api${r.path}`, r] as const))(
    '%s: never 5xx, errors exactly {error, message, code} (+ fields)',
    async (_name, route) => {
      // A session of its own per route: a fuzzed logout revokes only that one.
      const login = await request(t, 'POST', '/api/auth/login', {
        body: { email: owner.email, password: owner.password },
      });
      expect(login.status).toBe(200);
      const token = ((await login.json()) as { accessToken: string }).accessToken;
      const seen: Seen = new Map();
      const params = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
      const hasBody = route.method !== 'GET' && route.method !== 'DELETE';

      await fc.assert(
        fc.asyncProperty(
          fc.tuple(...params.map(() => pathValue)).map((vals) => vals as string[]),
          queryFor(route),
          hasBody ? bodyFor(route) : fc.constant(undefined),
          fc.constantFrom(...CONTENT_TYPES),
          who,
          garbageToken,
          async (vals, query, body, contentType, as, garbage) => {
            let path = `/api${route.path}`;
            params.forEach((name, i) => {
              path = path.replace(`{${name}}`, vals[i] || 'x');
            });
            if (query) path += `?${query}`;
            const headers: Record<string, string> = { 'x-forwarded-for': randomIp() };
            if (as === 'user') headers.authorization = `Bearer ${token}`;
            if (as === 'garbage-token') headers.authorization = `Bearer ${garbage}`;
            if (as === 'cookie-no-origin') headers.cookie = `access_token=${token}`;
            if (body !== undefined && contentType) headers['content-type'] = contentType;
            const res = await t.app.request(path, { method: route.method, headers, body });
            await checkResponse(res, describeRequest(route.method, path, body), seen);
          },
        ),
        fcOptions,
      );
      stats.push(
        `${route.method} ${route.path}: ${[...seen]
          .sort()
          .map(([s, n]) => `${s}×${n}`)
          .join(' ')}`,
      );
    },
  );

  it('the upload and XML download routes survive junk too', async () => {
    const seen: Seen = new Map();
    const uploadBody = fc.oneof(
      fc.constantFrom(...RAW_BODIES),
      str,
      fc.constantFrom(
        '--x\r\nContent-Disposition: form-data; name="files"; filename="a.xml"\r\n\r\n<a/>\r\n--x--\r\n',
        '--x\r\nContent-Disposition: form-data; name="files"; filename="a.zip"\r\n\r\nPK\u0003\u0004junk\r\n--x--\r\n',
        '--x\r\nContent-Disposition: form-data; name="files"\r\n\r\ntext field\r\n--x--\r\n',
        '--x\r\nContent-Disposition: form-data; name="files"; filename="../../x.xml"\r\n\r\n\u0000\r\n--x',
        '--y\r\n\r\n--y--',
      ),
    );
    const uploadTypes = [
      'application/xml',
      'text/xml; charset=latin1',
      'multipart/form-data; boundary=x',
      'multipart/form-data',
      'multipart/form-data; boundary=',
      'application/json',
      undefined,
    ];
    await fc.assert(
      fc.asyncProperty(
        pathValue,
        fc.boolean(),
        uploadBody,
        fc.constantFrom(...uploadTypes),
        fc.boolean(),
        async (id, realProfile, body, contentType, asUser) => {
          const path = `/api/profiles/${realProfile ? realIds[0] : id}/cfdi`;
          const headers: Record<string, string> = asUser ? bearer(owner.token) : {};
          if (contentType) headers['content-type'] = contentType;
          const res = await t.app.request(path, { method: 'POST', headers, body });
          await checkResponse(res, describeRequest('POST', path, body), seen);
          const xmlPath = `/api/invoices/${id}/xml`;
          await checkResponse(
            await t.app.request(xmlPath, { headers: asUser ? bearer(owner.token) : {} }),
            `GET ${xmlPath}`,
            seen,
          );
        },
      ),
      fcOptions,
    );
    stats.push(`uploads: ${[...seen].map(([s, n]) => `${s}×${n}`).join(' ')}`);
  });

  it('the server is healthy afterwards: /health 200, a normal request works', async () => {
    if (process.env.FUZZ_STATS) console.log(stats.join('\n'));
    const health = await t.app.request('/health');
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok' });
    const login = await request(t, 'POST', '/api/auth/login', {
      body: { email: owner.email, password: owner.password },
    });
    expect(login.status).toBe(200);
    const { accessToken } = (await login.json()) as { accessToken: string };
    const me = await request(t, 'GET', '/api/auth/me', { headers: bearer(accessToken) });
    expect(me.status).toBe(200);
    expect((await me.json()).user.email).toBe(owner.email);
    // (The fuzzing may have deleted the user's profile: DELETE with a real id is fair game.)
    const list = await request(t, 'GET', '/api/profiles', { headers: bearer(accessToken) });
    expect(list.status).toBe(200);
    const regimes = await request(t, 'GET', '/api/sat/regimenes-fiscales', { headers: bearer(accessToken) });
    expect(regimes.status).toBe(200);
    expect((await regimes.json()).data).toHaveLength(19);
  });
});

// ---------------------------------------------------------------------------------------------
// What the fuzzing found, pinned: PostgreSQL text cannot hold U+0000, and a NUL reaching a query
// (path parameter, query string, JSON body, or the junk around an uploaded XML) answered 500.

describe('NUL characters (found by the fuzzing above)', () => {
  it('in a path parameter, a query string or a JSON body: 400 (422 on profiles) in the error shape', async () => {
    const h = bearer(owner.token);
    const cases: [string, string, unknown, number][] = [
      ['GET', '/api/invoices/%00', undefined, 400],
      ['GET', '/api/profiles/a%00b', undefined, 400],
      ['POST', '/api/periods/%00/close', undefined, 400],
      ['GET', '/api/expenses?search=caf%00e', undefined, 400],
      ['GET', '/api/sat/search?query=a%00', undefined, 400],
      ['POST', '/api/auth/login', { email: 'a\u0000@x.mx', password: 'x' }, 400],
      ['POST', '/api/profiles', { nombre: 'Ana\u0000', rfc: 'GOMA800101AB1', tipo_persona: 'FISICA' }, 422],
    ];
    for (const [method, path, body, status] of cases) {
      const res = await request(t, method, path, { headers: h, body });
      const json = await res.json();
      expect({ path, status: res.status }).toEqual({ path, status });
      expectErrorBody(json);
      expect(json.message).toMatch(/NUL/);
    }
    for (const path of ['/api/profiles/%00/cfdi', '/api/invoices/%00/xml']) {
      const res = await t.app.request(path, {
        method: path.endsWith('cfdi') ? 'POST' : 'GET',
        headers: { ...h, 'content-type': 'application/xml' },
        body: path.endsWith('cfdi') ? sale() : undefined,
      });
      expect({ path, status: res.status }).toEqual({ path, status: 400 });
    }
    // The same on /trpc: the guard is in the procedure layer, under both transports.
    await expect(caller(t, owner.token).invoices.get({ id: '\u0000' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
  });

  it('an XML padded with NUL bytes around the document imports; the stored copy has no NUL', async () => {
    const u = await signUp(t);
    const p = await createProfile(t, u, {
      nombre: ME.nombre,
      rfc: ME.rfc,
      tipo_persona: 'MORAL',
      regimenes_fiscales: ['601'],
    });
    const res = await uploadXml(t, u, p.id, `\u0000\u0000${sale()}\u0000\u0000\u0000`);
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(201);
    const xml = await t.app.request(`/api/invoices/${body.data.files[0].id}/xml`, {
      headers: bearer(u.token),
    });
    expect(xml.status).toBe(200);
    const text = await xml.text();
    expect(text.startsWith('<?xml')).toBe(true);
    expect(text.includes('\u0000')).toBe(false);
  });
});

// ---------------------------------------------------------------------------------------------
// XML and ZIP cases not in cfdi-import.test.ts

describe('hostile XML and ZIP uploads', () => {
  async function freshProfile() {
    const u = await signUp(t);
    await setPlan(t, u.id, 'PRO');
    const p = await createProfile(t, u, {
      nombre: ME.nombre,
      rfc: ME.rfc,
      tipo_persona: 'MORAL',
      regimenes_fiscales: ['601'],
    });
    return { u, p };
  }
  const stored = async (profileId: string) =>
    (await t.handle.db.select({ id: cfdis.id }).from(cfdis).where(eq(cfdis.profileId, profileId))).length;
  type Report = {
    imported: number;
    duplicates: number;
    rejected: number;
    files: { name: string; status: string; error?: string; code?: string }[];
  };
  const reportOf = async (res: Response) => {
    const body = await res.json();
    expect([200, 201], JSON.stringify(body).slice(0, 500)).toContain(res.status);
    return body.data as Report;
  };

  /** A valid CFDI padded with trailing whitespace (allowed after the root) to exactly `bytes`. */
  const padded = (bytes: number) => {
    const xml = sale();
    return `${xml}${' '.repeat(bytes - Buffer.byteLength(xml))}`;
  };

  it('multipart: an XML of exactly 5 MB imports, one of 5 MB + 1 byte is rejected and not stored', async () => {
    const { u, p } = await freshProfile();
    const exact = padded(5 * 1024 * 1024);
    const over = padded(5 * 1024 * 1024 + 1);
    expect(Buffer.byteLength(over)).toBe(5 * 1024 * 1024 + 1);
    const data = await reportOf(
      await uploadFiles(t, u, p.id, [
        { name: 'exact.xml', content: exact },
        { name: 'over.xml', content: over },
      ]),
    );
    expect(data).toMatchObject({ imported: 1, rejected: 1 });
    expect(data.files.find((f) => f.name === 'over.xml')).toMatchObject({
      status: 'rejected',
      error: 'XML exceeds 5 MB',
    });
    expect(await stored(p.id)).toBe(1);
  });

  it('the 5 MB limit gives one message and code on every route: a ZIP entry and a tRPC file of 5 MB + 1 byte are rejected alone, the exact 5 MB ones import', async () => {
    const tooLarge = { status: 'rejected', error: 'XML exceeds 5 MB', code: 'file_too_large' };
    const zipped = await freshProfile();
    const zip = zipSync({
      'exact.xml': strToU8(padded(5 * 1024 * 1024)),
      'over.xml': strToU8(padded(5 * 1024 * 1024 + 1)),
    });
    const fromZip = await reportOf(
      await uploadFiles(t, zipped.u, zipped.p.id, [{ name: 'cfdi.zip', content: Buffer.from(zip) }]),
    );
    expect(fromZip).toMatchObject({ imported: 1, rejected: 1 });
    expect(fromZip.files.find((f) => f.name === 'cfdi.zip/over.xml')).toMatchObject(tooLarge);
    expect(await stored(zipped.p.id)).toBe(1);

    const viaTrpc = await freshProfile();
    const out = await caller(t, viaTrpc.u.token).cfdi.import({
      profileId: viaTrpc.p.id,
      files: [
        { name: 'exact.xml', content: padded(5 * 1024 * 1024) },
        { name: 'over.xml', content: padded(5 * 1024 * 1024 + 1) },
      ],
    });
    expect(out.data).toMatchObject({ imported: 1, rejected: 1 });
    expect(out.data.files.find((f) => f.name === 'over.xml')).toMatchObject(tooLarge);
    expect(await stored(viaTrpc.p.id)).toBe(1);
  });

  it('XML nested 100,000 deep is refused (400 as a body, rejected in multipart and in a ZIP), nothing stored', async () => {
    const { u, p } = await freshProfile();
    const depth = 100_000;
    const open = '<cfdi:Comprobante xmlns:cfdi="http://www.sat.gob.mx/cfd/4" Version="4.0">';
    const inCfdiNs = `${open}${'<cfdi:Conceptos>'.repeat(depth)}${'</cfdi:Conceptos>'.repeat(depth)}</cfdi:Comprobante>`;
    const foreign = `${'<a>'.repeat(depth)}${'</a>'.repeat(depth)}`;
    const unclosed = `${open}${'<cfdi:Emisor>'.repeat(depth)}`;
    for (const xml of [inCfdiNs, foreign, unclosed]) {
      const res = await uploadXml(t, u, p.id, xml);
      expect(res.status).toBe(400);
      const body = await res.json();
      expectErrorBody(body);
    }
    const multi = await reportOf(
      await uploadFiles(t, u, p.id, [
        { name: 'deep.xml', content: inCfdiNs },
        { name: 'deep.zip', content: Buffer.from(zipSync({ 'deep.xml': strToU8(foreign) })) },
      ]),
    );
    expect(multi).toMatchObject({ imported: 0, rejected: 2 });
    expect(await stored(p.id)).toBe(0);
  });

  it('an XML with 200,000 attributes or a 4 MB attribute value is refused cleanly', async () => {
    const { u, p } = await freshProfile();
    const manyAttrs = `<cfdi:Comprobante xmlns:cfdi="http://www.sat.gob.mx/cfd/4" Version="4.0" ${Array.from(
      { length: 200_000 },
      (_, i) => `a${i}="1"`,
    ).join(' ')}/>`;
    const hugeAttr = sale().replace('Serie="A"', `Serie="${'A'.repeat(4 * 1024 * 1024)}"`);
    const nul = sale().replace('Serie="A"', 'Serie="A\u0000B"');
    for (const xml of [manyAttrs, hugeAttr, nul]) {
      const res = await uploadXml(t, u, p.id, xml);
      expect([201, 400]).toContain(res.status);
      if (res.status === 400) expectErrorBody(await res.json());
    }
    // Whatever was accepted is whole: every stored CFDI has its XML.
    const rows = await t.handle.db.select({ id: cfdis.id }).from(cfdis).where(eq(cfdis.profileId, p.id));
    for (const row of rows)
      expect(await t.handle.db.select().from(cfdiXml).where(eq(cfdiXml.cfdiId, row.id))).toHaveLength(1);
  });

  /** Byte offsets in a ZIP made by fflate (no data descriptors, no ZIP64). */
  const LOCAL = { csize: 18, usize: 22, nameLen: 26 };
  const CENTRAL = { csize: 20, usize: 24 };
  const find = (buf: Buffer, sig: number, from = 0) => {
    for (let i = from; i <= buf.length - 4; i++) if (buf.readUInt32LE(i) === sig) return i;
    return -1;
  };

  it('a ZIP whose local header lies about the sizes (4 GB): read by the central directory, both entries import whole', async () => {
    const { u, p } = await freshProfile();
    const zip = Buffer.from(
      zipSync({ 'liar.xml': strToU8(sale()), 'honest.xml': strToU8(sale()) }, { level: 6 }),
    );
    const local = find(zip, 0x04034b50);
    expect(local).toBe(0);
    // The first local header claims 4 GB compressed and uncompressed; the central directory is true.
    zip.writeUInt32LE(0xfffffff0, local + LOCAL.csize);
    zip.writeUInt32LE(0xfffffff0, local + LOCAL.usize);
    const data = await reportOf(await uploadFiles(t, u, p.id, [{ name: 'lies.zip', content: zip }]));
    // yauzl takes sizes from the central directory (and checks the inflated length against it), so
    // the local lie neither makes it read 4 GB nor cuts the entry: both import, whole.
    expect(data).toMatchObject({ imported: 2, rejected: 0 });
    expect(await stored(p.id)).toBe(2);
    const ids = data.files.map((f) => (f as { id?: string }).id!);
    for (const id of ids) {
      const [row] = await t.handle.db.select().from(cfdiXml).where(eq(cfdiXml.cfdiId, id));
      expect(row?.xml.endsWith('</cfdi:Comprobante>')).toBe(true);
    }
  });

  it('a ZIP whose central directory understates an entry (a disguised bomb) is rejected without inflating it all', async () => {
    const { u, p } = await freshProfile();
    const zip = Buffer.from(
      zipSync({ 'bomb.xml': new Uint8Array(12 * 1024 * 1024), 'good.xml': strToU8(sale()) }, { level: 9 }),
    );
    // Both headers of the bomb claim 1 KB expanded (the real size is 12 MB).
    zip.writeUInt32LE(1024, 0 + LOCAL.usize);
    const central = find(zip, 0x02014b50);
    expect(central).toBeGreaterThan(0);
    zip.writeUInt32LE(1024, central + CENTRAL.usize);
    const data = await reportOf(await uploadFiles(t, u, p.id, [{ name: 'liar.zip', content: zip }]));
    expect(data).toMatchObject({ imported: 1, rejected: 1 });
    expect(data.files.find((f) => f.name === 'liar.zip/bomb.xml')).toMatchObject({ status: 'rejected' });
    expect(await stored(p.id)).toBe(1);
  });

  it('a ZIP whose local header lies about the name length or compressed size is rejected whole or per entry, never a 5xx', async () => {
    const { u, p } = await freshProfile();
    for (const mutate of [
      (z: Buffer) => z.writeUInt16LE(0xffff, LOCAL.nameLen),
      (z: Buffer) => z.writeUInt32LE(3, LOCAL.csize + 2), // central directory compressed size says 3 bytes
      (z: Buffer) => z.writeUInt32LE(0, find(z, 0x02014b50) + CENTRAL.csize),
      (z: Buffer) => z.fill(0xff, 30, 60), // the compressed data itself is garbage
      (z: Buffer) => z.writeUInt32LE(0xdeadbeef, find(z, 0x06054b50) + 16), // central directory offset
    ]) {
      const zip = Buffer.from(zipSync({ 'a.xml': strToU8(sale()) }, { level: 6 }));
      mutate(zip);
      const res = await uploadFiles(t, u, p.id, [{ name: 'bad.zip', content: zip }]);
      expect([200, 201, 400, 413]).toContain(res.status);
      const body = await res.json();
      if (res.status >= 400) expectErrorBody(body);
    }
    const rows = await t.handle.db.select({ id: cfdis.id }).from(cfdis).where(eq(cfdis.profileId, p.id));
    for (const row of rows)
      expect(await t.handle.db.select().from(cfdiXml).where(eq(cfdiXml.cfdiId, row.id))).toHaveLength(1);
  });

  it('a multipart body with a huge number of tiny parts and odd file names is handled', async () => {
    const { u, p } = await freshProfile();
    const files = [
      { name: '\u0000.xml', content: sale() },
      { name: `${'é'.repeat(300)}.xml`, content: sale() },
      { name: '../../../etc/passwd.xml', content: sale() },
      { name: 'con.xml', content: '' },
      ...Array.from({ length: 300 }, (_, i) => ({ name: `e${i}.xml`, content: '' })),
    ];
    const res = await uploadFiles(t, u, p.id, files);
    const data = await reportOf(res);
    expect(data.imported + data.duplicates + data.rejected).toBe(files.length);
    expect(data.rejected).toBeGreaterThanOrEqual(301);
    expect(await stored(p.id)).toBe(data.imported);
  });

  it('a random id never reaches anything (a UUID nobody has, in both file routes)', async () => {
    const { u } = await freshProfile();
    const res = await uploadXml(t, u, randomUUID(), sale());
    expect(res.status).toBe(404);
    const xml = await t.app.request(`/api/invoices/${randomUUID()}/xml`, { headers: bearer(u.token) });
    expect(xml.status).toBe(404);
  });
});
