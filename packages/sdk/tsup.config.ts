import { readFileSync } from 'node:fs';
import { defineConfig } from 'tsup';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
  version: string;
};

// package.json points the workspace at src/; `pnpm pack` swaps in publishConfig (dist/ and the bin).
export default defineConfig([
  {
    // The library: ESM and bundled .d.ts (router types expanded; see src/router.ts); `rest` is the
    // entry without tRPC.
    entry: { index: 'src/index.ts', rest: 'src/rest-only.ts' },
    format: ['esm'],
    platform: 'neutral',
    target: 'es2022',
    dts: true,
    sourcemap: true,
    treeshake: true,
  },
  {
    // The `folio` command (Node only). Local SAT sync is a chunk of its own (`cli-*.js`), loaded by
    // that command only: SAT's client takes a good part of a second to load.
    entry: { cli: 'src/cli/bin.ts' },
    format: ['esm'],
    platform: 'node',
    target: 'node20',
    sourcemap: true,
    splitting: true,
    esbuildOptions(options) {
      options.chunkNames = 'cli-[hash]';
    },
    define: { __SDK_VERSION__: JSON.stringify(version) },
  },
]);
