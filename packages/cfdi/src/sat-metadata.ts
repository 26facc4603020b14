// SAT's metadata files (the portal's "descarga de metadatos" and the mass-download service's):
// text, one CFDI per record, fields separated by `~`, records ending in CRLF, a header naming the
// columns. Names may hold a stray LF (the issuer typed it): it is part of the field, not a new record.

/** One CFDI as SAT lists it. Only uuid, estatus and fechaCancelacion are certain to be there. */
export interface MetadataRecord {
  uuid: string;
  estatus: 'vigente' | 'cancelado';
  /** 'YYYY-MM-DDTHH:mm:ss' (or a date), Mexico local time; null while vigente. */
  fechaCancelacion: string | null;
  rfcEmisor: string | null;
  nombreEmisor: string | null;
  rfcReceptor: string | null;
  nombreReceptor: string | null;
  fechaEmision: string | null;
  monto: number | null;
  /** EfectoComprobante: I, E, P, T or N. */
  efecto: string | null;
}

/** A record read (`record`) or refused (`error`), by the line of the file it starts on. */
export type MetadataLine =
  | { line: number; record: MetadataRecord }
  | { line: number; uuid?: string; error: string };

/** Column names as SAT writes them, lower-cased, with the variants seen in the wild. */
const COLUMNS = {
  uuid: ['uuid'],
  rfcEmisor: ['rfcemisor'],
  nombreEmisor: ['nombreemisor'],
  rfcReceptor: ['rfcreceptor'],
  nombreReceptor: ['nombrereceptor'],
  rfcPac: ['rfcpac', 'paccertifico'],
  fechaEmision: ['fechaemision'],
  monto: ['monto'],
  efecto: ['efectocomprobante'],
  estatus: ['estatus'],
  fechaCancelacion: ['fechacancelacion'],
} as const;
type Column = keyof typeof COLUMNS;
const REQUIRED: Column[] = ['uuid', 'estatus', 'fechaCancelacion'];
const HEADER_NAMES = { uuid: 'Uuid', estatus: 'Estatus', fechaCancelacion: 'FechaCancelacion' } as const;

const UUID = /^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$/;
const ISO_DATE = /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}:\d{2}(?::\d{2})?))?(?:\.\d+)?$/;
const DMY_DATE = /^(\d{2})\/(\d{2})\/(\d{4})(?: (\d{2}:\d{2}(?::\d{2})?))?$/;

/** A date as the files write it ('2025-03-10 12:00:00', or dd/mm/yyyy) in the CFDI's ISO form; null if none. */
export function metadataDate(text: string): string | null {
  const t = text.trim();
  const iso = ISO_DATE.exec(t);
  if (iso) return iso[2] ? `${iso[1]}T${iso[2].length === 5 ? `${iso[2]}:00` : iso[2]}` : iso[1]!;
  const dmy = DMY_DATE.exec(t);
  if (dmy) {
    const day = `${dmy[3]}-${dmy[2]}-${dmy[1]}`;
    return dmy[4] ? `${day}T${dmy[4].length === 5 ? `${dmy[4]}:00` : dmy[4]}` : day;
  }
  return null;
}

/**
 * The records of a file, each with its starting line. Records end in CRLF; a file with no CRLF at
 * all (re-saved by an editor) ends them in LF. Inside a CRLF record, a lone LF or CR becomes a space.
 */
function records(text: string): { line: number; text: string }[] {
  const crlf = text.includes('\r\n');
  const parts = crlf ? text.split('\r\n') : text.split(/\r?\n/);
  const out: { line: number; text: string }[] = [];
  let line = 1;
  for (const part of parts) {
    out.push({ line, text: crlf ? part.replace(/[\r\n]/g, ' ') : part });
    line += 1 + (crlf ? (part.match(/\n/g)?.length ?? 0) : 0);
  }
  return out;
}

const clean = (field: string | undefined) => {
  const t = (field ?? '').replace(/\s+/g, ' ').trim();
  return t === '' ? null : t;
};

/**
 * Reads a metadata file: the header picks the columns by name (in any order; `PacCertifico` for
 * `RfcPac`), every later record becomes a line. A file without Uuid, Estatus or FechaCancelacion
 * columns is refused whole.
 */
export function parseSatMetadata(text: string): { error: string } | { lines: MetadataLine[] } {
  const [header, ...rest] = records(text.replace(/^\uFEFF/, ''));
  const names = (header?.text ?? '').split('~').map((n) => n.trim().toLowerCase());
  const index = {} as Record<Column, number>;
  for (const [column, aliases] of Object.entries(COLUMNS) as [Column, readonly string[]][]) {
    index[column] = names.findIndex((n) => aliases.includes(n));
  }
  const missing = REQUIRED.filter((c) => index[c] < 0);
  if (missing.length) {
    return {
      error: `not a SAT metadata file: the header lacks ${missing.map((c) => HEADER_NAMES[c as keyof typeof HEADER_NAMES]).join(', ')}`,
    };
  }
  const lines: MetadataLine[] = [];
  for (const r of rest) {
    if (!r.text.trim()) continue;
    lines.push(readRecord(r, names.length, index));
  }
  return { lines };
}

function readRecord(
  r: { line: number; text: string },
  width: number,
  index: Record<Column, number>,
): MetadataLine {
  const fields = r.text.split('~');
  // Trailing empty fields (a line ending in `~`) are padding, not data.
  while (fields.length > width && fields[fields.length - 1]!.trim() === '') fields.pop();
  const field = (c: Column) => (index[c] < 0 ? null : clean(fields[index[c]]));
  const rawUuid = field('uuid')?.toUpperCase();
  const uuid = rawUuid && UUID.test(rawUuid) ? rawUuid : undefined;
  const bad = (error: string): MetadataLine => ({ line: r.line, ...(uuid ? { uuid } : {}), error });
  if (fields.length !== width) return bad(`${fields.length} fields where the header names ${width}`);
  if (!uuid) return bad(`Uuid "${rawUuid ?? ''}" is not a UUID`);
  const code = field('estatus');
  if (code !== '1' && code !== '0')
    return bad(`Estatus "${code ?? ''}" is neither 1 (vigente) nor 0 (cancelado)`);
  const fechaText = field('fechaCancelacion');
  const fechaCancelacion = fechaText ? metadataDate(fechaText) : null;
  if (fechaText && !fechaCancelacion) return bad(`FechaCancelacion "${fechaText}" is not a date`);
  if (code === '0' && !fechaCancelacion) return bad('Estatus 0 (cancelado) without FechaCancelacion');
  const emision = field('fechaEmision');
  const monto = field('monto');
  const amount = monto === null ? null : Number(monto.replace(/[$,\s]/g, ''));
  return {
    line: r.line,
    record: {
      uuid,
      estatus: code === '1' ? 'vigente' : 'cancelado',
      fechaCancelacion: code === '1' ? null : fechaCancelacion,
      rfcEmisor: field('rfcEmisor')?.toUpperCase() ?? null,
      nombreEmisor: field('nombreEmisor'),
      rfcReceptor: field('rfcReceptor')?.toUpperCase() ?? null,
      nombreReceptor: field('nombreReceptor'),
      fechaEmision: emision ? metadataDate(emision) : null,
      monto: amount !== null && Number.isFinite(amount) ? amount : null,
      efecto: field('efecto')?.charAt(0).toUpperCase() ?? null,
    },
  };
}
