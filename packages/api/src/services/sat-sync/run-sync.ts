import { randomUUID } from 'node:crypto';
import { markEfirmaRefused } from '@folio/db/queries/efirmas';
import { statusesByUuids } from '@folio/db/queries/sat-status';
import {
  addSyncCounters,
  countMissingXml,
  dropUnstoredPackages,
  findSyncJob,
  insertSyncRequests,
  liveRequestIdFor,
  markPackageImported,
  type NewSyncRequest,
  ownerEmailOf,
  packagesOf,
  profileRfcOf,
  registerPackages,
  requestsOfJob,
  type SyncJobRow,
  type SyncRequestRow,
  setSyncJob,
  setSyncRequest,
  storePackage,
  unknownStatusCfdis,
} from '@folio/db/queries/sat-sync';
import { enqueueEmail, renderEfirmaRefusedEmail } from '@folio/email';
import type { SatGateway } from '@folio/sat';
import {
  type Content,
  type Direction,
  type DownloadAnswer,
  halvesOf,
  plannedRequests,
  type SyncContenido,
  type SyncTipo,
  satPollDelaySeconds,
} from '@folio/sat/plain';
import { type Context, createContext, type Deps } from '../../context';
import { AppError } from '../../errors';
import { importCfdiFiles } from '../cfdi/import';
import { applyStatusWords } from '../cfdi/sat-status';
import type { JobQueue } from '../jobs/queue';
import { stableJobId } from '../jobs/sql-adapters';
import { importSatMetadata } from '../sat-metadata/import-metadata';
import { enqueueMissingCfdi } from './daily-sync';
import { endSyncJob } from './end-sync-job';
import { openSatSession } from './session';
import { satSettingsOf } from './settings';
import type { SyncJobs } from './sync-job-names';
import { secondsToNextMexicoDay } from './sync-period';

// One sync job's work (integrations.md §1, docs/sat-sync.md#sync-jobs), step by step, each step's
// outcome written before the next: a request's SAT id with SAT's 5000, a package's bytes before
// its import, the import's counts with the package's `imported` flag. A repeated step (the queue
// runs jobs at least once; a restart resumes) finds its work recorded and does not do it again.

export interface SyncTiming {
  /** Seconds before verification n (0 = the first after the request): 1 minute doubling to 1 hour. */
  pollDelaySeconds(n: number): number;
  /** Queue retries of a step SAT failed transiently (SatUnavailable, 404, 5006), with back-off. */
  retryLimit: number;
  retryDelaySeconds: number;
  /** Pause between two status-service calls. */
  statusIntervalMs: number;
  /** The clock (the daily schedule's dates, SAT's daily limit). */
  now(): Date;
}

export const DEFAULT_SYNC_TIMING: SyncTiming = {
  pollDelaySeconds: satPollDelaySeconds,
  retryLimit: 8,
  retryDelaySeconds: 60,
  statusIntervalMs: 200,
  now: () => new Date(),
};

/** A request that reached one of these states needs nothing more. */
const SETTLED = new Set(['importada', 'vacia', 'dividida', 'error']);
/** Requests a job may add by halving before it is refused as a runaway. */
const MAX_REQUESTS = 64;

/** A failure that ends the job as `error` (not retried by the queue). */
class SyncFailed extends Error {}

/** A request SAT has not finished after this long is asked again. */
const REREQUEST_AFTER_MS = 96 * 3600_000;

const TRANSIENT_CODES = new Set([404, 5006]);
const EFIRMA_REFUSED = new Set([304, 305]);

function planRequests(job: SyncJobRow): NewSyncRequest[] {
  return plannedRequests(job.tipo as SyncTipo, job.contenido as SyncContenido).map((planned) => ({
    id: randomUUID(),
    jobId: job.id,
    ...planned,
    desde: job.desde,
    hasta: job.hasta,
  }));
}

const jobContext = (deps: Deps, jobId: string): Context =>
  createContext(deps, {
    requestId: `sat-sync-${jobId}`,
    token: null,
    tokenSource: null,
    method: null,
    origin: null,
    ip: null,
    idempotencyKey: null,
    resHeaders: new Headers(),
  });

