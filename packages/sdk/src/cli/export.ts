import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { DownloadOptions, DownloadProgress, FolioDownload } from '../download';
import { FolioApiError } from '../errors';
import type { ExpenseExportQuery, InvoiceExportQuery } from '../rest';
import { formatBytes } from './format';
import { CliError, EXIT, type Io, UsageError } from './io';
import { intFlag } from './listings';
import { ByteProgress } from './progress';
import { openSession, resolveProfile, type Session } from './session';

interface FileFlags {
  url?: string;
  token?: string;
  config?: string;
  /** `-o`: a file, or a folder to put the server's file name in. */
  output?: string;
}

export interface ExportFlags extends FileFlags {
  profile?: string;
  mes?: string;
  año?: string;
  anio?: string;
  search?: string;
  regimen?: string;
  'tipo-comprobante'?: string;
  tipo?: string;
  categoria?: string;
  format?: string;
}

function oneOf<T extends string>(
  name: string,
  value: string | undefined,
  allowed: readonly T[],
): T | undefined {
  if (value === undefined) return undefined;
  const upper = allowed.find((a) => a.toLowerCase() === value.toLowerCase());
  if (!upper) throw new UsageError(`--${name} must be ${allowed.join(', ')}`);
  return upper;
}

/**
 * `folio export invoices|expenses [--profile RFC|id] [filters…] [--format xlsx|csv] [-o FILE|FOLDER]`:
 * the listing as the server writes it, saved as it arrives.
 */
export async function exportCommand(io: Io, positionals: string[], flags: ExportFlags): Promise<number> {
  const [what, extra] = positionals;
  if (what !== 'invoices' && what !== 'expenses') {
    throw new UsageError(
      what ? `cannot export "${what}": say invoices or expenses` : 'say what to export: invoices or expenses',
    );
  }
  if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}"`);
  if (what === 'invoices' && (flags.tipo !== undefined || flags.categoria !== undefined)) {
    throw new UsageError('--tipo and --categoria filter expenses only');
  }
  if (flags.regimen !== undefined && !/^\d{3}$/.test(flags.regimen)) {
    throw new UsageError('--regimen is a SAT regime code of 3 digits, e.g. 601');
  }
  const query: InvoiceExportQuery = {
    mes: intFlag('mes', flags.mes, 1, 12),
    año: intFlag('año', flags.año ?? flags.anio, 1990, 2100),
    search: flags.search,
    regimen_fiscal: flags.regimen,
    tipo_comprobante: oneOf('tipo-comprobante', flags['tipo-comprobante'], [
      'I',
      'E',
      'P',
      'T',
      'N',
    ] as const),
    format: oneOf('format', flags.format, ['xlsx', 'csv'] as const) ?? 'xlsx',
  };
  const expenseOnly: ExpenseExportQuery = {
    tipo: oneOf('tipo', flags.tipo, ['PUE', 'PPD', 'COMPLEMENTO_PAGO'] as const),
    categoria: flags.categoria,
  };
  const session = await openSession(io, flags);
  if (flags.profile) query.profileId = (await resolveProfile(session, flags.profile)).id;
  const files = session.client.rest.exports;
  return saveDownload(io, flags.output, (opts) =>
    what === 'invoices' ? files.invoices(query, opts) : files.expenses({ ...query, ...expenseOnly }, opts),
  );
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The route takes Folio's id of the document; a person has its fiscal UUID (folio fiscal). The
 * UUID is looked up among the caller's invoices, then expenses; what matches neither is taken for
 * an id (both are UUID-shaped).
 */
async function documentIdOf(session: Session, ref: string): Promise<string | undefined> {
  const query = { search: ref, limit: 100 };
  const same = (d: { uuid?: string | null }) => d.uuid?.toLowerCase() === ref.toLowerCase();
  const income = await session.client.rest.GET('/invoices', { params: { query } });
  const invoice = income.data.data.find(same);
  if (invoice) return invoice.id;
  const expenses = await session.client.rest.GET('/expenses', { params: { query } });
  return expenses.data.data.find(same)?.id;
}

/** `folio pdf <UUID|id> [-o FILE|FOLDER]`: the printed representation of one CFDI. */
export async function pdfCommand(io: Io, positionals: string[], flags: FileFlags): Promise<number> {
  const [given, extra] = positionals;
  if (!given) throw new UsageError('folio pdf needs the UUID (folio fiscal) of a CFDI');
  if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}"`);
  const ref = given.trim();
  if (!UUID.test(ref)) throw new UsageError(`"${given}" is not a UUID (folio fiscal) nor a Folio id`);
  const session = await openSession(io, flags);
  const id = (await documentIdOf(session, ref)) ?? ref;
  try {
    return await saveDownload(io, flags.output, (opts) => session.client.rest.exports.invoicePdf(id, opts));
  } catch (err) {
    if (err instanceof FolioApiError && err.status === 404) {
      throw new CliError(`No CFDI with UUID or id ${ref} in your account.`);
    }
    throw err;
  }
}

/** Where `-o` puts the file: that path, or the server's name in that folder (or here without -o). */
async function targetOf(io: Io, output: string | undefined, filename: string) {
  if (output === undefined) return { path: resolve(io.cwd, filename), shown: filename };
  const path = resolve(io.cwd, output);
  const folder = /[/\\]$/.test(output) || (await stat(path).catch(() => undefined))?.isDirectory();
  return folder ? { path: join(path, filename), shown: join(output, filename) } : { path, shown: output };
}

/**
 * Downloads into a file (a temporary one renamed at the end: the target is whole or untouched),
 * drawing the progress on a terminal, and prints the path written on stdout. Ctrl-C stops it (130).
 */
export async function saveDownload(
  io: Io,
  output: string | undefined,
  start: (opts: DownloadOptions) => Promise<FolioDownload>,
): Promise<number> {
  const abort = new AbortController();
  const stopListening = io.onInterrupt?.(() => abort.abort());
  let progress: ByteProgress | undefined;
  let figures: DownloadProgress = { bytes: 0 };
  let shown: string | undefined;
  try {
    const file = await start({
      signal: abort.signal,
      onProgress: (p) => {
        figures = p;
        progress?.update(p);
      },
    });
    const target = await targetOf(io, output, file.filename);
    shown = target.shown;
    progress = new ByteProgress(io, shown);
    const { bytes } = await file.saveTo(target.path);
    progress.done({ ...figures, bytes });
    io.stdout.write(`${shown}\n`);
    return EXIT.ok;
  } catch (err) {
    progress?.done();
    if (abort.signal.aborted) {
      io.stderr.write(`Interrupted (Ctrl-C)${shown ? `; ${shown} was not written` : ''}.\n`);
      return EXIT.interrupted;
    }
    const code = (err as NodeJS.ErrnoException)?.code;
    if (shown && typeof code === 'string' && (err as NodeJS.ErrnoException).syscall) {
      throw new CliError(`Cannot write ${shown} (${code}); nothing was written.`);
    }
    if (shown && !(err instanceof FolioApiError)) {
      throw new CliError(
        `The download stopped after ${formatBytes(figures.bytes)}: ${(err as Error)?.message ?? err}; ${shown} was not written.`,
      );
    }
    throw err;
  } finally {
    stopListening?.();
  }
}
