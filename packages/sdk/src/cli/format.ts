/** Plain-text tables and numbers for a terminal (no dependencies). */

export type Align = 'left' | 'right';
export interface Column {
  header: string;
  align?: Align;
  /** Longest cell before it is cut with "…". */
  max?: number;
  /** May be narrowed (cells cut with "…", never below the header) so the table fits the width. */
  shrink?: boolean;
}

const width = (s: string) => [...s].length;

function fit(s: string, max: number | undefined): string {
  if (max === undefined || width(s) <= max) return s;
  return `${[...s].slice(0, Math.max(1, max - 1)).join('')}…`;
}

const pad = (s: string, w: number, align: Align = 'left') =>
  align === 'right' ? ' '.repeat(w - width(s)) + s : s + ' '.repeat(w - width(s));

const GAP = 2;

/**
 * Narrows the widest shrinkable column, one character at a time, until the table fits `limit`
 * (or every shrinkable column is down to its header).
 */
function fitWidths(columns: Column[], widths: number[], limit: number | undefined): number[] {
  if (!limit) return widths;
  const out = [...widths];
  let excess = out.reduce((a, b) => a + b, 0) + GAP * (out.length - 1) - limit;
  while (excess > 0) {
    let widest = -1;
    for (const [i, c] of columns.entries()) {
      const w = out[i] ?? 0;
      if (c.shrink && w > Math.max(width(c.header), 2) && (widest < 0 || w > (out[widest] ?? 0))) widest = i;
    }
    if (widest < 0) break;
    out[widest] = (out[widest] ?? 0) - 1;
    excess--;
  }
  return out;
}

/**
 * Columns separated by two spaces, a header and a rule; trailing spaces trimmed. With `limit`
 * (the terminal's width) shrinkable columns are narrowed so every line fits.
 */
export function renderTable(columns: Column[], rows: string[][], limit?: number): string {
  const natural = rows.map((row) => columns.map((c, i) => fit(row[i] ?? '', c.max)));
  const widths = fitWidths(
    columns,
    columns.map((c, i) => Math.max(width(c.header), ...natural.map((r) => width(r[i] ?? '')))),
    limit,
  );
  const cells = natural.map((row) => row.map((cell, i) => fit(cell, widths[i])));
  const line = (r: string[]) =>
    r
      .map((cell, i) => pad(cell, widths[i] ?? 0, columns[i]?.align))
      .join(' '.repeat(GAP))
      .trimEnd();
  return [
    line(columns.map((c) => c.header)),
    line(widths.map((w) => '─'.repeat(w))),
    ...cells.map(line),
  ].join('\n');
}

const money = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
export const formatMoney = (n: number | undefined) => (n === undefined ? '' : money.format(n));

/** `0 B`, `512 B`, `12.3 KB`, `4.0 MB` (1 KB = 1024 bytes). */
export function formatBytes(n: number): string {
  const units = ['B', 'KB', 'MB', 'GB'];
  let value = n;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${Math.round(value)} B` : `${value.toFixed(1)} ${units[unit]}`;
}

export const formatCount = (n: number) => new Intl.NumberFormat('en-US').format(n);

export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '?';
  if (seconds < 60) return `${Math.ceil(seconds)}s`;
  const m = Math.floor(seconds / 60);
  if (m < 60) return `${m}m${String(Math.round(seconds % 60)).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

/** The date part of an ISO timestamp as written (CFDI dates are local time; never shifted). */
export const datePart = (iso: string) => iso.slice(0, 10);
