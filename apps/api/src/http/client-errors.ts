import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { type ErrorCode, errorBody, errorHelpLink } from '@folio/api';

/** Statuses Node gives a request it could not parse, beside the default 400, and their reasons. */
const STATUS_OF: Record<string, number> = { HPE_HEADER_OVERFLOW: 431, ERR_HTTP_REQUEST_TIMEOUT: 408 };
const REASON: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
};

/** Any byte of the request line outside printable ASCII (raw UTF-8 such as `año`). */
const rawNonAscii = (packet: Buffer | undefined) => {
  const line = packet?.subarray(0, packet.indexOf(13) >>> 0);
  return line?.some((b) => b > 0x7e) ?? false;
};

/**
 * Requests Node's HTTP parser refuses never reach the app; Node answers them a bare 400 with no body.
 * These get the API's error body instead. The parser (llhttp, even with `insecureHTTPParser`) refuses
 * any raw byte over 0x7F in the request target, so `?año=2025` sent unencoded cannot be read as
 * `año`: the answer says to percent-encode it (`a%C3%B1o`), which every HTTP library does itself.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Socket) => {
    const answered = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (err.code === 'ECONNRESET' || !socket.writable || answered?.headersSent) {
      socket.destroy();
      return;
    }
    const status = STATUS_OF[err.code ?? ''] ?? 400;
    const raw = status === 400 && rawNonAscii(err.rawPacket);
    const code: ErrorCode = raw ? 'request_target_invalid' : 'bad_request';
    const message = raw
      ? 'The request URL holds raw non-ASCII bytes: percent-encode it (año → a%C3%B1o)'
      : `Malformed HTTP request (${err.code ?? 'parse error'})`;
    const body = JSON.stringify(errorBody(status, message, { code }));
    socket.end(
      `HTTP/1.1 ${status} ${REASON[status]}\r\n` +
        'Content-Type: application/json\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `Link: ${errorHelpLink(code)}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
  });
}