/** Runs what can run now of one job; when SAT asks it to wait, enqueues its next step for later. */
export async function runSyncStep(
  deps: Deps,
  payload: SyncJobs['sat.sync'],
  queue: JobQueue<SyncJobs>,
  timingIn: Partial<SyncTiming> = {},
): Promise<void> {
  const timing = { ...DEFAULT_SYNC_TIMING, ...timingIn };
  const job = await findSyncJob(deps.db, payload.jobId);
  if (!job || job.estado === 'terminada' || job.estado === 'error') return;
  const run = new JobRun(jobContext(deps, job.id), job, timing);
  try {
    if (job.estado === 'pendiente') {
      // The daily CFDI follow-up comes with its requests planned, day by day (daily-sync.ts).
      if (!(await requestsOfJob(deps.db, job.id)).length)
        await insertSyncRequests(deps.db, planRequests(job));
      await run.setEstado('solicitada');
    }
    const wait = await run.advanceAll();
    if (wait !== undefined) {
      const step = (payload.step ?? 0) + 1;
      await queue.enqueue(
        'sat.sync',
        { jobId: job.id, step },
        // Seconds, fractions and 0 (due now) included: pg-boss casts them to an interval.
        { id: stableJobId('sat.sync', job.id, String(step)), startAfter: Math.max(0, wait) },
      );
      return;
    }
    const requests = await requestsOfJob(deps.db, job.id);
    const failed = requests.find((r) => r.estado === 'error');
    if (failed) throw new SyncFailed(failed.mensaje ?? 'SAT refused a request');
    if (!job.statusCheckedAt) await run.checkUnknownStatuses();
    await run.countMissing();
    await endSyncJob(deps.db, job);
    await enqueueMissingCfdi(deps, queue, job);
  } catch (err) {
    if (err instanceof SyncFailed) {
      await endSyncJob(deps.db, job, err.message);
      return;
    }
    throw err;
  }
}

const ORDER = ['pendiente', 'solicitada', 'en_proceso', 'descargando', 'importando', 'terminada'];

class JobRun {
  private gateway?: SatGateway;
  private estado: string;

  constructor(
    private readonly ctx: Context,
    private readonly job: SyncJobRow,
    private readonly timing: SyncTiming,
  ) {
    this.estado = job.estado;
  }

  /** Moves the job's estado forward (never back: a request re-asked does not undo the others'). */
  async setEstado(estado: string) {
    if (ORDER.indexOf(estado) <= ORDER.indexOf(this.estado)) return;
    this.estado = estado;
    await setSyncJob(this.ctx.db, this.job.id, { estado });
  }

  private async sat(): Promise<SatGateway> {
    if (this.gateway) return this.gateway;
    const gw = await openSatSession(this.ctx, this.job.profileId, `sat-sync ${this.job.id}`);
    if (!gw)
      throw new SyncFailed('The profile has no stored e.firma (it was deleted after the job was created)');
    this.gateway = gw;
    return gw;
  }

  /** Advances every unsettled request; undefined when all settled, else the seconds to wait. */
  async advanceAll(): Promise<number | undefined> {
    for (;;) {
      const all = await requestsOfJob(this.ctx.db, this.job.id);
      if (all.length > MAX_REQUESTS) throw new SyncFailed('SAT kept asking to split the period (5003)');
      const open = all.filter((r) => !SETTLED.has(r.estado));
      if (!open.length) return undefined;
      let wait: number | undefined;
      let split = false;
      for (const r of open) {
        const out = await this.advance(r);
        if (out === 'split') split = true;
        else if (out !== undefined) wait = Math.min(wait ?? out, out);
      }
      if (wait !== undefined) return wait;
      if (!split) return undefined;
    }
  }

