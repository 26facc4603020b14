import type { SatGateway, SatQuery } from './gateway';
import { SatUnavailable } from './sat-errors';
import { halvesOf, satPollDelaySeconds } from './sync-plan';

// A period's packages straight from SAT, without a database: the CLI's local mode (docs/sat-sync.md#
// local-mode). SAT's answers as integrations.md §1 reads them: every request is sent first (SAT works
// on them together), then each is polled with back-off and its packages downloaded and handed over
// one at a time (a package may be downloaded twice at most: it is used at once).

export type DownloadEvent =
  | { kind: 'requested'; query: SatQuery; requestId: string }
  | { kind: 'shifted'; query: SatQuery; code: number }
  | { kind: 'empty'; query: SatQuery }
  | { kind: 'split'; query: SatQuery }
  | { kind: 'waiting'; query: SatQuery; seconds: number }
  | { kind: 'packages'; query: SatQuery; count: number; cfdi: number }
  | { kind: 'downloaded'; query: SatQuery; packageId: string; bytes: number }
  | { kind: 'again'; query: SatQuery; reason: string }
  | { kind: 'retrying'; query: SatQuery; reason: string; seconds: number };

export interface DownloadHooks {
  /** Waits before a verification and before a retry (tests pass a short one). */
  sleep(ms: number): Promise<void>;
  /** Seconds before verification n; SAT's 1 minute doubling to 1 hour by default. */
  pollDelaySeconds?(n: number): number;
  progress?(event: DownloadEvent): void;
  /** Each downloaded package's ZIP, awaited before the next download. */
  onPackage(pkg: { query: SatQuery; packageId: string; zip: Buffer }): Promise<void>;
}

/** SAT refused the period for good (a code that asking again will not change). */
export class SatDownloadFailed extends Error {
  override name = 'SatDownloadFailed';
  constructor(
    message: string,
    readonly code?: number,
  ) {
    super(message);
  }
}

interface Requested {
  query: SatQuery;
  requestId: string;
  /** SAT requests made for this query so far (an error state is asked again once). */
  attempts: number;
}

/** 404 and 5006 are SAT's own "try again" answers, like an outage (SatUnavailable). */
const TRANSIENT = new Set([404, 5006]);
const RETRIES = 3;
const RETRY_SECONDS = 10;
/** 5002/5005 shift the start one second earlier; SAT answering so this often means something else. */
const MAX_SHIFTS = 10;

/** Requests every query, then downloads each one's packages in the order given. */
export async function downloadPeriod(
  gw: SatGateway,
  queries: SatQuery[],
  hooks: DownloadHooks,
): Promise<void> {
  const run = new PeriodDownload(gw, hooks);
  const requested: Requested[] = [];
  for (const q of queries) requested.push(...(await run.request(q, 1)));
  for (const r of requested) await run.complete(r);
}

class PeriodDownload {
  constructor(
    private readonly gw: SatGateway,
    private readonly hooks: DownloadHooks,
  ) {}

