// Checks the built package before it is packed: the published types are self-contained (no
// `@folio/*` workspace import, only the declared dependencies), the router types were expanded, and
// the bin is runnable. Run by `pnpm --filter @folio/sdk check:dist` and scripts/sdk-consume.sh.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';

const dist = new URL('../dist/', import.meta.url);
const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const allowed = new Set([...Object.keys(pkg.dependencies), ...Object.keys(pkg.peerDependencies ?? {})]);
// What `@folio/sdk/rest` may load: tRPC is an optional peer, absent from REST-only installs.
const restAllowed = new Set(Object.keys(pkg.dependencies));
const problems = [];

const read = (name) => {
  const url = new URL(name, dist);
  if (!existsSync(url)) {
    problems.push(`dist/${name} is missing (run the build first)`);
    return '';
  }
  return readFileSync(url, 'utf8');
};

/** Every module specifier a file imports: import/export statements, `import("…")` and `import('…')`. */
const specifiers = (code) => [
  ...[...code.matchAll(/^\s*(?:import|export)\b[^'"]*?\bfrom\s*['"]([^'"]+)['"]/gm)].map((m) => m[1]),
  ...[...code.matchAll(/^\s*import\s*['"]([^'"]+)['"]/gm)].map((m) => m[1]),
  ...[...code.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1]),
];
const packageOf = (spec) =>
  spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0];

const dts = read('index.d.ts');
const js = read('index.js');
const cli = read('cli.js');
// The entries' shared code (esbuild's chunk-*.js), loaded by both index.js and rest.js.
const chunks = readdirSync(dist).filter((f) => /^chunk-.*\.js$/.test(f));
// The CLI's own chunks (cli-*.js: local SAT sync), loaded by cli.js only, on Node like it.
const cliChunks = readdirSync(dist).filter((f) => /^cli-.*\.js$/.test(f));
const cliFiles = new Set(['cli.js', ...cliChunks]);
const restFiles = new Set(['rest.d.ts', 'rest.js', ...cliFiles, ...chunks]);

for (const [file, code] of [
  ['index.d.ts', dts],
  ['index.js', js],
  ['cli.js', cli],
  ['rest.d.ts', read('rest.d.ts')],
  ['rest.js', read('rest.js')],
  ...chunks.map((f) => [f, read(f)]),
  ...cliChunks.map((f) => [f, read(f)]),
]) {
  if (/@folio\//.test(code.replace(/@folio\/sdk/g, '')))
    problems.push(`dist/${file} mentions a @folio/* workspace package`);
  for (const spec of specifiers(code)) {
    // The CLI runs on Node: its built-ins are fine there (esbuild drops the `node:` prefix).
    if (cliFiles.has(file) && (spec.startsWith('node:') || builtinModules.includes(spec))) continue;
    if (spec.startsWith('.')) {
      // index.d.ts shares rest.d.ts's types; the .js entries share the chunks, the CLI its own too.
      const known =
        file === 'index.d.ts'
          ? ['rest.js']
          : file.endsWith('.d.ts')
            ? []
            : cliFiles.has(file)
              ? [...chunks, ...cliChunks]
              : chunks;
      if (!known.includes(spec.slice(2)))
        problems.push(`dist/${file} imports a relative module "${spec}" (expected bundled files)`);
      continue;
    }
    if (!allowed.has(packageOf(spec)))
      problems.push(`dist/${file} imports "${spec}", which is not a dependency`);
    else if (restFiles.has(file) && !restAllowed.has(packageOf(spec)))
      problems.push(`dist/${file} imports "${spec}", an optional peer that REST-only installs lack`);
  }
}

// The router must be spelled out, not referenced: a procedure of each domain appears with its types.
for (const needle of ['invoices: {', 'list: TRPCQueryProcedure<{', 'type AppRouter = TRPCBuiltRouter<']) {
  if (dts && !dts.includes(needle))
    problems.push(`dist/index.d.ts lacks "${needle}": the router types were not inlined`);
}
if (cli && !cli.startsWith('#!/usr/bin/env node'))
  problems.push('dist/cli.js has no #!/usr/bin/env node line');
if (cli && !(statSync(new URL('cli.js', dist)).mode & 0o100)) problems.push('dist/cli.js is not executable');

if (problems.length) {
  for (const p of problems) console.error(`check-dist: ${p}`);
  process.exit(1);
}
console.log(
  `check-dist: ok (index.d.ts ${Math.round(dts.length / 1024)} KB imports only ${[...new Set(specifiers(dts).map(packageOf))].join(', ')})`,
);