  /** One request as far as it goes now: undefined when settled, 'split' when halved, else seconds to wait. */
  private async advance(r: SyncRequestRow): Promise<number | 'split' | undefined> {
    const db = this.ctx.db;
    for (;;) {
      if (r.estado === 'pendiente') {
        const gw = await this.sat();
        const a = await gw.query({
          direction: r.direction as Direction,
          content: r.content as Content,
          desde: r.desde,
          hasta: r.hasta,
          shiftStartSeconds: r.shiftSeconds,
        });
        const said = { codigo: a.code, mensaje: a.message, attempts: r.attempts + 1 };
        if (a.code === 5000 && a.requestId) {
          // The id is written with SAT's answer: a repeated step verifies it instead of asking again.
          r = {
            ...r,
            ...said,
            satRequestId: a.requestId,
            requestedAt: this.timing.now(),
            estado: 'solicitada',
            polls: 0,
          };
          await setSyncRequest(db, r.id, r);
          await this.setEstado('solicitada');
          return this.timing.pollDelaySeconds(0);
        }
        if (a.code === 5005) {
          const live = await liveRequestIdFor(db, this.job.profileId, r);
          r = live
            ? {
                ...r,
                ...said,
                satRequestId: live,
                requestedAt: this.timing.now(),
                estado: 'solicitada',
                polls: 0,
              }
            : { ...r, ...said, shiftSeconds: r.shiftSeconds + 1 };
          await setSyncRequest(db, r.id, r);
          continue;
        }
        if (a.code === 5002) {
          r = { ...r, ...said, shiftSeconds: r.shiftSeconds + 1 };
          await setSyncRequest(db, r.id, r);
          continue;
        }
        if (a.code === 5003) return this.split(r, said);
        if (a.code === 5004) {
          await setSyncRequest(db, r.id, { ...said, estado: 'vacia' });
          return undefined;
        }
        if (a.code === 5011) return this.untilTomorrow(r, said);
        await this.refusal(r, a.code, a.message, said);
        continue; // refusal() threw
      }
      if (r.estado === 'solicitada' || r.estado === 'en_proceso') {
        const v = await (await this.sat()).verify(r.satRequestId as string);
        const said = { codigo: v.codigoEstado || v.code, mensaje: v.message };
        if (v.code === 5011 || v.codigoEstado === 5011)
          return this.untilTomorrow(r, { codigo: 5011, mensaje: v.message });
        if (v.code !== 5000) await this.refusal(r, v.code, v.message, {});
        const stale =
          r.requestedAt !== null &&
          this.timing.now().getTime() - r.requestedAt.getTime() > REREQUEST_AFTER_MS;
        if ((v.estado === 1 || v.estado === 2) && stale) {
          // SAT has sat on it for four days: ask again (integrations.md §1).
          r = { ...r, ...said, estado: 'pendiente', satRequestId: null, requestedAt: null, polls: 0 };
          await setSyncRequest(db, r.id, r);
          continue;
        }
        if (v.estado === 1 || v.estado === 2) {
          r = { ...r, ...said, estado: 'en_proceso', polls: r.polls + 1 };
          await setSyncRequest(db, r.id, r);
          await this.setEstado('en_proceso');
          return this.timing.pollDelaySeconds(r.polls);
        }
        if (v.estado === 3) {
          await registerPackages(db, r.id, v.packageIds);
          r = { ...r, ...said, estado: 'descargando' };
          await setSyncRequest(db, r.id, r);
          continue;
        }
        if (v.estado === 5) {
          if (v.codigoEstado === 5004) {
            await setSyncRequest(db, r.id, { ...said, estado: 'vacia' });
            return undefined;
          }
          if (v.codigoEstado === 5003) return this.split(r, said);
          await setSyncRequest(db, r.id, { ...said, estado: 'error' });
          return undefined;
        }
        if (v.estado === 4 && r.attempts >= 2) {
          await setSyncRequest(db, r.id, {
            ...said,
            estado: 'error',
            mensaje: `SAT failed the request twice: ${v.message}`,
          });
          return undefined;
        }
        // 4 (error, the first time) and 6 (expired): ask SAT again.
        r = { ...r, ...said, estado: 'pendiente', satRequestId: null, polls: 0 };
        await setSyncRequest(db, r.id, r);
        continue;
      }
      if (r.estado === 'descargando') {
        const refused = await this.download(r);
        if (refused) {
          // A package SAT no longer gives (expired 5007, downloaded twice 5008): SAT is asked again.
          // The packages stored stay and are imported with the new request's; the others are dead.
          r = {
            ...r,
            codigo: refused.code,
            mensaje: refused.message,
            estado: 'pendiente',
            satRequestId: null,
            polls: 0,
          };
          await db.transaction(async (tx) => {
            await dropUnstoredPackages(tx, r.id);
            await setSyncRequest(tx, r.id, r);
          });
          continue;
        }
        await this.importPackages(r);
        await setSyncRequest(db, r.id, { estado: 'importada' });
        return undefined;
      }
      return undefined;
    }
  }