  /** A SAT call retried on SatUnavailable and on 404/5006 answers, with a pause between tries. */
  private async retrying<T extends { code: number; message: string }>(
    query: SatQuery,
    call: () => Promise<T>,
  ): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      let reason: string;
      try {
        const answer = await call();
        if (!TRANSIENT.has(answer.code)) return answer;
        reason = `SAT answered ${answer.code}: ${answer.message}`;
      } catch (err) {
        if (!(err instanceof SatUnavailable)) throw err;
        reason = err.message;
      }
      if (attempt > RETRIES) throw new SatDownloadFailed(`SAT kept failing: ${reason}`);
      const seconds = RETRY_SECONDS * attempt;
      this.hooks.progress?.({ kind: 'retrying', query, reason, seconds });
      await this.hooks.sleep(seconds * 1000);
    }
  }

  /** One query sent to SAT: its request id, none when SAT has nothing, two or more when split (5003). */
  async request(q: SatQuery, attempts: number): Promise<Requested[]> {
    let query = q;
    for (let shifts = 0; ; shifts++) {
      const a = await this.retrying(query, () => this.gw.query(query));
      if (a.code === 5000 && a.requestId) {
        this.hooks.progress?.({ kind: 'requested', query, requestId: a.requestId });
        return [{ query, requestId: a.requestId, attempts }];
      }
      if ((a.code === 5005 || a.code === 5002) && shifts < MAX_SHIFTS) {
        // An identical request is alive (5005) or used up (5002): the same period from one second
        // earlier is another request; the overlap is harmless, imports dedupe by UUID.
        this.hooks.progress?.({ kind: 'shifted', query, code: a.code });
        query = { ...query, shiftStartSeconds: (query.shiftStartSeconds ?? 0) + 1 };
        continue;
      }
      if (a.code === 5004) {
        this.hooks.progress?.({ kind: 'empty', query });
        return [];
      }
      if (a.code === 5003) return this.split(query, attempts);
      throw this.refusal(a.code, a.message);
    }
  }

  /** Polls one request until SAT finishes it, then downloads its packages. */
  async complete(r: Requested): Promise<void> {
    const delay = this.hooks.pollDelaySeconds ?? satPollDelaySeconds;
    for (let polls = 0; ; polls++) {
      const seconds = delay(polls);
      this.hooks.progress?.({ kind: 'waiting', query: r.query, seconds });
      await this.hooks.sleep(seconds * 1000);
      const v = await this.retrying(r.query, () => this.gw.verify(r.requestId));
      if (v.code !== 5000) throw this.refusal(v.code, v.message);
      if (v.estado === 1 || v.estado === 2) continue;
      if (v.estado === 3) {
        this.hooks.progress?.({
          kind: 'packages',
          query: r.query,
          count: v.packageIds.length,
          cfdi: v.numeroCfdis,
        });
        if (await this.download(r, v.packageIds)) return;
        return this.again(r, 'a package expired (5007) or was downloaded twice (5008)');
      }
      if (v.estado === 5) {
        if (v.codigoEstado === 5004) {
          this.hooks.progress?.({ kind: 'empty', query: r.query });
          return;
        }
        if (v.codigoEstado === 5003) {
          for (const half of await this.split(r.query, r.attempts)) await this.complete(half);
          return;
        }
        throw this.refusal(v.codigoEstado, `SAT rejected the request: ${v.message}`);
      }
      if (v.estado === 4 && r.attempts >= 2)
        throw new SatDownloadFailed(`SAT failed the request twice: ${v.message}`);
      return this.again(r, v.estado === 6 ? 'the request expired' : 'SAT failed the request');
    }
  }

  /** Downloads and hands over each package; false when SAT no longer gives one (5007, 5008). */
  private async download(r: Requested, packageIds: string[]): Promise<boolean> {
    for (const packageId of packageIds) {
      const d = await this.retrying(r.query, () => this.gw.download(packageId));
      if (d.code === 5007 || d.code === 5008) return false;
      if (d.code !== 5000) throw this.refusal(d.code, d.message);
      this.hooks.progress?.({ kind: 'downloaded', query: r.query, packageId, bytes: d.zip.length });
      await this.hooks.onPackage({ query: r.query, packageId, zip: d.zip });
    }
    return true;
  }

  /** Asks SAT again for the same query (error the first time, expired, a package gone). */
  private async again(r: Requested, reason: string): Promise<void> {
    this.hooks.progress?.({ kind: 'again', query: r.query, reason });
    for (const next of await this.request(r.query, r.attempts + 1)) await this.complete(next);
  }

  /** SAT's 5003: the period holds too many records; each half is its own request. */
  private async split(q: SatQuery, attempts: number): Promise<Requested[]> {
    const halves = halvesOf(q.desde, q.hasta);
    if (!halves) throw new SatDownloadFailed('SAT says one day holds more than a request may (5003)', 5003);
    this.hooks.progress?.({ kind: 'split', query: q });
    const out: Requested[] = [];
    for (const [desde, hasta] of halves) out.push(...(await this.request({ ...q, desde, hasta }, attempts)));
    return out;
  }

  private refusal(code: number, message: string): SatDownloadFailed {
    if (code === 5011)
      return new SatDownloadFailed(
        'SAT’s daily limit of downloads was reached (5011): try again tomorrow',
        code,
      );
    if (code === 304 || code === 305)
      return new SatDownloadFailed(`SAT refused the e.firma (${code}): it may be revoked or expired`, code);
    return new SatDownloadFailed(`SAT refused the request (${code}): ${message}`, code);
  }
}
