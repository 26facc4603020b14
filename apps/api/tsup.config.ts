import { defineConfig } from 'tsup';

/**
 * `pnpm start` runs this bundle: the server and the workspace packages compiled once, instead of
 * tsx compiling TypeScript in a loader thread of the running server (its memory: docs/benchmarks.md).
 * External: what must be loaded from its package at run time (PGlite's WASM and data files, the
 * argon2 native addon, Scalar's browser bundle read from disk, pino's worker transports).
 */
export default defineConfig({
  // The worker threads' body and a first start's child process are entries of their own:
  // workers/pool.ts starts `worker.js` and database.ts `first-start.js` from beside main.js.
  entry: {
    main: 'src/main.ts',
    'first-start': 'src/first-start.ts',
    worker: '../../packages/api/src/services/workers/worker.ts',
  },
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  outDir: 'dist',
  clean: true,
  // Modules loaded with `await import()` (exports, the SAT simulator…) become chunks read on first use.
  splitting: true,
  noExternal: [/^(?!@electric-sql\/pglite|@node-rs\/argon2|@scalar\/api-reference|pino($|\/))/],
  // CommonJS dependencies bundled into ESM still call require().
  banner: {
    js: "import { createRequire as __folioCreateRequire } from 'node:module'; const require = __folioCreateRequire(import.meta.url);",
  },
});