  /** Stores every package not stored yet; SAT's answer when it refused one. */
  private async download(r: SyncRequestRow): Promise<DownloadAnswer | undefined> {
    await this.setEstado('descargando');
    for (const p of await packagesOf(this.ctx.db, r.id)) {
      if (p.imported || p.zip !== null) continue;
      const d = await (await this.sat()).download(p.packageId);
      if (d.code !== 5000) {
        if (TRANSIENT_CODES.has(d.code)) throw new Error(`SAT download answered ${d.code}: ${d.message}`);
        if (EFIRMA_REFUSED.has(d.code)) await this.refusal(r, d.code, d.message, {});
        return d;
      }
      await storePackage(this.ctx.db, r.id, p.packageId, d.zip.toString('base64'));
    }
    return undefined;
  }

  /** Imports each stored package through the one import path; its counts land with its `imported` flag. */
  private async importPackages(r: SyncRequestRow): Promise<void> {
    await this.setEstado('importando');
    const { ctx, job } = this;
    const { cfdiFilesOf, metadataFilesOf } = await import('@folio/sat');
    for (const p of await packagesOf(ctx.db, r.id)) {
      if (p.imported || p.zip === null) continue;
      const zip = Buffer.from(p.zip, 'base64');
      let counts: Parameters<typeof addSyncCounters>[2];
      try {
        if (r.content === 'cfdi') {
          const report = await importCfdiFiles(ctx, job.userId, job.profileId, cfdiFilesOf(zip));
          const overQuota = report.files.filter((f) => f.code === 'quota_exceeded').length;
          counts = {
            cfdiImportados: report.imported,
            cfdiDuplicados: report.duplicates,
            cfdiRechazados: report.rejected - overQuota,
            cfdiFueraDeCuota: overQuota,
          };
        } else {
          const report = await importSatMetadata(ctx, job.userId, job.profileId, metadataFilesOf(zip));
          const lines = report.files.flatMap((f) => f.lines);
          counts = {
            metadataVigentes: lines.filter((l) => l.estatus_sat === 'vigente').length,
            metadataCancelados: lines.filter((l) => l.estatus_sat === 'cancelado').length,
          };
        }
      } catch (err) {
        // The profile became read-only or was removed meanwhile: the import refuses, the job ends.
        if (err instanceof AppError) throw new SyncFailed(`The import refused the package: ${err.message}`);
        throw err;
      }
      await ctx.db.transaction(async (tx) => {
        if (await markPackageImported(tx, r.id, p.packageId)) await addSyncCounters(tx, job.id, counts);
      });
    }
  }

  /** SAT's 5003: the period holds too many records; each half becomes its own request. */
  private async split(r: SyncRequestRow, said: { codigo: number; mensaje: string }): Promise<'split'> {
    const halves = halvesOf(r.desde, r.hasta);
    if (!halves) throw new SyncFailed('SAT says one day holds more than a request may (5003)');
    const half = (desde: string, hasta: string): NewSyncRequest => ({
      id: randomUUID(),
      jobId: r.jobId,
      direction: r.direction,
      content: r.content,
      desde,
      hasta,
    });
    await this.ctx.db.transaction(async (tx) => {
      await insertSyncRequests(
        tx,
        halves.map(([desde, hasta]) => half(desde, hasta)),
      );
      await setSyncRequest(tx, r.id, { ...said, estado: 'dividida' });
    });
    return 'split';
  }

