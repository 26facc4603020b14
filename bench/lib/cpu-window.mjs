// Preloaded into a benchmarked server (`node --import`): profiles its CPU over a window the benchmark
// chooses, which `--cpu-prof` (the whole life, start-up included) cannot. The first SIGUSR2 starts
// V8's profiler, the next stops it, writes the profile into $CPU_WINDOW_DIR and prints
// `cpu-window N <file>`; and so on. Read by `cpuWindow` in server.ts. Over the same window it
// watches the event loop: between two ticks of a 2 ms timer, the longest wall time (perf_hooks) and
// the most CPU time the process spent, i.e. the longest stretch one piece of work held the loop while
// every other request waited. The CPU figure holds when other work shares the machine (the wall
// one then counts the time the OS gave to others); printed as `cpu-window-loop N <wall ms> <cpu ms>`.
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const dir = process.env.CPU_WINDOW_DIR;
if (!dir) throw new Error('cpu-window.mjs needs CPU_WINDOW_DIR');
const session = new Session();
session.connect();
await session.post('Profiler.enable');
let running = false;
let n = 0;
const loop = monitorEventLoopDelay({ resolution: 2 });
/** The most CPU (µs, user + system, every thread) the process spent between two ticks of the timer. */
let cpuMax = 0;
let ticking;
const tick = (last) => {
  const used = process.cpuUsage(last);
  cpuMax = Math.max(cpuMax, used.user + used.system);
  ticking = setTimeout(tick, 2, process.cpuUsage());
};
process.on('SIGUSR2', async () => {
  if (!running) {
    running = true;
    await session.post('Profiler.start');
    loop.reset();
    loop.enable();
    cpuMax = 0;
    tick(process.cpuUsage());
    process.stdout.write(`cpu-window started ${n + 1}\n`);
    return;
  }
  running = false;
  loop.disable();
  clearTimeout(ticking);
  const { profile } = await session.post('Profiler.stop');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `window-${++n}-${process.pid}.cpuprofile`);
  writeFileSync(file, JSON.stringify(profile));
  process.stdout.write(`cpu-window-loop ${n} ${(loop.max / 1e6).toFixed(1)} ${(cpuMax / 1e3).toFixed(1)}\n`);
  process.stdout.write(`cpu-window ${n} ${file}\n`);
});
