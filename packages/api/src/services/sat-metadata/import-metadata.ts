// POST /api/profiles/{id}/sat-metadata: SAT's metadata files give stored CFDI their status and list
// the CFDI SAT knows that Folio lacks (docs/sat-status.md). It stores no CFDI, so it takes none of
// the plan's CFDI quota; a frozen profile refuses it as it refuses an upload.
import {
  decideStatus,
  type MetadataLine,
  type MetadataRecord,
  parseSatMetadata,
  type SatStatus,
} from '@folio/cfdi';
import type { Tx } from '@folio/db';
import type { ProfileRow } from '@folio/db/queries/profiles';
import { type NewMetadata, statusesByUuids, upsertMetadata } from '@folio/db/queries/sat-status';
import type { Context } from '../../context';
import type { MetadataFileReport, MetadataLineReport, MetadataReport } from '../../schemas/sat-metadata';
import { currentStatus, saveStatusChanges } from '../cfdi/sat-status';
import { authorizeProfile } from '../profiles/access';

export interface MetadataFile {
  name: string;
  content: Uint8Array | string;
  /** Set when the transport already refused the file. */
  error?: string;
  /** Set when the transport left it out on purpose (a ZIP's `_tercero` file). */
  skipped?: string;
}

/** Records per transaction: a metadata file may list a year of CFDI. */
const CHUNK = 1000;

const utf8 = new TextDecoder('utf-8', { fatal: true });
const latin1 = new TextDecoder('latin1');
/** SAT writes UTF-8; a file re-saved by a spreadsheet may be Latin-1. */
const textOf = (c: Uint8Array | string) => {
  if (typeof c === 'string') return c;
  try {
    return utf8.decode(c);
  } catch {
    return latin1.decode(c);
  }
};

/** Reads each file and applies its lines, CHUNK records per transaction, in file order. */
export async function importSatMetadata(
  ctx: Context,
  userId: string,
  profileRef: string,
  files: Iterable<MetadataFile> | AsyncIterable<MetadataFile>,
): Promise<MetadataReport> {
  const profile = await authorizeProfile(ctx, userId, profileRef, 'write');
  const report: MetadataReport = { updated: 0, unchanged: 0, missing_xml: 0, invalid: 0, files: [] };
  for await (const file of files) {
    const out: MetadataFileReport = { name: file.name, lines: [] };
    report.files.push(out);
    if (file.skipped) {
      out.skipped = file.skipped;
      continue;
    }
    if (file.error) {
      out.error = file.error;
      continue;
    }
    const parsed = parseSatMetadata(textOf(file.content));
    if ('error' in parsed) {
      out.error = parsed.error;
      continue;
    }
    for (let i = 0; i < parsed.lines.length; i += CHUNK) {
      const chunk = parsed.lines.slice(i, i + CHUNK);
      const lines = await ctx.db.transaction((tx) => applyChunk(tx, profile, chunk));
      out.lines.push(...lines);
    }
    for (const line of out.lines) report[line.status]++;
  }
  return report;
}

/**
 * One line's record when it may be the profile's: a file carrying both RFCs must name the profile's
 * as issuer or receiver (with one of them, or none, Folio cannot tell and takes the line).
 */
function ownRecord(line: MetadataLine, rfc: string): MetadataRecord | string {
  if ('error' in line) return line.error;
  const r = line.record;
  if (r.rfcEmisor && r.rfcReceptor && r.rfcEmisor !== rfc && r.rfcReceptor !== rfc)
    return `neither RfcEmisor (${r.rfcEmisor}) nor RfcReceptor (${r.rfcReceptor}) is this profile's RFC`;
  return r;
}

/**
 * Applies records in order, as one by one: each against the status the earlier ones left (a file
 * listing a UUID twice). Stored CFDI whose status changed are written once, with their payment
 * state; every record is kept as metadata, a cancellation staying final.
 */
async function applyChunk(tx: Tx, profile: ProfileRow, chunk: MetadataLine[]): Promise<MetadataLineReport[]> {
  const records = chunk.map((l) => ownRecord(l, profile.rfc));
  const uuids = [...new Set(records.flatMap((r) => (typeof r === 'string' ? [] : [r.uuid])))];
  const stored = new Map((await statusesByUuids(tx, profile.id, uuids)).map((s) => [s.uuid, s]));
  const state = new Map<string, SatStatus>([...stored].map(([u, s]) => [u, currentStatus(s)]));
  const metadata = new Map<string, NewMetadata>();
  const at = new Date();
  const lines = chunk.map((line, i): MetadataLineReport => {
    const r = records[i]!;
    if (typeof r === 'string') {
      const uuid = 'error' in line ? line.uuid : line.record.uuid;
      return { line: line.line, ...(uuid ? { uuid } : {}), status: 'invalid', detail: r };
    }
    const earlier = metadata.get(r.uuid);
    metadata.set(r.uuid, metadataRow(profile.id, r, earlier, at));
    const base = { line: line.line, uuid: r.uuid, estatus_sat: r.estatus };
    const current = state.get(r.uuid);
    if (!current) return { ...base, status: 'missing_xml' };
    const decision = decideStatus(current, {
      estatus: r.estatus,
      fuente: 'metadata',
      fechaCancelacion: r.fechaCancelacion,
    });
    if (!decision.change) {
      return decision.reason === 'final'
        ? {
            ...base,
            status: 'unchanged',
            detail: 'SAT already reported it cancelado: a cancellation is final',
          }
        : { ...base, status: 'unchanged' };
    }
    state.set(r.uuid, decision.next);
    return { ...base, status: 'updated' };
  });
  const changes = [...stored.values()].flatMap((row) => {
    const next = state.get(row.uuid)!;
    const before = currentStatus(row);
    return next.estatus === before.estatus &&
      next.fuente === before.fuente &&
      next.fechaCancelacion === before.fechaCancelacion
      ? []
      : [{ id: row.id, before: before.estatus, next }];
  });
  await saveStatusChanges(tx, profile.id, changes, at);
  await upsertMetadata(tx, [...metadata.values()]);
  return lines;
}

/** The metadata row a record leaves, over an earlier record of the same UUID in this chunk. */
function metadataRow(
  profileId: string,
  r: MetadataRecord,
  earlier: NewMetadata | undefined,
  at: Date,
): NewMetadata {
  const cancelled = earlier?.estatus === 'cancelado';
  return {
    profileId,
    uuid: r.uuid,
    rfcEmisor: r.rfcEmisor ?? earlier?.rfcEmisor ?? null,
    nombreEmisor: r.nombreEmisor ?? earlier?.nombreEmisor ?? null,
    rfcReceptor: r.rfcReceptor ?? earlier?.rfcReceptor ?? null,
    nombreReceptor: r.nombreReceptor ?? earlier?.nombreReceptor ?? null,
    fechaEmision: r.fechaEmision ?? earlier?.fechaEmision ?? null,
    monto: r.monto ?? earlier?.monto ?? null,
    efecto: r.efecto ?? earlier?.efecto ?? null,
    estatus: cancelled ? 'cancelado' : r.estatus,
    fechaCancelacion: cancelled ? (earlier?.fechaCancelacion ?? null) : r.fechaCancelacion,
    updatedAt: at,
  };
}

export const metadataMessage = (d: MetadataReport) =>
  `${d.updated} updated, ${d.unchanged} unchanged, ${d.missing_xml} missing XML, ${d.invalid} invalid`;
