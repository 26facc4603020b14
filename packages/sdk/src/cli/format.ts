/** Plain-text tables and numbers for a terminal (no dependencies). */

export type Align = 'left' | 'right';
export interface Column {
  header: string;
  align?: Align;
  /** Longest cell before it is cut with "…". */
  max?: number;
}

const width = (s: string) => [...s].length;

function fit(s: string, max: number | undefined): string {
  if (max === undefined || width(s) <= max) return s;
  return `${[...s].slice(0, Math.max(1, max - 1)).join('')}…`;
}

const pad = (s: string, w: number, align: Align = 'left') =>
  align === 'right' ? ' '.repeat(w - width(s)) + s : s + ' '.repeat(w - width(s));

/** Columns separated by two spaces, a header and a rule; trailing spaces trimmed. */
export function renderTable(columns: Column[], rows: string[][]): string {
  const cells = rows.map((row) => columns.map((c, i) => fit(row[i] ?? '', c.max)));
  const widths = columns.map((c, i) => Math.max(width(c.header), ...cells.map((r) => width(r[i] ?? ''))));
  const line = (r: string[]) =>
    r
      .map((cell, i) => pad(cell, widths[i] ?? 0, columns[i]?.align))
      .join('  ')
      .trimEnd();
  return [
    line(columns.map((c) => c.header)),
    line(widths.map((w) => '─'.repeat(w))),
    ...cells.map(line),
  ].join('\n');
}

const money = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
export const formatMoney = (n: number | undefined) => (n === undefined ? '' : money.format(n));

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
