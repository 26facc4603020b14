import { randomUUID } from 'node:crypto';
import { getEntitlements } from '@folio/billing';
import {
  applicationsFrom,
  type Cfdi,
  classifyCfdi,
  creditedUuids,
  MAX_CFDI_BYTES,
  parseCfdi,
  tipoOf,
  validateCfdi,
  XML_TOO_LARGE,
} from '@folio/cfdi';
import {
  cfdiIdByUuid,
  insertApplications,
  insertCfdi,
  insertRelations,
  uuidInOtherProfile,
} from '@folio/db/queries/cfdis';
import type { ProfileRow } from '@folio/db/queries/profiles';
import type { Context } from '../../context';
import { AppError, badRequest } from '../../errors';
import type { FileReport, ImportReport } from '../../schemas/import-report';
import { authorizeProfile } from '../profiles/access';
import { monthlyQuotaLeft, quotaExceeded, takeMonthlyQuota } from '../quota';
import { refreshPaymentState } from './payment-state';
import { applicationDetailOf, cfdiRecord } from './record';

export interface ImportFile {
  name: string;
  content: Uint8Array | string;
  /** Set when the transport already refused the file (e.g. a ZIP entry over the size limit). */
  error?: string;
}

const byteLength = (c: Uint8Array | string) => (typeof c === 'string' ? Buffer.byteLength(c) : c.byteLength);
const kindOf = (side: 'income' | 'expense') => (side === 'income' ? 'invoice' : 'expense');

/**
 * Files each CFDI for the profile, every file in its own transaction so a bad one never leaves partial
 * rows nor stops the rest. `single`: the request carried one XML, so a refusal is the answer itself
 * (400, or 429 past the monthly quota) instead of a line in the report.
 */
export async function importCfdiFiles(
  ctx: Context,
  userId: string,
  profileId: string,
  files: Iterable<ImportFile> | AsyncIterable<ImportFile>,
  opts: { single?: boolean } = {},
): Promise<ImportReport> {
  const profile = await authorizeProfile(ctx, userId, profileId, 'write');
  const { limits } = await getEntitlements(ctx.db, userId);
  const limit = limits.invoicesPerMonth;
  // Read once before the work: files past the quota are refused without parsing or a transaction.
  let left = await monthlyQuotaLeft(ctx, userId, QUOTA_KIND, limit);
  const report: ImportReport = { imported: 0, duplicates: 0, rejected: 0, files: [] };
  for await (const file of files) {
    // Parsing and filing are CPU work on the one thread every request shares: let them in between.
    await yieldToEventLoop();
    const line =
      left > 0
        ? await importOne(ctx, profile, limit, file).catch((err: unknown) => {
            if (opts.single || !(err instanceof AppError) || err.code !== 'TOO_MANY_REQUESTS') throw err;
            left = 0; // a concurrent import took the rest
            return overQuotaLine(file, err.message);
          })
        : overQuota(file, limit!, opts.single);
    if (opts.single && line.status === 'rejected')
      throw badRequest(line.error ?? 'CFDI rechazado', 'cfdi_rejected');
    report.files.push(line);
    if (line.status === 'imported') {
      report.imported++;
      left--;
    } else if (line.status === 'duplicate') report.duplicates++;
    else report.rejected++;
  }
  return report;
}

const QUOTA_KIND = 'cfdi_import';
const QUOTA_WHAT = 'CFDI import';
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

function overQuota(file: ImportFile, limit: number, single?: boolean): FileReport {
  const err = quotaExceeded(QUOTA_WHAT, limit);
  if (single) throw err;
  return overQuotaLine(file, err.message);
}

const overQuotaLine = (file: ImportFile, error: string): FileReport => ({
  name: file.name,
  status: 'rejected',
  error,
  code: 'quota_exceeded',
});

