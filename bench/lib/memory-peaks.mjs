// Preloaded into a benchmarked server (`node --import`): samples process.memoryUsage() and the V8
// heap's spaces every 20 ms and, on SIGUSR2, prints `memory-peaks N {now, peak, spaces}` (MB) — the
// values now, the peaks since the previous SIGUSR2 and each heap space's peak size — then starts the
// peaks again from now. RSS alone cannot tell the V8 heap (objects) from external memory (Buffers
// waiting in streams, zlib), nor the young generation's semispaces from the old generation; this can.
// Read by `memoryPeaks` in server.ts.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { getHeapSpaceStatistics } from 'node:v8';

const FIELDS = ['rss', 'heapTotal', 'heapUsed', 'external', 'arrayBuffers'];
const mb = (m) => Object.fromEntries(FIELDS.map((k) => [k, Math.round(m[k] / 1048576)]));
let peak = process.memoryUsage();
let spaces = {};
let n = 0;
// How long the event loop was held: a stall shows here, a slow database does not.
const delay = monitorEventLoopDelay({ resolution: 10 });
delay.enable();
const sample = () => {
  const m = process.memoryUsage();
  for (const k of FIELDS) peak[k] = Math.max(peak[k], m[k]);
  for (const s of getHeapSpaceStatistics()) {
    spaces[s.space_name] = Math.max(spaces[s.space_name] ?? 0, s.space_size);
  }
};
setInterval(sample, 20).unref();
process.on('SIGUSR2', () => {
  sample();
  const now = process.memoryUsage();
  const sizes = Object.fromEntries(Object.entries(spaces).map(([k, v]) => [k, Math.round(v / 1048576)]));
  const loopDelayMs = { p99: Math.round(delay.percentile(99) / 1e6), max: Math.round(delay.max / 1e6) };
  delay.reset();
  process.stdout.write(
    `memory-peaks ${++n} ${JSON.stringify({ now: mb(now), peak: mb(peak), spaces: sizes, loopDelayMs })}\n`,
  );
  peak = now;
  spaces = {};
});
