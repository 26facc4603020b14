import { describe, expect, it } from 'vitest';
import { createFolioClient, FolioApiError } from '../src/index';

type Seen = { method: string; url: string; headers: Headers; body: string | null };

/** A fetch that records requests and answers from a handler. */
function fakeFetch(answer: (req: Seen) => Response) {
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
    return answer(s);
  };
  return { fetch: fetch as typeof globalThis.fetch, seen };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

describe('rest', () => {
  it('calls /api with the bearer token, typed query parameters (año) and resolves {data, response}', async () => {
    const { fetch, seen } = fakeFetch(() =>
      json(200, { data: [], pagination: { total: 0, page: 2, limit: 10, totalPages: 0 } }),
    );
    const folio = createFolioClient({ baseUrl: 'http://api.test/', token: 'tok-1', fetch });
    const { data, response } = await folio.rest.GET('/invoices', {
      params: { query: { año: 2025, mes: 3, page: 2, limit: 10 } },
    });
    expect(data.pagination.page).toBe(2);
    expect(response.status).toBe(200);
    const url = new URL(seen[0]!.url);
    expect(url.origin + url.pathname).toBe('http://api.test/api/invoices');
    expect(url.searchParams.get('año')).toBe('2025');
    expect(url.searchParams.get('mes')).toBe('3');
    expect(seen[0]!.headers.get('authorization')).toBe('Bearer tok-1');
  });

  it('reads the token from getToken on every call, and sends none when there is none', async () => {
    const { fetch, seen } = fakeFetch(() => json(200, { data: [] }));
    let token: string | null = null;
    const folio = createFolioClient({ baseUrl: 'http://api.test', getToken: async () => token, fetch });
    await folio.rest.GET('/profiles');
    token = 'later';
    await folio.rest.GET('/profiles');
    expect(seen.map((s) => s.headers.get('authorization'))).toEqual([null, 'Bearer later']);
  });

  it('throws FolioApiError with status, label, message, request id and Retry-After', async () => {
    const { fetch } = fakeFetch(() =>
      json(
        429,
        { error: 'Too Many Requests', message: 'Monthly SAT search quota reached' },
        { 'x-request-id': 'req-123456789', 'retry-after': '42' },
      ),
    );
    const folio = createFolioClient({ baseUrl: 'http://api.test', token: 't', fetch });
    const err = await folio.rest.GET('/sat/search', { params: { query: { query: 'x' } } }).catch((e) => e);
    expect(err).toBeInstanceOf(FolioApiError);
    expect(err).toMatchObject({
      status: 429,
      error: 'Too Many Requests',
      message: 'Monthly SAT search quota reached',
      requestId: 'req-123456789',
      retryAfter: 42,
    });
    expect(String(err)).toBe(
      'FolioApiError: 429 Too Many Requests: Monthly SAT search quota reached (request req-123456789)',
    );
  });

  it('turns a body that is not {error, message} and a network failure into FolioApiError too', async () => {
    const html = fakeFetch(
      () => new Response('<h1>Bad gateway</h1>', { status: 502, statusText: 'Bad Gateway' }),
    );
    const err = await createFolioClient({ baseUrl: 'http://api.test', fetch: html.fetch })
      .rest.GET('/auth/me')
      .catch((e) => e);
    expect(err).toMatchObject({ status: 502, error: 'Bad Gateway', message: '<h1>Bad gateway</h1>' });
    const down = (async () => {
      throw new TypeError('fetch failed');
    }) as typeof globalThis.fetch;
    const net = await createFolioClient({ baseUrl: 'http://api.test', fetch: down })
      .rest.GET('/auth/me')
      .catch((e) => e);
    expect(net).toMatchObject({ status: 0, error: 'Network Error' });
    expect(net.cause).toBeInstanceOf(TypeError);
  });

  it('uploads CFDI files as multipart `files`', async () => {
    const { fetch, seen } = fakeFetch(() =>
      json(201, { message: '1 imported', data: { imported: 1, duplicates: 0, rejected: 0, files: [] } }),
    );
    const folio = createFolioClient({ baseUrl: 'http://api.test', token: 't', fetch });
    const report = await folio.rest.uploadCfdi('p-1', [{ name: 'a.xml', content: '<cfdi/>' }]);
    expect(report.imported).toBe(1);
    expect(seen[0]!.url).toBe('http://api.test/api/profiles/p-1/cfdi');
    expect(seen[0]!.headers.get('content-type')).toMatch(/^multipart\/form-data; boundary=/);
    expect(seen[0]!.body).toContain('filename="a.xml"');
  });
});

