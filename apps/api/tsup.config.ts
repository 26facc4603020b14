import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'acorn';
import { defineConfig } from 'tsup';

/**
 * V8 keeps a script's whole source text for as long as the script lives, one byte a character
 * while every character is Latin-1 and two bytes for the whole text once one is not: a single "→"
 * in a comment doubled chunks of megabytes (11 MB of the server's heap was source text). esbuild
 * escapes what code holds (`charset: 'ascii'` below; a tagged template's raw text excepted) but
 * copies comments as they are, so the comments' characters past ASCII become "?".
 */
const PAST_ASCII = /[\u0080-\uffff]/;
const PAST_ASCIIS = /[\u0080-\uffff]/g;

async function asciiComments(dir: string): Promise<void> {
  for (const name of await readdir(dir)) {
    if (!name.endsWith('.js')) continue;
    const file = join(dir, name);
    const text = await readFile(file, 'utf8');
    if (!PAST_ASCII.test(text)) continue;
    const comments: [number, number][] = [];
    parse(text, {
      ecmaVersion: 'latest',
      sourceType: 'module',
      onComment: (_block, _text, start, end) => comments.push([start, end]),
    });
    let out = '';
    let at = 0;
    for (const [start, end] of comments) {
      out += text.slice(at, start) + text.slice(start, end).replace(PAST_ASCIIS, '?');
      at = end;
    }
    await writeFile(file, out + text.slice(at));
  }
}

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
  esbuildOptions(options) {
    options.charset = 'ascii';
  },
  onSuccess: () => asciiComments('dist'),
  banner: {
    js: "import { createRequire as __folioCreateRequire } from 'node:module'; const require = __folioCreateRequire(import.meta.url);",
  },
});
