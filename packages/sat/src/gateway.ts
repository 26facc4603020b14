import {
  DateTime,
  DateTimePeriod,
  DocumentStatus,
  DownloadType,
  Fiel,
  FielRequestBuilder,
  HttpServerError,
  QueryParameters,
  RequestType,
  Service,
  ServiceEndpoints,
  ServiceType,
  SoapFaultError,
  WebClientException,
} from '@nodecfdi/sat-ws-descarga-masiva';
import { SatQueryInvalid, SatRefused, SatUnavailable } from './sat-errors';
import { type SatTarget, simulatorPaths } from './sat-target';
import { type FetchLike, FetchWebClient, SAT_TIMEOUT_MS } from './web-client';

// The one door to SAT's mass-download service (docs/sat-sync.md#gateway), for the server's sync job
// and the CLI's local mode: the @nodecfdi client with Folio's fetch web client, pointed at SAT or at
// the simulator. It decides nothing about jobs: it answers SAT's codes as data and throws
// SatUnavailable (retry later) or SatRefused (do not retry) for everything that is not an answer.

export function endpointsFor(target: SatTarget): ServiceEndpoints {
  if (target.kind === 'sat') return ServiceEndpoints.cfdi();
  const at = (path: string) => `${target.origin}${path}`;
  return new ServiceEndpoints(
    at(simulatorPaths.authenticate),
    at(simulatorPaths.query),
    at(simulatorPaths.verify),
    at(simulatorPaths.download),
    new ServiceType('cfdi'),
  );
}

export type Direction = 'emitidos' | 'recibidos';
export type Content = 'cfdi' | 'metadata';

export interface SatQuery {
  direction: Direction;
  content: Content;
  /** `YYYY-MM-DD`, Mexico City; the period runs from desde 00:00:00 to hasta 23:59:59. */
  desde: string;
  hasta: string;
  /** Seconds to move the start earlier (SAT's 5002/5005 answers: integrations.md §1). */
  shiftStartSeconds?: number;
}

/** SAT's answer to a request: 5000 accepted with its id, else the code (5002, 5003, 5004, 5005, 5011…). */
export interface QueryAnswer {
  code: number;
  message: string;
  requestId: string | null;
}

/** SAT's answer to a verification. `estado`: 1 accepted, 2 in progress, 3 finished, 4 error, 5 rejected, 6 expired. */
export interface VerifyAnswer {
  code: number;
  message: string;
  estado: number;
  /** CodigoEstadoSolicitud: 5000, or 5002/5003/5004/5005/5011 explaining a rejection. */
  codigoEstado: number;
  numeroCfdis: number;
  packageIds: string[];
}

/** SAT's answer to a download: 5000 with the ZIP, or the code (5007 expired, 5008 downloaded twice). */
export interface DownloadAnswer {
  code: number;
  message: string;
  /** The package's ZIP bytes (empty unless code is 5000). */
  zip: Buffer;
}

export interface SatCredentials {
  cer: Uint8Array;
  key: Uint8Array;
  password: string;
}

export interface SatGatewayOptions {
  target: SatTarget;
  fetch?: FetchLike;
  timeoutMs?: number;
}

const MEXICO_CITY = 'America/Mexico_City';
const binary = (bytes: Uint8Array) => Buffer.from(bytes).toString('binary');

/** Wall-clock arithmetic on the text (no zone, so no DST): '2025-03-01T00:00:00' − 1 s = '2025-02-28 23:59:59'. */
const wallClockMinus = (at: string, seconds: number) =>
  new Date(Date.parse(`${at}Z`) - seconds * 1000).toISOString().slice(0, 19).replace('T', ' ');

