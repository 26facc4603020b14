// bench/cfdi-parse: parse + classify + validate one document at a time on one core, for a ~5 KB,
// ~11 KB and ~140 KB CFDI, against a baseline of the XML parser alone (UTF-8 decode + saxes with
// an empty handler: the least any strict parse of the same bytes costs). Targets: ≥ 2,000 docs/s
// and ≥ 0.7× the baseline for the 5 KB document. CPU_PROF=<dir>: a CPU profile of the pipeline
// runs alone (the baseline's are not in it), summarised.
import { classifyCfdi, DEFAULT_VALIDATION_FLAGS, parseCfdi, validateCfdi } from '@folio/cfdi';
import { SaxesParser } from 'saxes';
import { withCpuProfile } from '../lib/cpuprofile';
import { machine, summarize } from '../lib/stats';
import { documentOfSize, PROFILE_RFC } from './template';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const TARGET_5KB = 2000;
const TARGET_RATIO = 0.7;
const FLAGS = DEFAULT_VALIDATION_FLAGS;
const PROFILE = { rfc: PROFILE_RFC, regimenesFiscales: ['601'], flags: FLAGS };

const utf8 = new TextDecoder('utf-8', { fatal: true });

function pipeline(xml: Uint8Array): void {
  const parsed = parseCfdi(xml);
  if (!parsed.ok) throw new Error(parsed.reason);
  const classified = classifyCfdi(parsed.cfdi, PROFILE_RFC);
  if ('error' in classified) throw new Error(classified.error);
  const v = validateCfdi(parsed.cfdi, PROFILE, { side: classified.side, duplicateUuid: false });
  if (!v.valido) throw new Error(v.errores.join('; '));
}

function parserOnly(xml: Uint8Array): void {
  const parser = new SaxesParser();
  parser.on('opentag', () => {});
  parser.write(utf8.decode(xml)).close();
}

type Result = { docsPerSec: number; mbPerSec: number; p50: number; p99: number };

function measure(fn: (xml: Uint8Array) => void, xml: Uint8Array): Result {
  const until = (ms: number, record?: number[]) => {
    const start = performance.now();
    let n = 0;
    while (performance.now() - start < ms) {
      const t0 = performance.now();
      fn(xml);
      record?.push((performance.now() - t0) * 1000);
      n++;
    }
    return { n, elapsed: (performance.now() - start) / 1000 };
  };
  until(500); // warm-up: JIT and inline caches
  const samples: number[] = [];
  const { n, elapsed } = until(SECONDS * 1000, samples);
  const s = summarize(samples);
  return { docsPerSec: n / elapsed, mbPerSec: (n * xml.byteLength) / elapsed / 1e6, p50: s.p50, p99: s.p99 };
}

const fmt = (r: Result) =>
  `${r.docsPerSec.toFixed(0).padStart(7)} docs/s ${r.mbPerSec.toFixed(1).padStart(6)} MB/s  p50 ${r.p50.toFixed(0).padStart(6)} µs  p99 ${r.p99.toFixed(0).padStart(6)} µs`;

console.log(`bench/cfdi-parse on ${machine()}; one core, ${SECONDS} s per measurement`);
console.log(
  'pipeline = parseCfdi(bytes) + classifyCfdi + validateCfdi; baseline = UTF-8 decode + saxes alone\n',
);
let fiveKb: { full: Result; base: Result } | undefined;
for (const target of [5_000, 11_000, 140_000]) {
  const { xml, conceptos } = documentOfSize(target);
  pipeline(xml); // fails loudly if the template stops being a valid CFDI
  const full = await withCpuProfile(`pipeline ${target / 1000} KB`, async () => measure(pipeline, xml));
  const base = measure(parserOnly, xml);
  fiveKb ??= { full, base };
  console.log(`${(xml.byteLength / 1000).toFixed(1)} KB (${conceptos} conceptos)`);
  console.log(`  pipeline  ${fmt(full)}`);
  console.log(`  baseline  ${fmt(base)}`);
  console.log(
    `  pipeline runs at ${(full.docsPerSec / base.docsPerSec).toFixed(2)}× the parser-only throughput`,
  );
}
const { full, base } = fiveKb!;
const ratio = full.docsPerSec / base.docsPerSec;
console.log(
  `\ntarget ≥ ${TARGET_5KB} docs/s at 5 KB: ${full.docsPerSec >= TARGET_5KB ? 'met' : 'NOT met'} (${full.docsPerSec.toFixed(0)} docs/s)`,
);
console.log(
  `target ≥ ${TARGET_RATIO}× saxes alone at 5 KB: ${ratio >= TARGET_RATIO ? 'met' : 'NOT met'} (${ratio.toFixed(2)}×)`,
);