describe('trpc', () => {
  it('batches calls to /trpc with superjson and the bearer token', async () => {
    const { fetch, seen } = fakeFetch(() =>
      json(200, [
        { result: { data: { json: { user: { id: 'u1' } } } } },
        { result: { data: { json: { data: [] } } } },
      ]),
    );
    const folio = createFolioClient({ baseUrl: 'http://api.test', token: 'tok', fetch });
    const [me, profiles] = await Promise.all([folio.trpc.auth.me.query(), folio.trpc.profiles.list.query()]);
    expect(me.user.id).toBe('u1');
    expect(profiles.data).toEqual([]);
    expect(seen).toHaveLength(1);
    expect(new URL(seen[0]!.url).pathname).toBe('/trpc/auth.me,profiles.list');
    expect(seen[0]!.headers.get('authorization')).toBe('Bearer tok');
  });
});

describe('token refresh (sliding sessions for Bearer clients)', () => {
  /** An unsigned JWT-shaped token expiring in `ms`: the client only reads `exp`. */
  const jwt = (name: string, ms: number) =>
    `h.${Buffer.from(JSON.stringify({ sub: name, exp: Math.floor((Date.now() + ms) / 1000) })).toString('base64url')}.s`;
  const HOUR = 3600_000;
  const WEEK = 7 * 24 * HOUR;

  function server(refreshStatus = 200) {
    const fresh = jwt('fresh', WEEK);
    const faked = fakeFetch((req) => {
      if (req.url.endsWith('/api/auth/refresh')) {
        return refreshStatus === 200
          ? json(200, {
              message: 'Session extended',
              accessToken: fresh,
              expiresAt: new Date(Date.now() + WEEK).toISOString(),
            })
          : json(refreshStatus, { error: 'Unauthorized', message: 'Invalid or expired access token' });
      }
      return json(200, { data: [] });
    });
    const refreshes = () => faked.seen.filter((s) => s.url.endsWith('/api/auth/refresh'));
    const auth = (path: string) =>
      faked.seen.filter((s) => s.url.includes(path)).map((s) => s.headers.get('authorization'));
    return { ...faked, fresh, refreshes, auth };
  }

  it('refreshes a token with less than a day left before the request, then uses the new one', async () => {
    const s = server();
    const old = jwt('old', HOUR);
    const told: string[] = [];
    const folio = createFolioClient({
      baseUrl: 'http://api.test',
      token: old,
      fetch: s.fetch,
      refresh: { onTokenRefresh: (token) => void told.push(token) },
    });
    await folio.rest.GET('/profiles');
    await folio.rest.GET('/profiles');
    expect(s.refreshes().map((r) => [r.method, r.headers.get('authorization')])).toEqual([
      ['POST', `Bearer ${old}`],
    ]);
    expect(s.auth('/api/profiles')).toEqual([`Bearer ${s.fresh}`, `Bearer ${s.fresh}`]);
    expect(told).toEqual([s.fresh]);
  });

  it('leaves a token with more than a day left alone', async () => {
    const s = server();
    const folio = createFolioClient({
      baseUrl: 'http://api.test',
      token: jwt('young', WEEK),
      fetch: s.fetch,
    });
    await folio.rest.GET('/profiles');
    expect(s.refreshes()).toHaveLength(0);
  });

  it('asks the server once for concurrent requests', async () => {
    const s = server();
    const folio = createFolioClient({ baseUrl: 'http://api.test', token: jwt('old', HOUR), fetch: s.fetch });
    await Promise.all([
      folio.rest.GET('/profiles'),
      folio.rest.GET('/profiles'),
      folio.rest.GET('/invoices'),
    ]);
    expect(s.refreshes()).toHaveLength(1);
  });

  it('keeps the old token when the refresh is refused, and can be turned off', async () => {
    const refused = server(401);
    const old = jwt('old', HOUR);
    const folio = createFolioClient({ baseUrl: 'http://api.test', token: old, fetch: refused.fetch });
    await folio.rest.GET('/profiles');
    expect(refused.auth('/api/profiles')).toEqual([`Bearer ${old}`]);

    const off = server();
    await createFolioClient({
      baseUrl: 'http://api.test',
      token: old,
      fetch: off.fetch,
      refresh: false,
    }).rest.GET('/profiles');
    expect(off.refreshes()).toHaveLength(0);
  });

  it('passes opaque (non-JWT) tokens through untouched', async () => {
    const s = server();
    await createFolioClient({ baseUrl: 'http://api.test', token: 'folio_key_abc', fetch: s.fetch }).rest.GET(
      '/profiles',
    );
    expect(s.refreshes()).toHaveLength(0);
  });
});
