// Writes every ```ts block of the given READMEs into DIR as its own module (readme-<n>.ts), so the
// consumer project of scripts/sdk-consume.sh type-checks the examples against the packed SDK:
// a README example that no longer compiles fails CI.
//   node packages/sdk/scripts/readme-snippets.mjs DIR README.md [more.md…]
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [dir, ...readmes] = process.argv.slice(2);
if (!dir || readmes.length === 0) throw new Error('usage: readme-snippets.mjs DIR README.md [more.md…]');
let n = 0;
for (const readme of readmes) {
  const text = readFileSync(readme, 'utf8');
  for (const match of text.matchAll(/^```(?:ts|typescript)\n([\s\S]*?)^```$/gm)) {
    const line = text.slice(0, match.index).split('\n').length;
    // `export {}` makes every snippet a module (its own scope, top-level await allowed).
    writeFileSync(join(dir, `readme-${++n}.ts`), `// ${readme}:${line}\nexport {};\n${match[1]}`);
  }
}
if (n === 0) throw new Error(`no \`\`\`ts block in ${readmes.join(', ')}`);
console.log(`readme-snippets: ${n} TypeScript example(s) from ${readmes.join(', ')}`);
