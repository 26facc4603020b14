import { randomUUID } from 'node:crypto';
import { getEntitlements } from '@folio/billing';
import {
  applicationsFrom,
  type Cfdi,
  type ClassifyResult,
  classifyCfdi,
  creditedUuids,
  parseCfdi,
  type RejectionCode,
  tipoOf,
  validateCfdi,
} from '@folio/cfdi';
import { isDatabaseUnavailable, type Tx } from '@folio/db';
import {
  cfdiIdsByUuids,
  deleteCfdis,
  insertApplications,
  insertCfdiXml,
  insertNewCfdis,
  insertRelations,
  type NewApplication,
  type NewCfdi,
  uuidsInOtherProfiles,
} from '@folio/db/queries/cfdis';
import type { ProfileRow } from '@folio/db/queries/profiles';
import type { Context } from '../../context';
import { badRequest } from '../../errors';
import type { FileReport, ImportReport } from '../../schemas/import-report';
import { authorizeProfile } from '../profiles/access';
import { batchQuota, monthlyQuotaLeft, quotaExceeded } from '../quota';
import { CFDI_IMPORTED_MAX_IDS, emit } from '../webhooks/events';
import { refreshPaymentState, withUnpaidState } from './payment-state';
import { applicationDetailOf, cfdiRecord } from './record';
import { settleImportedStatus } from './sat-status';

export interface ImportFile {
  name: string;
  content: Uint8Array | string;
  /** Set when the transport already refused the file (e.g. a ZIP entry over the size limit). */
  error?: string;
  /** Why, for programs (with `error`). */
  code?: RejectionCode;
}

/**
 * Files per write. Each batch is one transaction of a few multi-row statements instead of one
 * transaction and a dozen round trips per file. PGlite runs on the request thread and takes one
 * transaction at a time, so every other request waits for a batch: 50 files keep that wait short.
 * PostgreSQL holds only this import's connection meanwhile: 200 files pay the statements a quarter
 * as often.
 */
const batchSize = (ctx: Context) => (ctx.dbKind === 'pglite' ? 50 : 200);
const QUOTA_KIND = 'cfdi_import';
const QUOTA_WHAT = 'CFDI import';

/** An import in progress: `left` is what the monthly quota still allows, as far as this import knows. */
interface Importer {
  ctx: Context;
  profile: ProfileRow;
  limit: number | null;
  left: number;
}

/** A file read and classified, waiting for its batch; `line` when it was settled without the database. */
type Pending =
  | { file: ImportFile; line: FileReport }
  | {
      file: ImportFile;
      line?: undefined;
      cfdi: Cfdi;
      classified: Exclude<ClassifyResult, { error: string }>;
    };
type ToStore = Extract<Pending, { cfdi: Cfdi }>;

const kindOf = (side: 'income' | 'expense') =>
  (side === 'income' ? 'invoice' : 'expense') as 'invoice' | 'expense';
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Files each CFDI for the profile. Files are read, parsed and classified outside the database, then
 * written in batches, each in one transaction: a kill leaves whole batches or nothing, and every
 * file still gets its own line, as if imported one by one (a bad file never stops the rest; past
 * the monthly quota every later file is refused for it). `single`: the request carried one XML, so
 * a refusal is the answer itself (400, or 429 past the monthly quota) instead of a line.
 */
export async function importCfdiFiles(
  ctx: Context,
  userId: string,
  profileId: string,
  files: Iterable<ImportFile> | AsyncIterable<ImportFile>,
  opts: { single?: boolean } = {},
): Promise<ImportReport> {
  return (await openImport(ctx, userId, profileId)).run(files, opts);
}

/** An import the caller may make, ready for its files: `run` is `importCfdiFiles` without the checks. */
export interface OpenImport {
  run(
    files: Iterable<ImportFile> | AsyncIterable<ImportFile>,
    opts?: { single?: boolean },
  ): Promise<ImportReport>;
}

/**
 * The checks of an import that need no file: the profile is the user's and writable, and the plan's
 * quota is read. An upload route opens the import before it reads its body, so a body sent to a
 * profile that is not the caller's is refused unread.
 */
