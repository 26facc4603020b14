import type { components } from './generated/openapi';

/** Every `code` the API answers with (the OpenAPI document's ErrorBody `code`). */
export type FolioErrorCode = components['schemas']['ErrorBody']['code'];

/**
 * Every failed REST call throws this: the HTTP status, the `{error, message}` body the API always
 * answers with, and the request id to quote when asking for help (`X-Request-Id`).
 */
export class FolioApiError extends Error {
  override readonly name = 'FolioApiError';
  /** HTTP status; 0 when no response arrived (network failure). */
  readonly status: number;
  /** The error label: `Bad Request`, `Unauthorized`, `Not Found`, `VALIDATION_ERROR`, … */
  readonly error: string;
  /** The server's `X-Request-Id` for this call, or null when there was none. */
  readonly requestId: string | null;
  /** Seconds to wait before retrying (429 answers carry `Retry-After`), or null. */
  readonly retryAfter: number | null;
  /** The stable snake_case identifier of the failure (`validation_failed`, `rfc_invalid`, …), or null. */
  readonly code: FolioErrorCode | null;
  /** With `validation_failed`: each invalid input field and why; otherwise empty. */
  readonly fields: { path: string; message: string }[];
  /** The body as received, when it was not the usual `{error, message}`. */
  readonly body: unknown;

  constructor(init: {
    status: number;
    error: string;
    message: string;
    requestId?: string | null;
    retryAfter?: number | null;
    code?: FolioErrorCode | null;
    fields?: { path: string; message: string }[];
    body?: unknown;
    cause?: unknown;
  }) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.error = init.error;
    this.requestId = init.requestId ?? null;
    this.retryAfter = init.retryAfter ?? null;
    this.code = init.code ?? null;
    this.fields = init.fields ?? [];
    this.body = init.body;
  }

  /** Builds the error from a non-2xx response and its already-read body (JSON or text). */
  static fromResponse(response: Response, body: unknown): FolioApiError {
    const shaped =
      typeof body === 'object' &&
      body !== null &&
      typeof (body as { error?: unknown }).error === 'string' &&
      typeof (body as { message?: unknown }).message === 'string'
        ? (body as { error: string; message: string; code?: unknown; fields?: unknown })
        : null;
    const retry = Number(response.headers.get('retry-after'));
    return new FolioApiError({
      status: response.status,
      error: shaped?.error ?? (response.statusText || `HTTP ${response.status}`),
      message:
        shaped?.message ??
        (typeof body === 'string' && body.trim() ? body.trim().slice(0, 500) : `HTTP ${response.status}`),
      requestId: response.headers.get('x-request-id'),
      retryAfter: response.headers.has('retry-after') && Number.isFinite(retry) ? retry : null,
      code: typeof shaped?.code === 'string' ? (shaped.code as FolioErrorCode) : null,
      fields: Array.isArray(shaped?.fields) ? (shaped.fields as { path: string; message: string }[]) : [],
      body: shaped ? undefined : body,
    });
  }

  static is(err: unknown): err is FolioApiError {
    return err instanceof FolioApiError;
  }

  override toString(): string {
    return `${this.name}: ${this.status} ${this.error}: ${this.message}${this.requestId ? ` (request ${this.requestId})` : ''}`;
  }
}
