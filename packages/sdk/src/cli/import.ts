import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, join, relative, resolve, sep } from 'node:path';
import { FolioApiError } from '../errors';
import type { components } from '../generated/openapi';
import { formatCount, renderTable } from './format';
import { CliError, EXIT, type Io, UsageError } from './io';
import { Progress } from './progress';
import { explain, openSession, resolveProfile } from './session';

type FileReport = components['schemas']['ImportReport']['files'][number];

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

async function collect(target: string): Promise<Input[]> {
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(target);
  } catch {
    throw new CliError(`${target}: no such file or folder`);
  }
  if (info.isFile()) {
    if (!IMPORTABLE.test(target)) throw new CliError(`${target}: only .xml and .zip files can be imported`);
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

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `folio import <dir|zip> --profile <RFC|id>` */
export async function importCommand(io: Io, target: string | undefined, flags: ImportFlags): Promise<number> {
  if (!target) throw new UsageError('folio import needs a folder, an .xml or a .zip file');
  if (!flags.profile) throw new UsageError('folio import needs --profile <RFC|id>');
  const batchSize = flags.batch === undefined ? 25 : Number(flags.batch);
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 500) {
    throw new UsageError('--batch is a number of files from 1 to 500');
  }
  const session = await openSession(io, flags);
  let profile: Awaited<ReturnType<typeof resolveProfile>>;
  try {
    profile = await resolveProfile(session, flags.profile);
  } catch (err) {
    throw err instanceof CliError ? err : new CliError(explain(err, session.url));
  }
  const inputs = await collect(resolve(io.cwd, target));
  if (!inputs.length) throw new CliError(`${target}: no .xml or .zip files in it`);
  const total = { files: inputs.length, bytes: inputs.reduce((n, i) => n + i.size, 0) };
  const progress = new Progress(io, total, !flags.quiet);
  if (!flags.quiet) {
    io.stderr.write(
      `Importing ${formatCount(inputs.length)} file(s) from ${target} into ${profile.rfc} (${profile.nombre})\n`,
    );
  }
  const started = io.now();
  const done = { files: 0, bytes: 0 };
  const files: FileReport[] = [];
  progress.update(done);

  for (const batch of batches(inputs, batchSize)) {
    const payload = await Promise.all(
      batch.map(async (i) => ({ name: i.name, content: await readFile(i.path) })),
    );
    for (let attempt = 1; ; attempt++) {
      try {
        const { data } = await session.client.rest.uploadCfdi(profile.id, payload);
        files.push(...data.data.files);
        break;
      } catch (err) {
        const status = err instanceof FolioApiError ? err.status : -1;
        if (status === 401 || status === 403 || status === 404) {
          progress.done();
          throw new CliError(explain(err, session.url));
        }
        const transient = status === 0 || status === 429 || status >= 500;
        if (transient && attempt < 4) {
          const wait =
            err instanceof FolioApiError && err.retryAfter !== null
              ? Math.min(err.retryAfter, 60) * 1000
              : 500 * 2 ** attempt;
          await sleep(wait);
          continue;
        }
        // The request as a whole was refused (too large, malformed…): its files are rejected.
        const reason = err instanceof FolioApiError ? err.message : String(err);
        files.push(...batch.map((i) => ({ name: i.name, status: 'rejected' as const, error: reason })));
        break;
      }
    }
    done.files += batch.length;
    done.bytes += batch.reduce((n, i) => n + i.size, 0);
    progress.update(done);
  }
  progress.done();

  const count = (s: FileReport['status']) => files.filter((f) => f.status === s).length;
  const report = {
    profile: { id: profile.id, rfc: profile.rfc, nombre: profile.nombre },
    imported: count('imported'),
    duplicates: count('duplicate'),
    rejected: count('rejected'),
    files,
  };
  const seconds = (io.now() - started) / 1000;

  if (flags.json) {
    io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  } else {
    io.stdout.write(summary(report, flags.verbose ?? false, seconds, inputs.length));
  }
  return report.rejected > 0 ? EXIT.failed : EXIT.ok;
}

function summary(
  r: {
    profile: { rfc: string };
    imported: number;
    duplicates: number;
    rejected: number;
    files: FileReport[];
  },
  verbose: boolean,
  seconds: number,
  inputs: number,
): string {
  const totals = renderTable(
    [{ header: 'result' }, { header: 'files', align: 'right' }],
    [
      ['imported', formatCount(r.imported)],
      ['duplicate', formatCount(r.duplicates)],
      ['rejected', formatCount(r.rejected)],
      ['total', formatCount(r.files.length)],
    ],
  );
  const shown = r.files.filter((f) => verbose || f.status !== 'imported');
  const detail = shown.length
    ? `\n\n${renderTable(
        [{ header: 'file', max: 60 }, { header: 'status' }, { header: 'detail' }],
        shown.map((f) => [
          f.name,
          f.status,
          f.status === 'rejected'
            ? (f.error ?? 'rejected')
            : [f.kind, f.tipo, f.uuid].filter(Boolean).join(' ') +
              (f.status === 'duplicate' ? ' (already imported)' : ''),
        ]),
      )}`
    : '';
  const rate = seconds > 0 ? inputs / seconds : 0;
  return (
    `\n${totals}${detail}\n\n` +
    `${r.imported} imported, ${r.duplicates} duplicate, ${r.rejected} rejected into ${r.profile.rfc} ` +
    `(${seconds.toFixed(1)}s, ${rate.toFixed(1)} files/s).\n`
  );
}
