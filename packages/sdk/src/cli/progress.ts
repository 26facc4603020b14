import { formatBytes, formatDuration } from './format';
import type { Io, OutStream } from './io';

/** `██████░░░░  25%`: a fraction as a bar of 24 cells and a percentage. */
function bar(fraction: number): string {
  const cells = 24;
  const frac = Math.min(Math.max(fraction, 0), 1);
  const full = Math.round(frac * cells);
  return `${'█'.repeat(full)}${'░'.repeat(cells - full)} ${`${Math.floor(frac * 100)}%`.padStart(4)}`;
}

/**
 * A progress bar on stderr: files done, files/s and an ETA from the bytes still to send. On a
 * terminal it redraws one line; elsewhere (CI, pipes) it prints a line per update.
 */
export class Progress {
  private readonly started: number;
  private readonly out: OutStream;
  private lastLine = '';

  constructor(
    private readonly io: Io,
    private readonly total: { files: number; bytes: number },
    private readonly enabled = true,
  ) {
    this.started = io.now();
    this.out = io.stderr;
  }

  line(done: { files: number; bytes: number }): string {
    const elapsed = Math.max((this.io.now() - this.started) / 1000, 0.001);
    const rate = done.files / elapsed;
    const byteRate = done.bytes / elapsed;
    const left = this.total.bytes - done.bytes;
    const eta = done.bytes > 0 ? left / byteRate : Number.NaN;
    const frac = this.total.bytes > 0 ? Math.min(done.bytes / this.total.bytes, 1) : 1;
    return `${bar(frac)}  ${done.files}/${this.total.files} archivos  ${rate.toFixed(1)} archivos/s  faltan ${left <= 0 ? '0s' : formatDuration(eta)}`;
  }

  update(done: { files: number; bytes: number }): void {
    if (!this.enabled) return;
    const text = this.line(done);
    if (this.out.isTTY) this.out.write(`\r${text}\x1b[K`);
    else if (text !== this.lastLine) this.out.write(`${text}\n`);
    this.lastLine = text;
  }

  done(): void {
    if (this.enabled && this.out.isTTY && this.lastLine) this.out.write('\n');
  }
}

/** Redraws of a download's line are at least this far apart (a chunk may arrive every millisecond). */
const REDRAW_MS = 100;

/**
 * A download's progress on stderr: bytes so far and the rate, with a bar when the size is known.
 * Only on a terminal: in a pipe or a log the command's output stays what it writes, nothing more.
 */
export class ByteProgress {
  private readonly started: number;
  private lastDraw = Number.NEGATIVE_INFINITY;
  private drawn = false;

  constructor(
    private readonly io: Io,
    private readonly name: string,
  ) {
    this.started = io.now();
  }

  private get enabled(): boolean {
    return this.io.stderr.isTTY === true;
  }

  line(done: { bytes: number; total?: number }): string {
    const elapsed = Math.max((this.io.now() - this.started) / 1000, 0.001);
    const amount = done.total
      ? `${bar(done.bytes / done.total)}  ${formatBytes(done.bytes)} of ${formatBytes(done.total)}`
      : formatBytes(done.bytes);
    return `${this.name}  ${amount}  ${formatBytes(done.bytes / elapsed)}/s`;
  }

  update(done: { bytes: number; total?: number }): void {
    if (!this.enabled) return;
    const now = this.io.now();
    if (now - this.lastDraw < REDRAW_MS) return;
    this.lastDraw = now;
    this.io.stderr.write(`\r${this.line(done)}\x1b[K`);
    this.drawn = true;
  }

  /** The last figures, then the line is left as it is. */
  done(finalFigures?: { bytes: number; total?: number }): void {
    if (!this.enabled) return;
    if (finalFigures) this.io.stderr.write(`\r${this.line(finalFigures)}\x1b[K`);
    if (finalFigures || this.drawn) this.io.stderr.write('\n');
  }
}
