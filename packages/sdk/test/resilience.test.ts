// The client's own resilience: base URL forms, email/password login, timeouts, retries (network
// failures, 429/503 with Retry-After, writes only with an Idempotency-Key) and paging. The server is
// a fake fetch here; apps/api/test/sdk.test.ts runs login and paginate against the real app.
import { describe, expect, it } from 'vitest';
import { createFolioClient, FolioApiError, type FolioErrorCode } from '../src/index';
import { retryAfterMs } from '../src/retry';

type Seen = { method: string; url: string; headers: Headers; body: string | null };

/** A fetch answering from a handler (which may throw, as fetch does when no answer arrives). */
function fakeFetch(answer: (req: Seen, n: number) => Response | Promise<Response>) {
  const seen: Seen[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(input, init);
    const s = {
      method: req.method,
      url: req.url,
      headers: req.headers,
      body: req.body ? await req.text() : null,
    };
    seen.push(s);
    return answer(s, seen.length);
  };
  return { fetch: fetch as typeof globalThis.fetch, seen };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
const refused = () => {
  throw new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED', message: 'connect ECONNREFUSED' } });
};
const fast = { retries: 3, baseDelayMs: 1, maxDelayMs: 5 };

describe('baseUrl', () => {
  it.each(['http://api.test', 'http://api.test/', 'http://api.test/api', 'http://api.test/api/'])(
    '%s reaches /api/profiles and /trpc once each',
    async (baseUrl) => {
      const { fetch, seen } = fakeFetch((req) =>
        req.url.includes('/trpc/')
          ? json(200, [{ result: { data: { json: { data: [] } } } }])
          : json(200, { data: [] }),
      );
      const folio = createFolioClient({ baseUrl, token: 't', fetch });
      await folio.rest.GET('/profiles');
      await folio.trpc.profiles.list.query();
      expect(seen[0]!.url).toBe('http://api.test/api/profiles');
      expect(seen[1]!.url).toMatch(/^http:\/\/api\.test\/trpc\/profiles\.list\?/);
    },
  );
});

describe('email and password', () => {
  const jwt = (ms: number) =>
    `h.${Buffer.from(JSON.stringify({ exp: Math.floor((Date.now() + ms) / 1000) })).toString('base64url')}.s`;

  it('logs in once on the first call and sends that token on every request', async () => {
    const token = jwt(7 * 86_400_000);
    const { fetch, seen } = fakeFetch((req) =>
      req.url.endsWith('/api/auth/login') ? json(200, { accessToken: token }) : json(200, { data: [] }),
    );
    const folio = createFolioClient({
      baseUrl: 'http://api.test',
      email: 'ana@example.com',
      password: 'pw',
      fetch,
    });
    await Promise.all([folio.rest.GET('/profiles'), folio.rest.GET('/invoices')]);
    const logins = seen.filter((s) => s.url.endsWith('/api/auth/login'));
    expect(logins.map((l) => [l.method, JSON.parse(l.body!)])).toEqual([
      ['POST', { email: 'ana@example.com', password: 'pw' }],
    ]);
    expect(seen.filter((s) => !s.url.endsWith('/login')).map((s) => s.headers.get('authorization'))).toEqual([
      `Bearer ${token}`,
      `Bearer ${token}`,
    ]);
  });

  it('logs in again once the token has expired', async () => {
    const tokens = [jwt(-1000), jwt(7 * 86_400_000)];
    const { fetch, seen } = fakeFetch((req) =>
      req.url.endsWith('/api/auth/login')
        ? json(200, { accessToken: tokens.shift() })
        : json(200, { data: [] }),
    );
    const folio = createFolioClient({ baseUrl: 'http://api.test', email: 'a@b.mx', password: 'pw', fetch });
    await folio.rest.GET('/profiles');
    expect(seen.filter((s) => s.url.endsWith('/api/auth/login'))).toHaveLength(2);
  });

  it('throws the login refusal as FolioApiError, then tries again on the next call', async () => {
    const { fetch, seen } = fakeFetch((req) =>
      req.url.endsWith('/api/auth/login')
        ? json(401, { error: 'Unauthorized', message: 'Invalid email or password', code: 'unauthorized' })
        : json(200, { data: [] }),
    );
    const folio = createFolioClient({ baseUrl: 'http://api.test', email: 'a@b.mx', password: 'no', fetch });
    const err = await folio.rest.GET('/profiles').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FolioApiError);
    expect((err as FolioApiError).status).toBe(401);
    await folio.rest.GET('/profiles').catch(() => null);
    expect(seen.filter((s) => s.url.endsWith('/api/auth/login'))).toHaveLength(2);
  });

  it('refuses email without password, and credentials beside a token or key', () => {
    expect(() => createFolioClient({ baseUrl: 'http://x', email: 'a@b.mx' })).toThrow(
      /both email and password/,
    );
    expect(() =>
      createFolioClient({ baseUrl: 'http://x', email: 'a@b.mx', password: 'p', token: 't' }),
    ).toThrow(/only one/);
  });
});

