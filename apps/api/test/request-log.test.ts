import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/logger';
import { request, signUp, startTestApp, type TestApp } from './harness';

// The request's logger (http/request-context.ts) is made when something first logs: the lines still
// carry the request id, at `info` one line closes every request, below it a request that fails
// still logs its error with its id.

const opened: TestApp[] = [];
afterAll(() => Promise.all(opened.map((t) => t.close())));

async function appLogging(level: string) {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const l of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(l));
      done();
    },
  });
  const t = await startTestApp({ log: createLogger(level, sink) });
  opened.push(t);
  return { t, lines };
}

describe("a request's log lines", () => {
  it('at info: one line per request with its id, method, path and status', async () => {
    const { t, lines } = await appLogging('info');
    const res = await request(t, 'GET', '/api/subscription', { headers: { 'x-request-id': 'req-log-0001' } });
    expect(res.status).toBe(401);
    expect(lines.filter((l) => l.reqId === 'req-log-0001')).toEqual([
      expect.objectContaining({ msg: 'request', method: 'GET', path: '/api/subscription', status: 401 }),
    ]);
  });

  it('at warn: no request line, and a failure is still logged with the request id', async () => {
    const { t, lines } = await appLogging('warn');
    const u = await signUp(t);
    const ok = await request(t, 'GET', '/api/subscription', {
      headers: { authorization: `Bearer ${u.token}`, 'x-request-id': 'req-log-0002' },
    });
    expect(ok.status).toBe(200);
    expect(lines.filter((l) => l.reqId === 'req-log-0002')).toEqual([]);
    // A database that is gone: the request fails with 503 and its error line names the request.
    await t.handle.close();
    const failed = await request(t, 'GET', '/api/subscription', {
      headers: { authorization: `Bearer ${u.token}`, 'x-request-id': 'req-log-0003' },
    });
    expect(failed.status).toBeGreaterThanOrEqual(500);
    expect(lines.filter((l) => l.reqId === 'req-log-0003').length).toBeGreaterThan(0);
  });
});
