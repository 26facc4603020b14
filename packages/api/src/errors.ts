import type { TRPC_ERROR_CODE_KEY } from '@trpc/server';
import type { ErrorCode, FieldError } from './error-codes';

/**
 * What services throw: a tRPC error code plus a message meant for the caller. The procedure layer
 * turns it into a TRPCError (so both transports agree); services never import tRPC.
 */
export class AppError extends Error {
  constructor(
    readonly code: TRPC_ERROR_CODE_KEY,
    message: string,
    /** Seconds until a retry can succeed; sent as Retry-After (429s, 503s). */
    readonly retryAfter?: number,
    /** The error body's stable snake_case `code` (e.g. `rfc_invalid`); the status's default when absent. */
    readonly reason?: ErrorCode,
    /** The invalid input fields, when a service (not the schema) found them: the body's `fields`. */
    readonly fields?: FieldError[],
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string, reason?: ErrorCode, fields?: FieldError[]) =>
  new AppError('BAD_REQUEST', message, undefined, reason, fields);
/** One input field a service refused (a format the schema cannot check), named in `fields`. */
export const invalidField = (path: string, message: string, reason: ErrorCode, said = message) =>
  badRequest(said, reason, [{ path, message }]);
export const unauthorized = (message = 'Authentication required', reason?: ErrorCode) =>
  new AppError('UNAUTHORIZED', message, undefined, reason);
export const forbidden = (message: string, reason?: ErrorCode) =>
  new AppError('FORBIDDEN', message, undefined, reason);
export const notFound = (message: string, reason?: ErrorCode) =>
  new AppError('NOT_FOUND', message, undefined, reason);
export const conflict = (message: string, reason?: ErrorCode) =>
  new AppError('CONFLICT', message, undefined, reason);
export const unprocessable = (message: string, reason?: ErrorCode) =>
  new AppError('UNPROCESSABLE_CONTENT', message, undefined, reason);
export const tooManyRequests = (message: string, retryAfter: number, reason: ErrorCode = 'rate_limited') =>
  new AppError('TOO_MANY_REQUESTS', message, retryAfter, reason);
export const serviceUnavailable = (message: string, retryAfter: number, reason?: ErrorCode) =>
  new AppError('SERVICE_UNAVAILABLE', message, retryAfter, reason);

/** How a plan changes, said with every `plan_required` (docs/errors.md#plan_required). */
export const UPGRADE_HINT = 'upgrade with POST /api/subscription/create-checkout';

/** A feature the caller's plan lacks: the message names the plan(s) that have it; this adds how to get one. */
export const planRequired = (message: string) => forbidden(`${message}; ${UPGRADE_HINT}`, 'plan_required');
