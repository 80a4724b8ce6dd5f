// Proxy mode (UPSTREAM_URL): /api/v1/* goes to the real service with the caller's Authorization
// header, so the console needs no CORS setup. Bodies stream both ways; the key is passed
// through and never stored or logged (Fastify's request log has no headers). With
// UPSTREAM_API_KEY the server sends its own key instead and the browser holds none: the real
// service's documentation says its key must never be exposed in client-side code (/console.json
// tells the console which of the two it is). Every status, 401 and 403 included, comes back as
// the service sent it; the console stops on either.
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import type { FastifyInstance } from 'fastify';
import { errorBody } from '../../contract/error-body';
import { importedChunk, type ImportAnswerObserver } from './import-observer';

// idempotency-key: the import's key goes through, so a service that honours it can (src/server/README.md, "Idempotency keys").
const FORWARDED_REQUEST_HEADERS = ['authorization', 'content-type', 'accept', 'accept-language', 'idempotency-key'] as const;
/** Hop-by-hop headers, and the ones fetch() invalidates by decoding and re-framing the body. */
const DROPPED_RESPONSE_HEADERS = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-encoding', 'content-length', 'upgrade']);
const UPSTREAM_TIMEOUT_MS = 120_000;

export async function registerProxy(
  app: FastifyInstance,
  upstreamUrl: string,
  fetchUpstream: typeof fetch = fetch,
  upstreamApiKey: string | null = null,
  observe: ImportAnswerObserver | null = null,
): Promise<void> {
  const base = upstreamUrl.replace(/\/+$/, '');
  const upstreamHost = new URL(base).host;

  await app.register((proxy, _options, done) => {
    // Leave every body unread: it is streamed to the upstream as it arrives.
    proxy.removeAllContentTypeParsers();
    proxy.addContentTypeParser('*', (_request, _payload, done) => done(null));

    proxy.all('/api/v1/*', async (request, reply) => {
      const headers = new Headers();
      for (const name of FORWARDED_REQUEST_HEADERS) {
        const value = request.headers[name];
        if (typeof value === 'string') headers.set(name, value);
      }
      // The server's key replaces whatever the browser sent (it should send none).
      if (upstreamApiKey !== null) headers.set('authorization', `Bearer ${upstreamApiKey}`);
      const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
      let upstream: Response;
      try {
        upstream = await fetchUpstream(`${base}${request.url}`, {
          method: request.method,
          headers,
          body: hasBody ? (Readable.toWeb(request.raw) as ReadableStream<Uint8Array>) : undefined,
          duplex: 'half',
          redirect: 'manual',
          signal: AbortSignal.timeout(UPSTREAM_TIMEOUT_MS),
        } as RequestInit);
      } catch {
        return reply
          .code(502)
          .send(errorBody('upstream_unavailable', `The tracking service at ${upstreamHost} could not be reached; try again in a moment.`));
      }
      // A copy of the answer for the team history: the client's stream is not held back by it.
      if (observe && upstream.ok && importedChunk(request)) {
        const copy = upstream.clone();
        observe(request, upstream.status, () => copy.text());
      }
      reply.code(upstream.status);
      upstream.headers.forEach((value, name) => {
        if (!DROPPED_RESPONSE_HEADERS.has(name)) reply.header(name, value);
      });
      return reply.send(upstream.body ? Readable.fromWeb(upstream.body as NodeReadableStream) : null);
    });
    done();
  });
}