  /** SAT's 5011 (the day's limit): the request is asked again when SAT's next day starts. */
  private async untilTomorrow(r: SyncRequestRow, said: { codigo: number; mensaje: string }): Promise<number> {
    await setSyncRequest(this.ctx.db, r.id, { ...said, estado: 'pendiente', satRequestId: null, polls: 0 });
    return secondsToNextMexicoDay(this.timing.now());
  }

  /** Any other code: 304/305 the e.firma (marked, the owner mailed), transient ones retried, the rest permanent. */
  private async refusal(r: SyncRequestRow, code: number, message: string, said: object): Promise<never> {
    if (TRANSIENT_CODES.has(code)) throw new Error(`SAT answered ${code}: ${message}`);
    if (EFIRMA_REFUSED.has(code)) {
      await this.efirmaRefused(code);
      await setSyncRequest(this.ctx.db, r.id, { ...said, codigo: code, mensaje: message, estado: 'error' });
      throw new SyncFailed(`SAT refused the stored e.firma (${code}): upload the current one`);
    }
    await setSyncRequest(this.ctx.db, r.id, { ...said, codigo: code, mensaje: message, estado: 'error' });
    throw new SyncFailed(`SAT refused the request (${code}): ${message}`);
  }

  private async efirmaRefused(code: number): Promise<void> {
    const { ctx, job } = this;
    const at = this.timing.now();
    const mail = await renderEfirmaRefusedEmail({
      rfc: (await profileRfcOf(ctx.db, job.profileId)) ?? '',
      codigo: code,
    });
    await ctx.db.transaction(async (tx) => {
      if (!(await markEfirmaRefused(tx, job.profileId, at))) return;
      const to = await ownerEmailOf(tx, job.profileId);
      if (!to) return;
      await enqueueEmail(tx, { to, kind: 'sat-efirma-refused', ...mail });
    });
    ctx.kickEmail();
  }

  /**
   * `faltantes`: the period's metadata lines whose XML Folio lacks once the job's imports are done
   * (whatever order its packages came in), in the job's directions.
   */
  async countMissing(): Promise<void> {
    const { ctx, job } = this;
    if (job.contenido === 'cfdi') return;
    const rfc = (await profileRfcOf(ctx.db, job.profileId)) ?? '';
    const metadataFaltantes = await countMissingXml(ctx.db, job.profileId, {
      desde: job.desde,
      hasta: job.hasta,
      ...(job.tipo === 'emitidos'
        ? { rfcEmisor: rfc }
        : job.tipo === 'recibidos'
          ? { rfcReceptor: rfc }
          : {}),
    });
    await setSyncJob(ctx.db, job.id, { metadataFaltantes });
  }

  /** Asks SAT's status service for each CFDI of the period still `desconocido` after the metadata. */
  async checkUnknownStatuses(): Promise<void> {
    const { ctx, job } = this;
    const sat = satSettingsOf(ctx.config);
    const { createStatusChecker } = await import('./status-check');
    const check = createStatusChecker({
      target: sat.target,
      fetch: sat.fetch,
      minIntervalMs: this.timing.statusIntervalMs,
    });
    for (const cfdi of await unknownStatusCfdis(ctx.db, job.profileId, job.desde, job.hasta)) {
      const s = await check({ xml: cfdi.xml });
      const estatus = s.estado;
      if (estatus === 'no_encontrado') continue; // keeps desconocido (integrations.md §1)
      await ctx.db.transaction(async (tx) => {
        const [row] = await statusesByUuids(tx, job.profileId, [cfdi.uuid]);
        if (!row) return;
        await applyStatusWords(
          tx,
          job.profileId,
          [{ row, incoming: { estatus, fuente: 'consulta', fechaCancelacion: null } }],
          this.timing.now(),
        );
      });
    }
    await setSyncJob(ctx.db, job.id, { statusCheckedAt: this.timing.now() });
  }
}
