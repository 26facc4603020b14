import type { TRPC_ERROR_CODE_KEY } from '@trpc/server';

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
    readonly reason?: string,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string, reason?: string) =>
  new AppError('BAD_REQUEST', message, undefined, reason);
export const unauthorized = (message = 'Authentication required', reason?: string) =>
  new AppError('UNAUTHORIZED', message, undefined, reason);
export const forbidden = (message: string, reason?: string) =>
  new AppError('FORBIDDEN', message, undefined, reason);
export const notFound = (message: string, reason?: string) =>
  new AppError('NOT_FOUND', message, undefined, reason);
export const conflict = (message: string, reason?: string) =>
  new AppError('CONFLICT', message, undefined, reason);
export const unprocessable = (message: string, reason?: string) =>
  new AppError('UNPROCESSABLE_CONTENT', message, undefined, reason);
export const tooManyRequests = (message: string, retryAfter: number, reason = 'rate_limited') =>
  new AppError('TOO_MANY_REQUESTS', message, retryAfter, reason);
export const serviceUnavailable = (message: string, retryAfter: number, reason?: string) =>
  new AppError('SERVICE_UNAVAILABLE', message, retryAfter, reason);
