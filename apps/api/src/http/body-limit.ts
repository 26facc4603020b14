import type { IncomingMessage } from 'node:http';
import { AppError, errorBody } from '@folio/api';
import type { Context, MiddlewareHandler } from 'hono';

/** How long a refused body may keep arriving, discarded, after its 413 was sent whole. */
const DRAIN_MS = 10_000;

/**
 * 413 for a body refused before it was read whole. The connection closes with it: left open, the
 * unread rest of the body would be taken for the client's next request on that socket.
 */
export const payloadTooLarge = (c: Context, message: string) => {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (incoming) closeAfterDraining(incoming);
  return c.json(errorBody(413, message), 413, { Connection: 'close' });
};

/**
 * Node closes a `Connection: close` answer's socket as soon as the answer is written (destroySoon).
 * A client still sending its body then meets a reset, and most (Node's fetch, curl with a large
 * body) report EPIPE/ECONNRESET and drop the 413 they were sent. Instead the server half-closes
 * (FIN after the answer: it arrives whole) and keeps reading, discarding the rest of the body
 * through the HTTP parser, until the client closes its side or DRAIN_MS have passed.
 */
function closeAfterDraining(incoming: IncomingMessage): void {
  const socket = incoming.socket;
  socket.destroySoon = () => {
    if (socket.writable) socket.end();
    // Nobody reads the refused body. The request's body stream (which pauses the message while its
    // queue is full) lets go of it, so it flows without a reader, discarded, and the socket, whose
    // reading stopped when the unread body filled that queue, reads again.
    incoming.removeAllListeners('data');
    incoming.resume();
    socket.resume();
    const timer = setTimeout(() => socket.destroy(), DRAIN_MS).unref();
    socket.once('close', () => clearTimeout(timer));
  };
}

/**
 * Refuses a body over `maxSize` bytes: at once by Content-Length, else as soon as the count passes it
 * while the route reads it. Nothing is read here (hono's bodyLimit buffers a chunked body whole
 * before the route runs, so a stranger's 60 MB was read before anyone asked who sent it): the route
 * authenticates first and reads the body only for a caller it lets in. An answer that left the body
 * unread closes the connection, so the server does not drain megabytes nobody will use.
 */
export const limitBody =
  (maxSize: number, message: string): MiddlewareHandler =>
  async (c, next) => {
    // @hono/node-server gives a GET or HEAD no body; asking for it would build the whole Request
    // (an AbortController, undici's Request) on every read (docs/benchmarks.md, "CPU per request").
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    const body = c.req.raw.body;
    if (!body) return next();
    const declared = c.req.header('content-length');
    if (declared !== undefined && !c.req.header('transfer-encoding') && Number(declared) > maxSize)
      return payloadTooLarge(c, message);
    const reader = body.getReader();
    let size = 0;
    let over = false;
    let read = false;
    const counted = new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          read = true;
          const { done, value } = await reader.read();
          if (done) return controller.close();
          size += value.byteLength;
          if (size <= maxSize) return controller.enqueue(value);
          over = true;
          await reader.cancel();
          controller.error(new AppError('PAYLOAD_TOO_LARGE', message));
        },
        cancel: (reason) => reader.cancel(reason),
      },
      { highWaterMark: 0 }, // pulled only when the route reads
    );
    c.req.raw = new Request(c.req.raw, { body: counted, duplex: 'half' } as RequestInit);
    await next();
    if (over) c.res = payloadTooLarge(c, message);
    else if (!read && c.res.status >= 400) c.res.headers.set('Connection', 'close');
  };

export const JSON_BODY_LIMIT = 1024 * 1024;

/** Every body but an upload's: JSON (or a webhook's bytes) up to 1 MB. */
export const jsonBodyLimit = limitBody(JSON_BODY_LIMIT, 'Request body exceeds the 1 MB limit');
