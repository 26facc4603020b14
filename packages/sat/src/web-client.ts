import {
  type CRequest,
  CResponse,
  WebClientException,
  type WebClientInterface,
} from '@nodecfdi/sat-ws-descarga-masiva';

/** SAT's answers can be slow; the library's own client sets no timeout (integrations.md §1). */
export const SAT_TIMEOUT_MS = 120_000;

/** How the gateway reaches HTTP: the global fetch, or a test's `app.request`. */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

/**
 * The library's web-client interface over fetch: any scheme (the simulator is plain http), a
 * timeout, and a network failure reported as an empty answer, which the library raises as an
 * HttpServerError (transient for the gateway). A timeout is the library's own timeout answer.
 */
export class FetchWebClient implements WebClientInterface {
  constructor(
    private readonly fetcher: FetchLike = fetch,
    private readonly timeoutMs = SAT_TIMEOUT_MS,
  ) {}

  fireRequest(_request: CRequest): void {}

  fireResponse(_response: CResponse): void {}

  async call(request: CRequest): Promise<CResponse> {
    let res: Response;
    try {
      res = await this.fetcher(request.getUri(), {
        method: request.getMethod(),
        headers: { ...request.defaultHeaders(), ...request.getHeaders() },
        body: request.getBody(),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      return new CResponse(res.status, await res.text(), Object.fromEntries(res.headers));
    } catch (err) {
      const timedOut = err instanceof Error && err.name === 'TimeoutError';
      const response = timedOut ? CResponse.timeout(this.timeoutMs) : new CResponse(0, '');
      throw new WebClientException(
        timedOut ? 'SAT did not answer in time' : 'SAT unreachable',
        request,
        response,
        err as Error,
      );
    }
  }
}