describe('retries', () => {
  it('retries a GET after network failures and a 503, then resolves', async () => {
    const { fetch, seen } = fakeFetch((_req, n) =>
      n <= 2
        ? refused()
        : n === 3
          ? json(503, { error: 'Service Unavailable', message: 'busy' })
          : json(200, { data: [] }),
    );
    const folio = createFolioClient({ baseUrl: 'http://api.test', token: 't', fetch, retries: fast });
    const { data } = await folio.rest.GET('/profiles');
    expect(data).toEqual({ data: [] });
    expect(seen).toHaveLength(4);
  });

  it('gives up after `retries` further attempts with the last answer', async () => {
    const { fetch, seen } = fakeFetch(() =>
      json(429, { error: 'Too Many Requests', message: 'slow down' }, { 'retry-after': '0' }),
    );
    const folio = createFolioClient({ baseUrl: 'http://api.test', token: 't', fetch, retries: fast });
    const err = (await folio.rest.GET('/profiles').catch((e: unknown) => e)) as FolioApiError;
    expect([err.status, err.retryAfter, seen.length]).toEqual([429, 0, 1 + 3]);
  });

  it('hands over a 429 whose Retry-After is longer than maxDelayMs instead of waiting', async () => {
    const { fetch, seen } = fakeFetch(() =>
      json(429, { error: 'Too Many Requests', message: 'quota' }, { 'retry-after': '3600' }),
    );
    const folio = createFolioClient({ baseUrl: 'http://api.test', token: 't', fetch, retries: fast });
    const err = (await folio.rest.GET('/profiles').catch((e: unknown) => e)) as FolioApiError;
    expect([err.status, err.retryAfter, seen.length]).toEqual([429, 3600, 1]);
  });

  it('does not retry other errors (500, 400)', async () => {
    const { fetch, seen } = fakeFetch(() => json(500, { error: 'Internal Server Error', message: 'x' }));
    const folio = createFolioClient({ baseUrl: 'http://api.test', token: 't', fetch, retries: fast });
    await folio.rest.GET('/profiles').catch(() => null);
    expect(seen).toHaveLength(1);
  });

  it('sends every attempt of a POST with the same Idempotency-Key and body, a new key per call', async () => {
    const { fetch, seen } = fakeFetch((_req, n) =>
      n === 1 || n === 3 ? refused() : json(201, { data: {} }),
    );
    const folio = createFolioClient({ baseUrl: 'http://api.test', token: 't', fetch, retries: fast });
    const body = { profile_id: 'p', año: 2025, mes: 3 };
    await folio.rest.POST('/periods', { body });
    await folio.rest.POST('/periods', { body });
    const keys = seen.map((s) => s.headers.get('idempotency-key'));
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).toBe(keys[3]);
    expect(keys[2]).not.toBe(keys[0]);
    expect(seen.map((s) => JSON.parse(s.body!))).toEqual([body, body, body, body]);
  });

  it("keeps the caller's own Idempotency-Key", async () => {
    const { fetch, seen } = fakeFetch((_req, n) => (n === 1 ? refused() : json(201, { data: {} })));
    const folio = createFolioClient({ baseUrl: 'http://api.test', token: 't', fetch, retries: fast });
    await folio.rest.POST('/periods', {
      body: { profile_id: 'p', año: 2025, mes: 3 },
      headers: { 'idempotency-key': 'mine-1' },
    });
    expect(seen.map((s) => s.headers.get('idempotency-key'))).toEqual(['mine-1', 'mine-1']);
  });

  it('sends no Idempotency-Key and retries nothing by default', async () => {
    const { fetch, seen } = fakeFetch(() => refused());
    const folio = createFolioClient({ baseUrl: 'http://api.test', token: 't', fetch });
    const err = (await folio.rest
      .POST('/periods', { body: { profile_id: 'p', año: 2025, mes: 3 } })
      .catch((e: unknown) => e)) as FolioApiError;
    expect([err.status, seen.length, seen[0]!.headers.get('idempotency-key')]).toEqual([0, 1, null]);
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs('2', now)).toBe(2000);
    expect(retryAfterMs('Thu, 01 Jan 2026 00:00:03 GMT', now)).toBe(3000);
    expect(retryAfterMs('soon', now)).toBeNull();
    expect(retryAfterMs(null, now)).toBeNull();
  });
});

