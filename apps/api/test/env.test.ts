import { describe, expect, it } from 'vitest';
import { loadEnv } from '../src/env';

describe('environment', () => {
  it('starts with no configuration at all: PGlite, port 3000, APP_URL from the port', () => {
    const env = loadEnv({});
    expect(env).toMatchObject({
      PORT: 3000,
      PGLITE_DATA_DIR: '.data/pglite',
      APP_URL: 'http://localhost:3000',
    });
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.AUTH_SECRET.length).toBeGreaterThanOrEqual(32);
  });

  it('refuses production without AUTH_SECRET or RESEND_API_KEY, naming both', () => {
    expect(() => loadEnv({ NODE_ENV: 'production' })).toThrow(/AUTH_SECRET.*RESEND_API_KEY/);
    expect(() =>
      loadEnv({ NODE_ENV: 'production', AUTH_SECRET: 'k'.repeat(32), RESEND_API_KEY: 're_123' }),
    ).not.toThrow();
  });

  it('refuses malformed values instead of starting half-configured', () => {
    expect(() => loadEnv({ DATABASE_URL: 'not a url' })).toThrow();
    expect(() => loadEnv({ PORT: 'eighty' })).toThrow();
    expect(() => loadEnv({ AUTH_SECRET: 'short' })).toThrow();
  });

  it('treats empty strings as unset', () => {
    expect(loadEnv({ DATABASE_URL: '', APP_URL: '' }).DATABASE_URL).toBeUndefined();
  });
});
