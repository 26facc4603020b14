import { isDatabaseUnavailable } from '@folio/db';
import { TRPCError } from '@trpc/server';
import type { z } from 'zod';
import { type ErrorCode, errorHelpLink, type FieldError } from './error-codes';
import { AppError, badRequest } from './errors';

/**
 * The one error pipeline: whatever a procedure, a REST route or a file route throws becomes a status,
 * the contract's `{error, message}` body plus a stable `code` (and `fields` for invalid input), and
 * the headers that go with it. tRPC reports the same `code`/`fields` in the error's data.
 */

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

/** The `code` of an error that names nothing more specific than its status. */
const DEFAULT_CODES: Record<number, ErrorCode> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  422: 'validation_failed',
  429: 'rate_limited',
  500: 'internal_error',
  503: 'service_unavailable',
};

export interface ErrorBody {
  error: string;
  message: string;
  code: ErrorCode;
  fields?: FieldError[];
}

/** How a route labels its failures, beyond the defaults (from its route table entry's `rest`). */
export interface ErrorStyle {
  /** Status for input-schema failures: 400 by default, 422 where the contract says so. */
  inputErrorStatus?: 400 | 422;
  /** Per-status `error` labels that differ from the spec's defaults (register uses VALIDATION_ERROR). */
  errorLabels?: Partial<Record<number, string>>;
}

export function errorBody(
  status: number,
  message: string,
  extra: { code?: ErrorCode; fields?: FieldError[]; style?: ErrorStyle } = {},
): ErrorBody {
  return {
    error: extra.style?.errorLabels?.[status] ?? ERROR_LABELS[status] ?? 'Error',
    message,
    code: extra.code ?? DEFAULT_CODES[status] ?? 'internal_error',
    ...(extra.fields ? { fields: extra.fields } : {}),
  };
}

export interface Failure {
  status: number;
  body: ErrorBody;
  headers: Record<string, string>;
}

type Issue = { path: PropertyKey[]; message: string };
const zodIssuesOf = (cause: unknown): Issue[] | undefined =>
  cause instanceof Error && cause.name === 'ZodError'
    ? (cause as unknown as { issues: Issue[] }).issues
    : undefined;

const MAX_FIELDS = 10;
const fieldsOf = (issues: Issue[]): FieldError[] =>
  issues.slice(0, MAX_FIELDS).map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));

/** The contract's one-line message, kept for clients that read only `message`. */
const describe = (fields: FieldError[]) =>
  fields.map((f) => (f.path ? `${f.path}: ${f.message}` : f.message)).join('; ');

/** A schema's refusal, thrown by a service that validates its own input: the 400 the procedure layer gives. */
export function invalidInput(error: z.ZodError): AppError {
  const fields = fieldsOf(error.issues);
  return badRequest(describe(fields), 'validation_failed', fields);
}

/** Maps anything thrown to its status, body and headers (with the Link to its code's entry). */
export function failure(err: unknown, style: ErrorStyle = {}): Failure {
  const found = bareFailure(err, style);
  return { ...found, headers: { ...found.headers, Link: errorHelpLink(found.body.code) } };
}

/** 500s say nothing of their cause. */
function bareFailure(err: unknown, style: ErrorStyle = {}): Failure {
  const cause = err instanceof TRPCError && err.cause ? err.cause : err;
  if (isDatabaseUnavailable(cause) || isDatabaseUnavailable(err)) {
    return {
      status: 503,
      body: errorBody(503, 'The database is unavailable; retry shortly', {
        code: 'database_unavailable',
        style,
      }),
      headers: { 'Retry-After': '5' }, // worth retrying, unlike a 500: say so, and when
    };
  }
  const headers: Record<string, string> = {};
  if (cause instanceof AppError) {
    const status = STATUS_OF[cause.code] ?? 500;
    if (cause.retryAfter !== undefined) headers['Retry-After'] = String(Math.ceil(cause.retryAfter));
    const message = status === 500 ? 'An unexpected error occurred' : cause.message;
    return {
      status,
      body: errorBody(status, message, { code: cause.reason, fields: cause.fields, style }),
      headers,
    };
  }
  const e = err instanceof TRPCError ? err : new TRPCError({ code: 'INTERNAL_SERVER_ERROR', cause: err });
  const issues = e.code === 'BAD_REQUEST' ? zodIssuesOf(e.cause) : undefined;
  if (issues) {
    const status = style.inputErrorStatus ?? 400;
    const fields = fieldsOf(issues);
    return {
      status,
      body: errorBody(status, describe(fields), { code: 'validation_failed', fields, style }),
      headers,
    };
  }
  const status = STATUS_OF[e.code] ?? 500;
  const message = status === 500 ? 'An unexpected error occurred' : e.message;
  return { status, body: errorBody(status, message, { style }), headers };
}
