// Writes packages/api/data/thesaurus-es.txt.gz from a MyThes thesaurus (LibreOffice's Spanish one,
// Debian's mythes-es: /usr/share/mythes/th_es_ES_v2.dat). One line per sense: the entry word, then
// its synonyms, `|`-separated, lower case, annotations such as "(NoRAE)" dropped. Provenance and
// licence: packages/api/data/SOURCES.md. Usage: tsx scripts/thesaurus-data.ts [file.dat]
import { readFileSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

const source = process.argv[2] ?? '/usr/share/mythes/th_es_ES_v2.dat';
const raw = readFileSync(source);
const lines = raw.toString('latin1').split('\n');
// MyThes names its encoding on the first line.
const text = /utf-?8/i.test(lines[0] ?? '') ? raw.toString('utf8').split('\n') : lines;
const clean = (w: string) =>
  w
    .replace(/\([^)]*\)/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
const out: string[] = [];
for (let i = 1; i < text.length; i++) {
  const [head, count] = (text[i] ?? '').split('|');
  const senses = Number(count);
  if (!head || !Number.isInteger(senses)) continue;
  for (let s = 1; s <= senses; s++) {
    const synonyms = (text[i + s] ?? '').split('|').slice(1).map(clean).filter(Boolean);
    if (synonyms.length) out.push([clean(head), ...synonyms].join('|'));
  }
  i += senses;
}
const file = new URL('../data/thesaurus-es.txt.gz', import.meta.url);
writeFileSync(file, gzipSync(`${out.join('\n')}\n`, { level: 9 }));
console.log(`${out.length} senses written to ${file.pathname}`);