describe('timeout', () => {
  it('fails an attempt that gets no answer with a FolioApiError "Timeout" naming the request', async () => {
    const hang = ((input: RequestInfo | URL, init?: RequestInit) =>
      new Promise((_resolve, reject) => {
        const signal = input instanceof Request ? input.signal : init?.signal;
        signal?.addEventListener('abort', () => reject(signal.reason));
      })) as typeof globalThis.fetch;
    const folio = createFolioClient({ baseUrl: 'http://api.test', token: 't', fetch: hang, timeout: 10 });
    const err = await folio.rest.GET('/profiles').catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'FolioApiError', status: 0, error: 'Timeout' });
    expect(String((err as Error).message)).toContain('GET http://api.test/api/profiles');
  });
});

describe('rest.paginate', () => {
  it('yields every item of every page once, in order, keeping the filters', async () => {
    const items = Array.from({ length: 5 }, (_, i) => ({ id: `inv-${i + 1}` }));
    const { fetch, seen } = fakeFetch((req) => {
      const q = new URL(req.url).searchParams;
      const page = Number(q.get('page'));
      const limit = Number(q.get('limit'));
      return json(200, {
        data: items.slice((page - 1) * limit, page * limit),
        pagination: { total: 5, page, limit, totalPages: Math.ceil(5 / limit) },
      });
    });
    const folio = createFolioClient({ baseUrl: 'http://api.test', token: 't', fetch });
    const got: string[] = [];
    for await (const invoice of folio.rest.paginate('/invoices', {
      params: { query: { año: 2025, limit: 2 } },
    })) {
      got.push(invoice.id);
    }
    expect(got).toEqual(['inv-1', 'inv-2', 'inv-3', 'inv-4', 'inv-5']);
    expect(seen.map((s) => new URL(s.url).search)).toEqual([
      '?a%C3%B1o=2025&limit=2&page=1',
      '?a%C3%B1o=2025&limit=2&page=2',
      '?a%C3%B1o=2025&limit=2&page=3',
    ]);
  });

  it('follows full pages past totalPages when the total is a lower bound (totalExact false)', async () => {
    // 5 matches, but the server says "at least 2" (total 2, 1 page of 2): pages 1-2 full, page 3 short.
    const items = Array.from({ length: 5 }, (_, i) => ({ id: `inv-${i + 1}` }));
    const { fetch, seen } = fakeFetch((req) => {
      const page = Number(new URL(req.url).searchParams.get('page'));
      return json(200, {
        data: items.slice((page - 1) * 2, page * 2),
        pagination: { total: 2, page, limit: 2, totalPages: 1, totalExact: false },
      });
    });
    const folio = createFolioClient({ baseUrl: 'http://api.test', token: 't', fetch });
    const got: string[] = [];
    for await (const invoice of folio.rest.paginate('/invoices', {
      params: { query: { search: 'x', limit: 2 } },
    })) {
      got.push(invoice.id);
    }
    expect(got).toEqual(['inv-1', 'inv-2', 'inv-3', 'inv-4', 'inv-5']);
    expect(seen).toHaveLength(3);
  });

  it('stops at an empty listing', async () => {
    const { fetch, seen } = fakeFetch(() =>
      json(200, { data: [], pagination: { total: 0, page: 1, limit: 50, totalPages: 0 } }),
    );
    const folio = createFolioClient({ baseUrl: 'http://api.test', token: 't', fetch });
    const got = [];
    for await (const e of folio.rest.paginate('/expenses')) got.push(e);
    expect([got.length, seen.length]).toEqual([0, 1]);
  });
});

describe('FolioApiError.code', () => {
  it('is typed as the API error codes (not any string)', () => {
    const err = new FolioApiError({ status: 404, error: 'Not Found', message: 'x', code: 'not_found' });
    const code: FolioErrorCode | null = err.code;
    expect(code).toBe('not_found');
  });
});
