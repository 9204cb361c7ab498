import { randomBytes as cryptoRandomBytes } from 'node:crypto';
import type { Duplex } from 'node:stream';
import { AppError, type ErrorCode } from '../domain/app-error.ts';
import { systemClock, type Clock } from '../domain/clock.ts';
import { newRequestId } from './middleware/request-id.ts';

/** A request Node refused before the app saw it, and what it was answered. */
export interface ClientErrorAnswer {
  requestId: string;
  status: number;
  code: ErrorCode;
  /** Node's reason (`HPE_HEADER_OVERFLOW`, `HPE_INVALID_METHOD`…), never the client's bytes. */
  reason: string;
  clientIp: string | null;
}

const REASON_PHRASE: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' };

function classify(err: NodeJS.ErrnoException): { code: ErrorCode; message: string } {
  if (err.code === 'HPE_HEADER_OVERFLOW') {
    return { code: 'headers_too_large', message: 'the request line and headers are larger than the server accepts (16 KiB)' };
  }
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return { code: 'request_timeout', message: 'the request was not received in time' };
  }
  return { code: 'bad_request', message: 'the request is not valid HTTP/1.1' };
}

/** The whole HTTP/1.1 response, in the error shape of every other error (docs/api.md, "Errors"). */
function responseBytes(requestId: string, status: number, code: ErrorCode, message: string): Buffer {
  const body = JSON.stringify({ detail: { code, message } });
  const head = [
    `HTTP/1.1 ${status} ${REASON_PHRASE[status]}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Request-Id: ${requestId}`,
    'Cache-Control: no-store',
    'X-Content-Type-Options: nosniff',
    'Referrer-Policy: no-referrer',
    'Connection: close',
  ];
  return Buffer.from(`${head.join('\r\n')}\r\n\r\n${body}`);
}

/**
 * The server's `clientError` listener. Node answers requests it cannot parse (431 oversized
 * headers, 400 malformed, 408 too slow) before any app code runs, with a bare status line; this
 * answers them like every other error instead, with a fresh X-Request-Id, and reports each answer
 * to `onAnswer` (the log). A socket that is gone, or that already carries a response, is only closed.
 */
export function clientErrorListener(
  onAnswer: (answer: ClientErrorAnswer) => void = () => {},
  randomBytes: (size: number) => Buffer = cryptoRandomBytes,
  clock: Clock = systemClock,
): (err: NodeJS.ErrnoException, socket: Duplex) => void {
  return (err, socket) => {
    const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (err.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const { code, message } = classify(err);
    const status = new AppError(code, message).status;
    const requestId = newRequestId(randomBytes, clock());
    socket.end(responseBytes(requestId, status, code, message), () => socket.destroy());
    const clientIp = (socket as Duplex & { remoteAddress?: string }).remoteAddress ?? null;
    onAnswer({ requestId, status, code, reason: err.code ?? err.message, clientIp });
  };
}
