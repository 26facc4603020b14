import { errorBody } from '@folio/api';
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';

/**
 * 413 for a body refused before it was read whole. The connection closes with it: left open, the
 * unread rest of the body would be taken for the client's next request on that socket.
 */
export const payloadTooLarge = (c: Context, message: string) =>
  c.json(errorBody(413, message), 413, { Connection: 'close' });

/** Refuses a body over `maxSize` bytes: at once by Content-Length, else as soon as the count passes it. */
export const limitBody = (maxSize: number, message: string): MiddlewareHandler =>
  bodyLimit({ maxSize, onError: (c) => payloadTooLarge(c, message) });
