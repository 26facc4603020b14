import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { guardedLookup, refusedLiteral } from './ssrf';

// One POST of a webhook body. Redirects are never followed (node:http does not), the answer's body
// is not read beyond its status, and the whole exchange has `timeoutMs`. In production (`guard`) the
// connection goes only to public addresses, checked after DNS answers (ssrf.ts).

export interface SendResult {
  /** The receiver's status, or null when there was none (refused, timed out, network error). */
  status: number | null;
  retryAfter: string | null;
  error: string | null;
}

export interface SendOptions {
  timeoutMs: number;
  guard: boolean;
}

export function postWebhook(
  url: string,
  body: string,
  headers: Record<string, string>,
  opts: SendOptions,
): Promise<SendResult> {
  const target = new URL(url);
  const literal = opts.guard ? refusedLiteral(target.hostname) : null;
  if (literal)
    return Promise.resolve({
      status: null,
      retryAfter: null,
      error: `refused: ${literal} is a private address`,
    });
  const request = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    let settled = false;
    const done = (r: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(r);
    };
    const req = request(
      target,
      {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'user-agent': 'Folio-Webhooks/1',
        },
        ...(opts.guard ? { lookup: guardedLookup } : {}),
      },
      (res) => {
        const retryAfter = res.headers['retry-after'];
        done({
          status: res.statusCode ?? null,
          retryAfter: typeof retryAfter === 'string' ? retryAfter : null,
          error: null,
        });
        res.destroy();
      },
    );
    const timer = setTimeout(() => {
      done({ status: null, retryAfter: null, error: `no answer within ${opts.timeoutMs / 1000} s` });
      req.destroy();
    }, opts.timeoutMs);
    req.on('error', (err) => done({ status: null, retryAfter: null, error: err.message }));
    req.end(body);
  });
}