export async function openImport(ctx: Context, userId: string, profileId: string): Promise<OpenImport> {
  const profile = await authorizeProfile(ctx, userId, profileId, 'write');
  const { limits } = await getEntitlements(ctx.db, userId);
  // Read once before the work: files past the quota are refused without parsing or a transaction.
  const importer: Importer = {
    ctx,
    profile,
    limit: limits.invoicesPerMonth,
    left: await monthlyQuotaLeft(ctx, userId, QUOTA_KIND, limits.invoicesPerMonth),
  };
  return { run: (files, opts = {}) => runImport(importer, files, opts) };
}

async function runImport(
  importer: Importer,
  files: Iterable<ImportFile> | AsyncIterable<ImportFile>,
  opts: { single?: boolean },
): Promise<ImportReport> {
  const { ctx, profile, limit } = importer;
  const report: ImportReport = { imported: 0, duplicates: 0, rejected: 0, files: [] };
  const add = (line: FileReport) => {
    if (opts.single && line.status === 'rejected') {
      throw line.code === 'quota_exceeded'
        ? quotaExceeded(QUOTA_WHAT, limit!)
        : badRequest(line.error ?? 'CFDI rechazado', 'cfdi_rejected');
    }
    report.files.push(line);
    if (line.status === 'imported') report.imported++;
    else if (line.status === 'duplicate') report.duplicates++;
    else report.rejected++;
  };
  const size = batchSize(ctx);
  let batch: Pending[] = [];
  let toStore = 0;
  // The batch being written. Without a quota to respect, the next one is read and parsed meanwhile,
  // so this server's CPU and the database's overlap; batches still commit one after the other, in
  // order. With a quota each waits for the last, whose count decides what the next may take.
  let writing: Promise<void> | undefined;
  const flush = async () => {
    const items = batch;
    batch = [];
    toStore = 0;
    await writing;
    writing = undefined;
    if (!items.length) return;
    const written = writeBatch(importer, items).then((lines) => {
      for (const line of lines) add(line);
    });
    if (limit !== null) return written;
    // Awaited at the next flush; until then a failure must not count as unhandled.
    written.catch(() => {});
    writing = written;
  };
  try {
    for await (const file of files) {
      // Parsing is CPU work on the one thread every request shares: let the others in between.
      await yieldToEventLoop();
      // Only right after a flush (the batch is empty), so the lines stay in file order.
      if (importer.left <= 0) {
        add(overQuotaLine(file, limit));
        continue;
      }
      const item = readFile(file, profile);
      batch.push(item);
      if (!item.line) toStore++;
      // A batch never holds more files to store than the quota may take: the rest are not parsed.
      if (batch.length >= size || toStore >= importer.left) await flush();
    }
  } catch (err) {
    // Whatever failed, the batch in flight ends (committed or not) before the answer says so.
    await writing?.catch(() => {});
    throw err;
  }
  await flush();
  await writing;
  return report;
}

const overQuotaLine = (file: ImportFile, limit: number | null): FileReport => ({
  name: file.name,
  status: 'rejected',
  error: quotaExceeded(QUOTA_WHAT, limit!).message,
  code: 'quota_exceeded',
});

/** Everything about a file that needs no database: size and XML (parseCfdi), CFDI, and whether it is the profile's. */
function readFile(file: ImportFile, profile: ProfileRow): Pending {
  const { name } = file;
  const rejected = (error: string, code: RejectionCode, uuid?: string): Pending => ({
    file,
    line: { name, status: 'rejected', ...(uuid ? { uuid } : {}), error, code },
  });
  if (file.error) return rejected(file.error, file.code ?? 'file_type_unsupported');
  const parsed = parseCfdi(file.content);
  if (!parsed.ok) return rejected(parsed.reason, parsed.code);
  const classified = classifyCfdi(parsed.cfdi, profile.rfc);
  if ('error' in classified) return rejected(classified.error, 'rfc_not_party', parsed.cfdi.uuid);
  return { file, cfdi: parsed.cfdi, classified };
}

/**
 * Writes a batch; a database error other than an outage (a constraint the checks did not foresee, a
 * deadlock with a concurrent import) retries it file by file, so the report still says which file.
 */
async function writeBatch(importer: Importer, items: Pending[]): Promise<FileReport[]> {
  try {
    return await storeBatch(importer, items);
  } catch (err) {
    if (items.length === 1 || isDatabaseUnavailable(err)) throw err;
    // Expected to be rare (a race, a file the checks let through): said, as it costs a transaction a file.
    importer.ctx.log.warn({ err, files: items.length }, 'import batch failed; storing its files one by one');
    const lines: FileReport[] = [];
    for (const item of items) lines.push(...(await storeBatch(importer, [item])));
    return lines;
  }
}

