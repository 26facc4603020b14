// Preloaded into a benchmarked server (`node --import`): samples process.memoryUsage() every 20 ms and,
// on SIGUSR2, prints `memory-peaks N {now, peak}` (MB) — the values now and the peaks since the previous
// SIGUSR2 — then starts the peaks again from now. RSS alone cannot tell the V8 heap (objects) from
// external memory (Buffers waiting in streams, zlib); this can. Read by `memoryPeaks` in server.ts.
const FIELDS = ['rss', 'heapTotal', 'heapUsed', 'external', 'arrayBuffers'];
const mb = (m) => Object.fromEntries(FIELDS.map((k) => [k, Math.round(m[k] / 1048576)]));
let peak = process.memoryUsage();
let n = 0;
setInterval(() => {
  const m = process.memoryUsage();
  for (const k of FIELDS) peak[k] = Math.max(peak[k], m[k]);
}, 20).unref();
process.on('SIGUSR2', () => {
  const now = process.memoryUsage();
  for (const k of FIELDS) peak[k] = Math.max(peak[k], now[k]);
  process.stdout.write(`memory-peaks ${++n} ${JSON.stringify({ now: mb(now), peak: mb(peak) })}\n`);
  peak = now;
});
