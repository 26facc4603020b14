import { isDatabaseUnavailable } from '@folio/db';
import { TRPCError } from '@trpc/server';
import { AppError } from '../errors';
import type { RestMeta } from '../trpc';

const STATUS_OF: Record<string, number> = {
  BAD_REQUEST: 400,
  PARSE_ERROR: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_SUPPORTED: 405,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  UNPROCESSABLE_CONTENT: 422,
  TOO_MANY_REQUESTS: 429,
  SERVICE_UNAVAILABLE: 503,
};

/** The labels of docs/contract.md#errors: the contract's, plus the statuses it leaves open. */
export const ERROR_LABELS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Validation Error',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export interface ErrorBody {
  error: string;
  message: string;
}

export function errorBody(status: number, message: string, rest: RestMeta = {}): ErrorBody {
  return { error: rest.errorLabels?.[status] ?? ERROR_LABELS[status] ?? 'Error', message };
}

type Issue = { path: PropertyKey[]; message: string };
const zodIssuesOf = (cause: unknown): Issue[] | undefined =>
  cause instanceof Error && cause.name === 'ZodError'
    ? (cause as unknown as { issues: Issue[] }).issues
    : undefined;

const describe = (issues: Issue[]) =>
  issues
    .slice(0, 10)
    .map((i) => (i.path.length ? `${i.path.map(String).join('.')}: ${i.message}` : i.message))
    .join('; ');

/** Maps anything a procedure throws to the status and exact `{error, message}` body; 500s say nothing. */
export function restError(err: unknown, rest: RestMeta = {}): { status: number; body: ErrorBody } {
  if (!(err instanceof TRPCError) && isDatabaseUnavailable(err)) {
    return { status: 503, body: errorBody(503, 'The database is unavailable; retry shortly', rest) };
  }
  const e =
    err instanceof TRPCError
      ? err
      : err instanceof AppError
        ? new TRPCError({ code: err.code, message: err.message, cause: err })
        : new TRPCError({ code: 'INTERNAL_SERVER_ERROR', cause: err });
  let status = STATUS_OF[e.code] ?? 500;
  let message = status === 500 ? 'An unexpected error occurred' : e.message;
  const issues = e.code === 'BAD_REQUEST' ? zodIssuesOf(e.cause) : undefined;
  if (issues) {
    status = rest.inputErrorStatus ?? 400;
    message = describe(issues);
  }
  return { status, body: errorBody(status, message, rest) };
}
