// Requests Node's HTTP parser refuses before any route sees them: a URL and headers over
// http.maxHeaderSize (16 KB unless --max-http-header-size says otherwise), a malformed request, one
// that took too long to arrive. They get the `{errors:[…]}` body of DESIGN §3 like every other
// error, not a bare status line. The limit itself stays: it bounds what one request holds in memory.
import { maxHeaderSize, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { errorBody } from '../contract/error-body';

const headerKb = Math.floor(maxHeaderSize / 1024);

/** The status and body for a request the parser refused, by Node's error code. */
function clientErrorAnswer(code: string | undefined): { status: number; body: ReturnType<typeof errorBody> } {
  if (code === 'HPE_HEADER_OVERFLOW') {
    return {
      status: 431,
      body: errorBody(
        'too_large',
        `The request's URL and headers are over ${headerKb} KB, more than this service reads.`,
        null,
        'Shorten the URL: a shipment whose reference is this long can be updated by its id (PATCH /api/v1/shipments/id/{id}).',
      ),
    };
  }
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return { status: 408, body: errorBody('bad_request', 'The request did not arrive in time; send it again.') };
  }
  return { status: 400, body: errorBody('bad_request', 'The request could not be read as HTTP.') };
}

/** A `clientError` listener (Fastify's clientErrorHandler, or a plain http.Server's event). */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  // A reset connection has no one left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  if (socket.writable) {
    const { status, body } = clientErrorAnswer(error.code);
    const json = JSON.stringify(body);
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(json)}\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${json}`,
    );
  }
  socket.destroy(error);
}
