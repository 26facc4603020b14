import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, join, relative, resolve, sep } from 'node:path';
import { FolioApiError } from '../errors';
import type { components } from '../generated/openapi';
import { formatCount, renderTable } from './format';
import { CliError, EXIT, type Io, tableWidth, UsageError } from './io';
import { Progress } from './progress';
import { explain, openSession, resolveProfile, type Session } from './session';

type FileReport = components['schemas']['ImportReport']['files'][number];
/** A file as the summary reports it: the server's line, or never sent (the import stopped first). */
type ImportLine = FileReport | { name: string; status: 'not_sent' };

export interface ImportFlags {
  url?: string;
  token?: string;
  config?: string;
  profile?: string;
  batch?: string;
  json?: boolean;
  verbose?: boolean;
  quiet?: boolean;
}

interface Input {
  path: string;
  /** As reported: the path relative to the folder given, with `/`. */
  name: string;
  size: number;
  zip: boolean;
}

const IMPORTABLE = /\.(xml|zip)$/i;
/** Bytes per request, well under the server's 120 MB upload limit. */
const MAX_BATCH_BYTES = 20 * 1024 * 1024;

/** The files to send; a path that is not there or cannot be imported is a command-line error (exit 2). */
async function collect(target: string): Promise<Input[]> {
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(target);
  } catch {
    throw new UsageError(`${target}: no such file or folder`);
  }
  if (info.isFile()) {
    if (!IMPORTABLE.test(target)) throw new UsageError(`${target}: only .xml and .zip files can be imported`);
    return [{ path: target, name: basename(target), size: info.size, zip: /\.zip$/i.test(target) }];
  }
  const out: Input[] = [];
  for (const entry of await readdir(target, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !IMPORTABLE.test(entry.name) || entry.name.startsWith('.')) continue;
    const path = join(entry.parentPath, entry.name);
    out.push({
      path,
      name: relative(target, path).split(sep).join('/'),
      size: (await stat(path)).size,
      zip: /\.zip$/i.test(entry.name),
    });
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

/** Up to `size` XML files and 20 MB a request; every ZIP travels alone (the server unpacks it). */
function batches(inputs: Input[], size: number): Input[][] {
  const out: Input[][] = [];
  let cur: Input[] = [];
  let bytes = 0;
  for (const input of inputs) {
    if (input.zip) {
      out.push([input]);
      continue;
    }
    if (cur.length && (cur.length >= size || bytes + input.size > MAX_BATCH_BYTES)) {
      out.push(cur);
      cur = [];
      bytes = 0;
    }
    cur.push(input);
    bytes += input.size;
  }
  if (cur.length) out.push(cur);
  return out;
}

/** Waits, or less when the import is interrupted. */
const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((done) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        done();
      },
      { once: true },
    );
  });

/** Connection failures in a row (retries included) after which the server is taken for gone. */
const MAX_CONNECTION_FAILURES = 3;
/** Attempts at one batch answered 429 or 5xx before its files are reported rejected. */
const MAX_ATTEMPTS = 4;
/** A 429 asking to wait longer than this is a limit for today, not a hiccup: stop instead. */
const MAX_RETRY_AFTER_S = 60;

type Sent = { files: FileReport[] } | { stop: string };

/**
 * Sends one batch, retrying what may pass on a second try. Resolves to the server's lines, or to a
 * reason to stop importing (the server is gone, Ctrl-C, a long 429); the batch then counts as not sent.
 */
async function sendBatch(
  session: Session,
  profileId: string,
  batch: Input[],
  state: { connectionFailures: number; signal: AbortSignal },
): Promise<Sent> {
  const payload = await Promise.all(
    batch.map(async (i) => ({ name: i.name, content: await readFile(i.path) })),
  );
  for (let attempt = 1; ; attempt++) {
    if (state.signal.aborted) return { stop: INTERRUPTED };
    try {
      const report = await session.client.rest.uploadCfdi(profileId, payload, { signal: state.signal });
      state.connectionFailures = 0;
      return { files: report.files };
    } catch (err) {
      if (state.signal.aborted) return { stop: INTERRUPTED };
      if (!(err instanceof FolioApiError)) throw err;
      if (err.status === 401 || err.status === 403 || err.status === 404) {
        throw new CliError(explain(err, session.url));
      }
      if (err.status === 0) {
        if (++state.connectionFailures >= MAX_CONNECTION_FAILURES) {
          return {
            stop: `el servidor dejó de responder (${state.connectionFailures} fallos de conexión seguidos)`,
          };
        }
        await sleep(500 * 2 ** (state.connectionFailures - 1), state.signal);
        continue;
      }
      state.connectionFailures = 0;
      if (err.status === 429 && (err.retryAfter ?? 0) > MAX_RETRY_AFTER_S) return { stop: err.message };
      if ((err.status === 429 || err.status >= 500) && attempt < MAX_ATTEMPTS) {
        await sleep(err.retryAfter !== null ? err.retryAfter * 1000 : 500 * 2 ** attempt, state.signal);
        continue;
      }
      // The request as a whole was refused (too large, malformed…): its files are rejected.
      return { files: batch.map((i) => ({ name: i.name, status: 'rejected' as const, error: err.message })) };
    }
  }
}

const INTERRUPTED = 'interrumpido (Ctrl-C)';

