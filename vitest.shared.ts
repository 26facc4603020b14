import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';

const globalSetup = fileURLToPath(new URL('./packages/db/src/testing/global-setup.ts', import.meta.url));

/** One vitest project per package; `db: true` gives each test file its own database. */
export function project(name: string, opts: { db?: boolean } = {}) {
  return defineProject({
    test: {
      name,
      include: ['src/**/*.test.{ts,tsx}', 'test/**/*.test.{ts,tsx}'],
      pool: 'forks',
      testTimeout: 30_000,
      hookTimeout: 90_000,
      globalSetup: opts.db ? [globalSetup] : [],
    },
  });
}
