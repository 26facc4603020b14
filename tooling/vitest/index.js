// Plain JavaScript: vitest loads a config's imports from packages with Node itself, which does not
// run TypeScript on Node 20. The types are in index.d.ts.
import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';

const globalSetup = fileURLToPath(new URL('../../packages/db/src/testing/global-setup.ts', import.meta.url));

/**
 * One vitest project per package; `db: true` gives each test file its own database (restored from a
 * migrated template that packages/db's global setup builds once per run).
 */
export function project(name, opts = {}) {
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