async function importOne(
  ctx: Context,
  profile: ProfileRow,
  monthlyLimit: number | null,
  file: ImportFile,
): Promise<FileReport> {
  const { name } = file;
  if (file.error) return { name, status: 'rejected', error: file.error };
  if (byteLength(file.content) > MAX_CFDI_BYTES) return { name, status: 'rejected', error: XML_TOO_LARGE };
  const parsed = parseCfdi(file.content);
  if (!parsed.ok) return { name, status: 'rejected', error: parsed.reason };
  const cfdi = parsed.cfdi;
  const side = classifyCfdi(cfdi, profile.rfc);
  if ('error' in side) return { name, status: 'rejected', uuid: cfdi.uuid, error: side.error };
  const described = { name, kind: kindOf(side.side), tipo: tipoOf(cfdi), uuid: cfdi.uuid } as const;

  return ctx.db.transaction(async (tx) => {
    const flags = profile.validacionesHabilitadas;
    const elsewhere =
      flags.validarUUIDDuplicado && (await uuidInOtherProfile(tx, profile.userId, profile.id, cfdi.uuid));
    const validacion = validateCfdi(
      cfdi,
      { rfc: profile.rfc, regimenesFiscales: profile.regimenesFiscales, flags },
      { side: side.side, duplicateUuid: elsewhere },
    );
    validacion.advertencias.push(...side.warnings.filter((w) => !validacion.advertencias.includes(w)));
    const row = await insertCfdi(
      tx,
      cfdiRecord(cfdi, { profileId: profile.id, userId: profile.userId }, side.side, validacion),
      xmlText(file.content),
    );
    // The profile already holds this UUID (the unique index decides, also against a concurrent import).
    if (!row)
      return { ...described, status: 'duplicate', id: (await cfdiIdByUuid(tx, profile.id, cfdi.uuid))! };
    await storeRelations(tx, profile.id, row.id, cfdi);
    if (cfdi.tipoDeComprobante === 'P') {
      await refreshPaymentState(tx, profile.id, await storeApplications(tx, profile.id, row.id, cfdi));
    } else if (cfdi.tipoDeComprobante === 'E') {
      await refreshPaymentState(tx, profile.id, creditedUuids(cfdi));
    } else {
      await refreshPaymentState(tx, profile.id, [cfdi.uuid], row);
    }
    // Only stored files count; past the quota this throws and everything rolls back with it. Last,
    // because it locks the user's counter row until commit: taken first, every other import of the
    // user waited for this whole transaction, holding a pooled connection while it waited.
    await takeMonthlyQuota(ctx, profile.userId, QUOTA_KIND, monthlyLimit, QUOTA_WHAT, tx);
    return { ...described, status: 'imported', id: row.id };
  });
}

/** Stores a complement's payment applications; returns the invoices they pay. */
async function storeApplications(
  tx: Parameters<typeof insertApplications>[0],
  profileId: string,
  repCfdiId: string,
  cfdi: Cfdi,
) {
  const applications = applicationsFrom(cfdi);
  await insertApplications(
    tx,
    applications.map((a) => ({
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
    })),
  );
  return applications.map((a) => a.relatedUuid);
}

/** Keeps the CfdiRelacionados, so a credit note finds its invoice in either import order. */
function storeRelations(
  tx: Parameters<typeof insertRelations>[0],
  profileId: string,
  cfdiId: string,
  cfdi: Cfdi,
) {
  return insertRelations(
    tx,
    cfdi.relacionados.flatMap((r) =>
      r.uuids.map((relatedUuid) => ({ cfdiId, profileId, tipoRelacion: r.tipoRelacion, relatedUuid })),
    ),
  );
}

const decoder = new TextDecoder('utf-8');
// A NUL can only be in the junk the parser ignores around the document (some tools pad files with
// them); PostgreSQL text cannot store it, so it is dropped from the stored copy.
const xmlText = (c: Uint8Array | string) =>
  (typeof c === 'string' ? c : decoder.decode(c)).replaceAll('\0', '');
