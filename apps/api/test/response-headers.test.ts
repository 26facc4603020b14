import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app';
import { request, startTestApp, type TestApp } from './harness';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('hardening headers on every response', () => {
  it('nosniff and no framing on successes, errors, 404s, 413s and pages', async () => {
    const responses = [
      await request(t, 'GET', '/health'),
      await request(t, 'GET', '/api/docs'),
      await request(t, 'GET', '/api/auth/me'),
      await request(t, 'GET', '/nowhere'),
      await request(t, 'POST', '/api/auth/login', { body: 'x'.repeat(1024 * 1024 + 1) }),
      await request(t, 'GET', '/__dev/mail'),
    ];
    expect(responses.map((r) => r.status)).toEqual([200, 200, 401, 404, 413, 200]);
    for (const res of responses) {
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('strict-transport-security')).toBeNull();
    }
  });

  it('HSTS in production only', async () => {
    const prod = createApp({ ...t.deps, hsts: true, devSurfaces: false });
    const res = await prod.request('/health');
    expect(res.headers.get('strict-transport-security')).toMatch(/^max-age=31536000/);
  });
});
