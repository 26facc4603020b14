import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['packages/*/vitest.config.ts', 'apps/*/vitest.config.ts'],
    // Two cores, and each PGlite database is a few hundred MB: keep the file-level parallelism modest.
    maxWorkers: 2,
  },
});
