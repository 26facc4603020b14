import { formatDuration } from './format';
import type { Io, OutStream } from './io';

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
    const cells = 24;
    const full = Math.round(frac * cells);
    const bar = `${'█'.repeat(full)}${'░'.repeat(cells - full)}`;
    const pct = `${Math.floor(frac * 100)}%`.padStart(4);
    return `${bar} ${pct}  ${done.files}/${this.total.files} files  ${rate.toFixed(1)} files/s  ETA ${left <= 0 ? '0s' : formatDuration(eta)}`;
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