/** The QueryParameters of one request (EstadoComprobante Vigente for received CFDI: SAT requires it). */
export function queryParametersOf(q: SatQuery): QueryParameters {
  const start = DateTime.create(wallClockMinus(`${q.desde}T00:00:00`, q.shiftStartSeconds ?? 0), MEXICO_CITY);
  const end = DateTime.create(`${q.hasta} 23:59:59`, MEXICO_CITY);
  const params = QueryParameters.create(
    DateTimePeriod.create(start, end),
    new DownloadType(q.direction === 'emitidos' ? 'issued' : 'received'),
    new RequestType(q.content === 'cfdi' ? 'xml' : 'metadata'),
  );
  return q.direction === 'recibidos' && q.content === 'cfdi'
    ? params.withDocumentStatus(new DocumentStatus('active'))
    : params;
}

/** Turns the library's transport errors into the gateway's two kinds; anything else is rethrown. */
async function classify<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof SoapFaultError)
      throw new SatRefused(`SAT refused the call: ${err.getFault().getMessage()}`);
    if (err instanceof HttpServerError)
      throw new SatUnavailable('SAT failed or could not be reached; retry later');
    if (err instanceof WebClientException) {
      const status = err.getResponse().getStatusCode();
      if (err.getResponse().statusCodeIsTimeoutError())
        throw new SatUnavailable('SAT did not answer in time');
      throw new SatRefused(`SAT answered HTTP ${status}`);
    }
    throw err;
  }
}

/**
 * A session with SAT for one e.firma: authenticates on first use and again when the 5-minute token
 * has expired (the library renews it). Opening it checks the key and password (throws otherwise).
 */
export class SatGateway {
  private readonly service: Service;
  readonly rfc: string;

  constructor(credentials: SatCredentials, opts: SatGatewayOptions) {
    const fiel = Fiel.create(binary(credentials.cer), binary(credentials.key), credentials.password);
    this.rfc = fiel.getRfc().toUpperCase();
    this.service = new Service(
      new FielRequestBuilder(fiel),
      new FetchWebClient(opts.fetch, opts.timeoutMs ?? SAT_TIMEOUT_MS),
      null,
      endpointsFor(opts.target),
    );
  }

  /** Authenticates now (the token is kept for the next calls); answers its lifetime as SAT gave it. */
  async authenticate(): Promise<{ created: Date; expires: Date }> {
    const token = await classify(() => this.service.authenticate());
    if (token.isValueEmpty()) throw new SatRefused('SAT answered no token');
    this.service.setToken(token);
    const at = (t: DateTime) => new Date(t.toJSON() * 1000);
    return { created: at(token.getCreated()), expires: at(token.getExpires()) };
  }

  /** Requests a download; validated first (the library's query() does not validate). */
  async query(q: SatQuery): Promise<QueryAnswer> {
    let params: QueryParameters;
    try {
      params = queryParametersOf(q);
    } catch (err) {
      // DateTimePeriod refuses an end before the start before validate() can say so.
      throw new SatQueryInvalid([(err as Error).message]);
    }
    const problems = params.validate();
    if (problems.length) throw new SatQueryInvalid(problems);
    const result = await classify(() => this.service.query(params));
    const status = result.getStatus();
    return {
      code: status.getCode(),
      message: status.getMessage(),
      requestId: status.isAccepted() ? result.getRequestId() : null,
    };
  }

  async verify(requestId: string): Promise<VerifyAnswer> {
    const result = await classify(() => this.service.verify(requestId));
    return {
      code: result.getStatus().getCode(),
      message: result.getStatus().getMessage(),
      estado: result.getStatusRequest().getValue() ?? 0,
      codigoEstado: result.getCodeRequest().getValue() ?? 0,
      numeroCfdis: result.getNumberCfdis(),
      packageIds: result.getPackageIds(),
    };
  }

  async download(packageId: string): Promise<DownloadAnswer> {
    const result = await classify(() => this.service.download(packageId));
    const status = result.getStatus();
    return {
      code: status.getCode(),
      message: status.getMessage(),
      zip: status.isAccepted() ? Buffer.from(result.getPackageContent(), 'base64') : Buffer.alloc(0),
    };
  }
}
