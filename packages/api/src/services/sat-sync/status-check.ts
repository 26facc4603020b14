import { type FetchLike, SatRefused, type SatTarget, SatUnavailable, simulatorPaths } from '@folio/sat/plain';
import { getParser, newDocumentContent } from '@nodecfdi/cfdi-core';
import { DiscoverExtractor } from '@nodecfdi/cfdi-expresiones';
import {
  Consumer,
  type ConsumerClientInterface,
  ConsumerClientResponse,
  type ConsumerClientResponseInterface,
} from '@nodecfdi/sat-estado-cfdi';

// SAT's CFDI status service (integrations.md §1): it takes the CFDI's printed expression (built by
// @nodecfdi/cfdi-expresiones) and answers Estado Vigente / Cancelado / No Encontrado. The
// @nodecfdi/sat-estado-cfdi consumer reads the answer; it ships no HTTP client, so this is one over
// fetch: a timeout, a pause between calls, and a retry on 5xx and network errors.

export const STATUS_SOAP_ACTION = 'http://tempuri.org/IConsultaCFDIService/Consulta';
const ANSWER_FIELDS = ['CodigoEstatus', 'Estado', 'EsCancelable', 'EstatusCancelacion', 'ValidacionEFOS'];

export interface StatusClientOptions {
  target: SatTarget;
  fetch?: FetchLike;
  timeoutMs?: number;
  /** Pause between two calls of this client (SAT throttles heavy callers). */
  minIntervalMs?: number;
  /** Attempts on a 5xx or network error, with a growing pause between them. */
  attempts?: number;
  retryPauseMs?: number;
}

/** The printed expression of a CFDI (3.3, 4.0, retenciones): `?re=…&rr=…&tt=…&id=…&fe=…`. */
export function expressionOf(xml: string): string {
  return new DiscoverExtractor().extract(newDocumentContent(xml));
}

const escapeCdata = (s: string) => s.replaceAll(']]>', ']]]]><![CDATA[>');

export const statusRequestBody = (expression: string) =>
  '<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" xmlns:tem="http://tempuri.org/">' +
  `<soap:Body><tem:Consulta><tem:expresionImpresa><![CDATA[${escapeCdata(expression)}]]></tem:expresionImpresa></tem:Consulta></soap:Body></soap:Envelope>`;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The consumer-client interface of @nodecfdi/sat-estado-cfdi, over fetch. */
export class FetchStatusClient implements ConsumerClientInterface {
  private last = 0;

  constructor(private readonly opts: Omit<StatusClientOptions, 'target'> = {}) {}

  async consume(uri: string, expression: string): Promise<ConsumerClientResponseInterface> {
    const attempts = this.opts.attempts ?? 3;
    for (let attempt = 1; ; attempt++) {
      const wait = this.last + (this.opts.minIntervalMs ?? 200) - Date.now();
      if (wait > 0) await sleep(wait);
      this.last = Date.now();
      let res: Response | undefined;
      try {
        res = await (this.opts.fetch ?? fetch)(uri, {
          method: 'POST',
          headers: { 'Content-Type': 'text/xml; charset=utf-8', SOAPAction: STATUS_SOAP_ACTION },
          body: statusRequestBody(expression),
          signal: AbortSignal.timeout(this.opts.timeoutMs ?? 30_000),
        });
      } catch {
        res = undefined;
      }
      if (res && res.status < 500) return readAnswer(res.status, await res.text());
      if (attempt >= attempts)
        throw new SatUnavailable('SAT’s status service failed or could not be reached');
      await sleep((this.opts.retryPauseMs ?? 1000) * attempt);
    }
  }
}

function readAnswer(status: number, body: string): ConsumerClientResponseInterface {
  if (status !== 200) throw new SatRefused(`SAT’s status service answered HTTP ${status}`);
  let doc: ReturnType<ReturnType<typeof getParser>['parseFromString']>;
  try {
    doc = getParser().parseFromString(body, 'text/xml');
  } catch {
    throw new SatUnavailable('SAT’s status service answered something that is not XML');
  }
  const answer = new ConsumerClientResponse();
  const values: Record<string, string | null> = {};
  for (const name of ANSWER_FIELDS) {
    values[name] = doc.getElementsByTagNameNS('*', name).item(0)?.textContent?.trim() ?? null;
  }
  if (!values.CodigoEstatus)
    throw new SatUnavailable(`SAT’s status service answered HTTP ${status} without a status`);
  answer.set(values);
  return answer;
}

export interface CfdiSatStatus {
  estado: 'vigente' | 'cancelado' | 'no_encontrado';
  /** EsCancelable and EstatusCancelacion as SAT wrote them (empty when absent). */
  esCancelable: string;
  estatusCancelacion: string;
}

export type StatusChecker = (cfdi: { xml: string } | { expression: string }) => Promise<CfdiSatStatus>;

/**
 * A checker asking SAT (or the simulator) for one CFDI's status at a time, by its XML or its
 * expression; one per job, so its pause between calls holds across the job's CFDI.
 */
export function createStatusChecker(opts: StatusClientOptions): StatusChecker {
  const uri =
    opts.target.kind === 'sat'
      ? Consumer.WEBSERVICE_URI_PRODUCTION
      : `${opts.target.origin}${simulatorPaths.status}`;
  const client = new FetchStatusClient(opts);
  return async (cfdi) => {
    const expression = 'xml' in cfdi ? expressionOf(cfdi.xml) : cfdi.expression;
    const raw = await client.consume(uri, expression);
    // The library's consumer reads the answer (Estado, EsCancelable…) into its statuses.
    const status = await new Consumer({ consume: () => raw }, uri).executeAsync(expression);
    const doc = status.getDocument();
    return {
      estado: doc.isActive() ? 'vigente' : doc.isCanceled() ? 'cancelado' : 'no_encontrado',
      esCancelable: raw.get('EsCancelable') ?? '',
      estatusCancelacion: raw.get('EstatusCancelacion') ?? '',
    };
  };
}