/** `folio import <dir|zip> --profile <RFC|id>` */
export async function importCommand(io: Io, target: string | undefined, flags: ImportFlags): Promise<number> {
  if (!target) throw new UsageError('folio import needs a folder, an .xml or a .zip file');
  if (!flags.profile) throw new UsageError('folio import needs --profile <RFC|id>');
  const batchSize = flags.batch === undefined ? 25 : Number(flags.batch);
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 500) {
    throw new UsageError('--batch is a number of files from 1 to 500');
  }
  const inputs = await collect(resolve(io.cwd, target));
  if (!inputs.length) throw new CliError(`${target}: no .xml or .zip files in it`);
  const session = await openSession(io, flags);
  let profile: Awaited<ReturnType<typeof resolveProfile>>;
  try {
    profile = await resolveProfile(session, flags.profile);
  } catch (err) {
    throw err instanceof CliError ? err : new CliError(explain(err, session.url));
  }
  const total = { files: inputs.length, bytes: inputs.reduce((n, i) => n + i.size, 0) };
  const progress = new Progress(io, total, !flags.quiet);
  if (!flags.quiet) {
    // A ZIP is one file here, but the report lists each XML inside it: say so, so the counts agree.
    const zips = inputs.filter((i) => i.zip).length;
    io.stderr.write(
      `Importando ${formatCount(inputs.length)} archivo(s) desde ${target} en ${profile.rfc} (${profile.nombre})` +
        `${zips ? `; ${formatCount(zips)} ZIP: el resumen cuenta cada XML que contiene` : ''}\n`,
    );
  }
  const started = io.now();
  const done = { files: 0, bytes: 0 };
  const files: ImportLine[] = [];
  let stopped: string | null = null;
  const abort = new AbortController();
  const state = { connectionFailures: 0, signal: abort.signal };
  const stopListening = io.onInterrupt?.(() => abort.abort());
  progress.update(done);
  try {
    for (const batch of batches(inputs, batchSize)) {
      const sent: Sent = stopped ? { stop: stopped } : await sendBatch(session, profile.id, batch, state);
      if ('stop' in sent) {
        stopped = sent.stop;
        files.push(...batch.map((i) => ({ name: i.name, status: 'not_sent' as const })));
        continue;
      }
      files.push(...sent.files);
      // Past the plan's monthly limit nothing more is stored this month: stop instead of sending the rest.
      const quota: FileReport | undefined = sent.files.find((f) => f.code === 'quota_exceeded');
      if (quota) stopped = quota.error ?? 'the monthly CFDI limit of your plan is reached';
      done.files += batch.length;
      done.bytes += batch.reduce((n, i) => n + i.size, 0);
      progress.update(done);
    }
  } finally {
    stopListening?.();
    progress.done();
  }

  const count = (s: ImportLine['status']) => files.filter((f) => f.status === s).length;
  const report = {
    profile: { id: profile.id, rfc: profile.rfc, nombre: profile.nombre },
    imported: count('imported'),
    duplicates: count('duplicate'),
    rejected: count('rejected'),
    notSent: count('not_sent'),
    stopped,
    files,
  };
  const seconds = (io.now() - started) / 1000;
  io.stdout.write(
    flags.json
      ? `${JSON.stringify(report, null, 2)}\n`
      : summary(report, { verbose: flags.verbose ?? false, seconds, width: tableWidth(io) }),
  );
  if (abort.signal.aborted) return EXIT.interrupted;
  return report.rejected > 0 || report.notSent > 0 ? EXIT.failed : EXIT.ok;
}

const STATUS = {
  imported: 'importado',
  duplicate: 'duplicado',
  rejected: 'rechazado',
  not_sent: 'no enviado',
};

function summary(
  r: {
    profile: { rfc: string };
    imported: number;
    duplicates: number;
    rejected: number;
    notSent: number;
    stopped: string | null;
    files: ImportLine[];
  },
  opts: { verbose: boolean; seconds: number; width: number | undefined },
): string {
  const totals = renderTable(
    [{ header: 'resultado' }, { header: 'archivos', align: 'right' }],
    [
      ['importados', formatCount(r.imported)],
      ['duplicados', formatCount(r.duplicates)],
      ['rechazados', formatCount(r.rejected)],
      ...(r.notSent ? [['no enviados', formatCount(r.notSent)]] : []),
      ['total', formatCount(r.files.length)],
    ],
  );
  // Imported and unsent files are in the counts; the detail lists them only with --verbose.
  const shown = r.files.filter((f) => opts.verbose || f.status === 'rejected' || f.status === 'duplicate');
  const detail = shown.length
    ? `\n\n${renderTable(
        [
          { header: 'archivo', max: 60, shrink: true },
          { header: 'estado' },
          { header: 'detalle', shrink: true },
        ],
        shown.map((f) => [f.name, STATUS[f.status], detailOf(f)]),
        opts.width,
      )}`
    : '';
  const sentFiles = r.files.length - r.notSent;
  const rate = opts.seconds > 0 ? sentFiles / opts.seconds : 0;
  const stop = r.stopped
    ? `\nDetenido:\n  ${r.stopped}\n${formatCount(r.notSent)} archivo(s) sin enviar; repite la misma importación ` +
      'para enviarlos (los ya guardados salen como duplicados).\n'
    : '';
  return (
    `\n${totals}${detail}\n${stop}\n` +
    `${r.imported} importado(s), ${r.duplicates} duplicado(s), ${r.rejected} rechazado(s)` +
    `${r.notSent ? `, ${r.notSent} sin enviar` : ''} en ${r.profile.rfc} ` +
    `(${opts.seconds.toFixed(1)} s, ${rate.toFixed(1)} archivos/s).\n`
  );
}

function detailOf(f: ImportLine): string {
  if (f.status === 'not_sent') return '';
  if (f.status === 'rejected') return f.error ?? 'rechazado';
  const kind = f.kind && { invoice: 'factura', expense: 'gasto' }[f.kind];
  const what = [kind, f.tipo, f.uuid].filter(Boolean).join(' ');
  return f.status === 'duplicate' ? `${what} (ya importado)` : what;
}
