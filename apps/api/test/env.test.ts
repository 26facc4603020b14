import http from 'node:http';
import { networkInterfaces } from 'node:os';
import { describe, expect, it, vi } from 'vitest';
import { loadEnv } from '../src/env';
import { startServer } from './support/server-process';

const EFIRMA_KEY = Buffer.alloc(32, 1).toString('base64');

describe('environment', () => {
  it('starts with no configuration at all: PGlite, port 3000, APP_URL from the port', () => {
    const env = loadEnv({});
    expect(env).toMatchObject({
      PORT: 3000,
      PGLITE_DATA_DIR: '.data/pglite',
      APP_URL: 'http://localhost:3000',
      SUPPORT_EMAIL: 'soporte@folio.local',
    });
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.AUTH_SECRET.length).toBeGreaterThanOrEqual(32);
  });

  it('refuses production without AUTH_SECRET, RESEND_API_KEY, the Stripe keys, EFIRMA_ENCRYPTION_KEY or SUPPORT_EMAIL, naming them', () => {
    expect(() => loadEnv({ NODE_ENV: 'production' })).toThrow(
      /AUTH_SECRET.*RESEND_API_KEY.*STRIPE_SECRET_KEY.*EFIRMA_ENCRYPTION_KEY.*SUPPORT_EMAIL/,
    );
    const prod = {
      NODE_ENV: 'production',
      AUTH_SECRET: 'k'.repeat(32),
      RESEND_API_KEY: 're_123',
      SUPPORT_EMAIL: 'soporte@example.com',
    };
    // Without Stripe, checkout would answer 201 with a link to the unmounted offline dev pages.
    expect(() => loadEnv(prod)).toThrow(
      /STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET, EFIRMA_ENCRYPTION_KEY required in production/,
    );
    const stripe = { STRIPE_SECRET_KEY: 'sk_live_1', STRIPE_WEBHOOK_SECRET: 'whsec_1' };
    // Stored e.firmas are wrapped by this key; production never derives one.
    expect(() => loadEnv({ ...prod, ...stripe })).toThrow(/EFIRMA_ENCRYPTION_KEY required in production/);
    expect(() => loadEnv({ ...prod, ...stripe, EFIRMA_ENCRYPTION_KEY: EFIRMA_KEY })).not.toThrow();
  });

  it('SAT: the simulator by default outside production, SAT in production, which refuses the simulator', () => {
    expect(loadEnv({}).SAT_SERVICE).toBe('simulator');
    expect(loadEnv({ SAT_SERVICE: 'sat' }).SAT_SERVICE).toBe('sat');
    const prod = {
      NODE_ENV: 'production',
      AUTH_SECRET: 'k'.repeat(32),
      RESEND_API_KEY: 're_123',
      STRIPE_SECRET_KEY: 'sk_live_1',
      STRIPE_WEBHOOK_SECRET: 'whsec_1',
      EFIRMA_ENCRYPTION_KEY: EFIRMA_KEY,
      SUPPORT_EMAIL: 'soporte@example.com',
    };
    expect(loadEnv(prod).SAT_SERVICE).toBe('sat');
    expect(() => loadEnv({ ...prod, SAT_SERVICE: 'simulator' })).toThrow(
      /SAT_SERVICE=simulator is refused in production/,
    );
  });

  it('EFIRMA_ENCRYPTION_KEY: versioned 32-byte keys, the highest current; anything else stops start-up', () => {
    const two = Buffer.alloc(32, 2).toString('base64');
    const ring = loadEnv({ EFIRMA_ENCRYPTION_KEY: `1:${EFIRMA_KEY},2:${two}` }).EFIRMA_KEYRING;
    expect([ring?.current, [...(ring?.keys.keys() ?? [])]]).toEqual([2, [1, 2]]);
    expect(() => loadEnv({ EFIRMA_ENCRYPTION_KEY: `1:${Buffer.alloc(16).toString('base64')}` })).toThrow(
      /32 bytes/,
    );
    expect(() => loadEnv({ EFIRMA_ENCRYPTION_KEY: 'one:abc' })).toThrow(/version:base64key/);
    expect(loadEnv({}).EFIRMA_KEYRING).toBeUndefined();
  });

  it('listens on 127.0.0.1 unless HOST is set', () => {
    expect(loadEnv({})).toMatchObject({ HOST: '127.0.0.1', HOST_DEFAULTED: true });
    expect(loadEnv({ HOST: '0.0.0.0' })).toMatchObject({ HOST: '0.0.0.0', HOST_DEFAULTED: false });
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

describe('start-up', () => {
  it('without HOST the server is reachable on loopback only, and says so', { timeout: 120_000 }, async () => {
    const server = await startServer({ HOST: '', LOG_LEVEL: 'info', PGLITE_DATA_DIR: 'memory://' });
    try {
      // Logged once listening; the child's stdout may arrive just after /health answers.
      await vi.waitFor(
        () => expect(server.output()).toContain('HOST not set: only this machine can connect'),
        {
          timeout: 10_000,
        },
      );
      const outside = Object.values(networkInterfaces())
        .flat()
        .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;
      if (outside) {
        const res = await fetch(`http://${outside}:${server.port}/health`).catch((e: Error) => e);
        expect(res).toBeInstanceOf(Error);
      }
    } finally {
      await server.kill();
    }
  });

  it("keeps an idle connection 65 s, past a proxy's 60, so the client closes it first", {
    timeout: 120_000,
  }, async () => {
    const server = await startServer({ PGLITE_DATA_DIR: 'memory://' });
    try {
      const hint = await new Promise<string | undefined>((resolve, reject) => {
        http
          .get(`${server.url}/health`, { agent: new http.Agent({ keepAlive: true }) }, (res) => {
            res.resume();
            resolve(res.headers['keep-alive'] as string | undefined);
          })
          .on('error', reject);
      });
      expect(hint).toBe('timeout=65');
    } finally {
      await server.kill();
    }
  });
});
