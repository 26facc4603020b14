export interface RetryOptions {
  /** Further attempts after the first (default 0: no retry). */
  retries?: number | undefined;
  /** The first back-off in ms, doubled on every attempt (default 250). */
  baseDelayMs?: number | undefined;
  /** The longest wait between attempts, back-off or `Retry-After`, in ms (default 10,000). */
  maxDelayMs?: number | undefined;
}

/** Safe to send twice by HTTP's rules; the others only with an `Idempotency-Key`. */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'DELETE']);
/** Answers that say the request was not served: too many requests, or the server is unavailable. */
const RETRY_STATUS = new Set([429, 503]);

/** `Retry-After` in ms: delay-seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | null {
  if (value == null || value.trim() === '') return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

const sleep = (ms: number, signal: AbortSignal | null) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener('abort', abort);
      resolve();
    }
    function abort() {
      clearTimeout(timer);
      reject(signal?.reason);
    }
    signal?.addEventListener('abort', abort, { once: true });
  });

const isAbort = (err: unknown) =>
  err instanceof Error && (err.name === 'AbortError' || err.name === 'TimeoutError');

/**
 * One attempt with a deadline on the response headers (not the body: a download may stream longer).
 * The caller's own abort stays an AbortError; our deadline becomes a TimeoutError.
 */
async function attempt(fetchImpl: typeof fetch, request: Request, timeoutMs: number | undefined) {
  if (!timeoutMs) return fetchImpl(request);
  const controller = new AbortController();
  const timer = setTimeout(
    () =>
      controller.abort(
        new DOMException(
          `${request.method} ${request.url} got no answer within ${timeoutMs} ms`,
          'TimeoutError',
        ),
      ),
    timeoutMs,
  );
  const signal = AbortSignal.any([request.signal, controller.signal]);
  try {
    return await fetchImpl(new Request(request, { signal }));
  } catch (err) {
    throw controller.signal.aborted && !request.signal.aborted ? controller.signal.reason : err;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A fetch that gives every attempt `timeoutMs` and retries network failures (the request never got
 * an answer, e.g. the server restarting), 429 and 503 (waiting their `Retry-After`, else an
 * exponential back-off capped at `maxDelayMs`). POST, PUT and PATCH get an `Idempotency-Key` made
 * once per call (unless the caller gave one), so every attempt of a call carries the same key and the
 * server answers a repeat with the first answer instead of doing it twice; they are retried only
 * with that key. A timed-out attempt is not retried: it may still be running on the server.
 */
export function resilientFetch(
  fetchImpl: () => typeof fetch,
  options: RetryOptions & { timeoutMs?: number | undefined },
): typeof fetch {
  const retries = Math.max(0, Math.floor(options.retries ?? 0));
  const base = options.baseDelayMs ?? 250;
  const cap = options.maxDelayMs ?? 10_000;
  if (retries === 0 && !options.timeoutMs) return (input, init) => fetchImpl()(input, init);

  return async (input, init) => {
    const request = new Request(input, init);
    if (retries > 0 && !IDEMPOTENT.has(request.method) && !request.headers.has('idempotency-key')) {
      request.headers.set('idempotency-key', crypto.randomUUID());
    }
    const retryable = IDEMPOTENT.has(request.method) || request.headers.has('idempotency-key');
    for (let n = 0; ; n++) {
      const last = n >= retries || !retryable;
      const backoff = Math.min(cap, base * 2 ** n);
      let response: Response;
      try {
        response = await attempt(fetchImpl(), last ? request : request.clone(), options.timeoutMs);
      } catch (err) {
        if (last || isAbort(err)) throw err;
        await sleep(backoff, request.signal);
        continue;
      }
      if (last || !RETRY_STATUS.has(response.status)) return response;
      const wait = retryAfterMs(response.headers.get('retry-after')) ?? backoff;
      // A server asking for a longer pause than we would wait: hand its answer (and Retry-After) over.
      if (wait > cap) return response;
      await response.body?.cancel();
      await sleep(wait, request.signal);
    }
  };
}
