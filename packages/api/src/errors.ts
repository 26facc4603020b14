import type { TRPC_ERROR_CODE_KEY } from '@trpc/server';

/**
 * What services throw: a tRPC error code plus a message meant for the caller. The procedure layer
 * turns it into a TRPCError (so both transports agree); services never import tRPC.
 */
export class AppError extends Error {
  constructor(
    readonly code: TRPC_ERROR_CODE_KEY,
    message: string,
    /** Seconds until a retry can succeed; sent as Retry-After with 429s. */
    readonly retryAfter?: number,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string) => new AppError('BAD_REQUEST', message);
export const unauthorized = (message = 'Authentication required') => new AppError('UNAUTHORIZED', message);
export const forbidden = (message: string) => new AppError('FORBIDDEN', message);
export const notFound = (message: string) => new AppError('NOT_FOUND', message);
export const conflict = (message: string) => new AppError('CONFLICT', message);
export const unprocessable = (message: string) => new AppError('UNPROCESSABLE_CONTENT', message);
export const tooManyRequests = (message: string, retryAfter: number) =>
  new AppError('TOO_MANY_REQUESTS', message, retryAfter);