/**
 * One transaction: the batch's new CFDI in one multi-row insert (the unique index names the
 * duplicates), the quota counter locked (a limited plan), then their XML, relations and payment
 * applications, the payment state of every invoice they touch, and the quota taken once for what
 * was stored.
 */
async function storeBatch(importer: Importer, items: Pending[]): Promise<FileReport[]> {
  const toStore = items.filter((i): i is ToStore => !i.line);
  if (!toStore.length) return settle(importer, items, new Map(), new Map(), 0).lines;
  const { ctx, profile } = importer;
  const { lines, left } = await ctx.db.transaction(async (tx) => {
    const uuids = [...new Set(toStore.map((i) => i.cfdi.uuid))];
    const rows = await recordsOf(tx, profile, toStore);
    const stored = await insertNewCfdis(
      tx,
      [...rows.values()].map((r) => r.row),
    );
    const fresh = new Set(stored.map((s) => s.uuid));
    const existing = await cfdiIdsByUuids(
      tx,
      profile.id,
      uuids.filter((u) => !fresh.has(u)),
    );
    const ids = new Map([...existing, ...stored.map((s) => [s.uuid, s.id] as const)]);
    const quota = batchQuota(ctx, tx, profile.userId, QUOTA_KIND, importer.limit);
    const settled = settle(importer, items, rows, ids, stored.length ? await quota.free() : 0);
    const kept = settled.kept.map((item) => ({ item, id: ids.get(item.cfdi.uuid)! }));
    const keptIds = new Set(kept.map((k) => k.id));
    // Stored but past the quota (a concurrent import took it): taken back before anything refers to them.
    await deleteCfdis(
      tx,
      stored.filter((s) => !keptIds.has(s.id)).map((s) => s.id),
    );
    await insertCfdiXml(
      tx,
      kept.map((k) => ({ cfdiId: k.id, xml: xmlText(k.item.file.content) })),
    );
    await insertRelations(
      tx,
      kept.flatMap((k) => relationsOf(profile.id, k.id, k.item.cfdi)),
    );
    const applications = kept.flatMap((k) => applicationsOf(profile.id, k.id, k.item.cfdi));
    await insertApplications(tx, applications);
    // SAT's metadata and substitutions (04) may already say some are cancelled: before payments count.
    await settleImportedStatus(
      tx,
      profile.id,
      kept.map((k) => k.item.cfdi.uuid),
    );
    // Whichever arrived first: an invoice, the complements paying it, the credit notes lowering it.
    const touched = kept.flatMap(({ item: { cfdi } }) =>
      cfdi.tipoDeComprobante === 'P'
        ? []
        : cfdi.tipoDeComprobante === 'E'
          ? creditedUuids(cfdi)
          : [cfdi.uuid],
    );
    await refreshPaymentState(tx, profile.id, [...touched, ...applications.map((a) => a.relatedUuid)]);
    await emitImported(tx, profile, settled.lines);
    // Last: the counter's row stays locked until commit, and every import of the user waits for it
    // (an unlimited plan's too, which `free` does not lock): taken early, it was held over a dozen
    // round trips, and under load imports queued on it holding pool connections the reads needed.
    if (stored.length) await quota.take(kept.length);
    return settled;
  });
  importer.left = left;
  return lines;
}

/** The batch's `cfdi.imported` event, when it stored something (a batch is what one transaction commits). */
async function emitImported(tx: Tx, profile: ProfileRow, lines: FileReport[]): Promise<void> {
  const ids = lines.flatMap((l) => (l.status === 'imported' && l.id ? [l.id] : []));
  if (!ids.length) return;
  const tally = (status: FileReport['status']) => lines.filter((l) => l.status === status).length;
  await emit(tx, { userId: profile.userId }, 'cfdi.imported', [
    {
      profile_id: profile.id,
      imported: ids.length,
      duplicates: tally('duplicate'),
      rejected: tally('rejected'),
      ids: ids.slice(0, CFDI_IMPORTED_MAX_IDS),
      count: ids.length,
      updated_at: new Date().toISOString(),
    },
  ]);
}

/** The row of each UUID's first file in the batch (a later one is its duplicate), validated. */
async function recordsOf(tx: Tx, profile: ProfileRow, toStore: ToStore[]) {
  const flags = profile.validacionesHabilitadas;
  const elsewhere = flags.validarUUIDDuplicado
    ? await uuidsInOtherProfiles(
        tx,
        profile.userId,
        profile.id,
        toStore.map((i) => i.cfdi.uuid),
      )
    : new Set<string>();
  const rows = new Map<string, { item: ToStore; row: NewCfdi }>();
  for (const item of toStore) {
    const { cfdi, classified } = item;
    if (rows.has(cfdi.uuid)) continue;
    const validacion = validateCfdi(
      cfdi,
      { rfc: profile.rfc, regimenesFiscales: profile.regimenesFiscales, flags },
      { side: classified.side, duplicateUuid: elsewhere.has(cfdi.uuid) },
    );
    validacion.advertencias.push(...classified.warnings.filter((w) => !validacion.advertencias.includes(w)));
    const ids = { profileId: profile.id, userId: profile.userId };
    rows.set(cfdi.uuid, { item, row: withUnpaidState(cfdiRecord(cfdi, ids, classified.side, validacion)) });
  }
  return rows;
}

/**
 * Each file's line, in order, as importing them one by one gives: a UUID's first file is imported
 * when the insert stored it and the quota has room (`free`), later ones are its duplicates; once
 * the quota is used up, every later file is refused for it. Returns the files to keep and the
 * quota this import has left.
 */
function settle(
  importer: Importer,
  items: Pending[],
  rows: Map<string, { item: ToStore; row: NewCfdi }>,
  ids: Map<string, string>,
  free: number,
) {
  let left = importer.left;
  const kept: ToStore[] = [];
  const lines = items.map((item): FileReport => {
    if (left <= 0) return overQuotaLine(item.file, importer.limit);
    if (item.line) return item.line;
    const { cfdi, classified } = item;
    const described = {
      name: item.file.name,
      kind: kindOf(classified.side),
      tipo: tipoOf(cfdi),
      uuid: cfdi.uuid,
    };
    const first = rows.get(cfdi.uuid)!;
    if (first.item !== item || ids.get(cfdi.uuid) !== first.row.id) {
      return { ...described, status: 'duplicate', id: ids.get(cfdi.uuid)! };
    }
    if (free <= 0) {
      left = 0;
      return overQuotaLine(item.file, importer.limit);
    }
    free--;
    left--;
    kept.push(item);
    return { ...described, status: 'imported', id: first.row.id };
  });
  return { lines, kept, left };
}

/** A complement's payment applications, one per paid invoice. */
function applicationsOf(profileId: string, repCfdiId: string, cfdi: Cfdi): NewApplication[] {
  if (cfdi.tipoDeComprobante !== 'P') return [];
  return applicationsFrom(cfdi).map((a) => ({
    id: randomUUID(),
    profileId,
    repCfdiId,
    repUuid: cfdi.uuid,
    relatedUuid: a.relatedUuid,
    numParcialidad: a.numParcialidad,
    fechaPago: a.fechaPago,
    formaPago: a.formaPago,
    monedaP: a.monedaP,
    monto: a.monto ?? null,
    numOperacion: a.numOperacion ?? null,
    monedaDr: a.monedaDR,
    impSaldoAnt: a.impSaldoAnt,
    impPagado: a.impPagado,
    impSaldoInsoluto: a.impSaldoInsoluto,
    ...applicationDetailOf(a),
  }));
}

/** The CfdiRelacionados, kept so a credit note finds its invoice in either import order. */
const relationsOf = (profileId: string, cfdiId: string, cfdi: Cfdi) =>
  cfdi.relacionados.flatMap((r) =>
    r.uuids.map((relatedUuid) => ({ cfdiId, profileId, tipoRelacion: r.tipoRelacion, relatedUuid })),
  );

const decoder = new TextDecoder('utf-8');
// A NUL can only be in the junk the parser ignores around the document (some tools pad files with
// them); PostgreSQL text cannot store it, so it is dropped from the stored copy.
const xmlText = (c: Uint8Array | string) =>
  (typeof c === 'string' ? c : decoder.decode(c)).replaceAll('\0', '');
