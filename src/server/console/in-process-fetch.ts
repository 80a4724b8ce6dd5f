// fetch() answered by this server's own routes in-process (Fastify's inject), as its HTTP server
// would answer them: how the jobs the console's server runs reach /api/v1 — the sandbox, or the
// proxy to the real service with whatever stands in front of it. Relative URLs are this server's.
import type { FastifyInstance } from 'fastify';

const SELF = 'http://console.internal';

export function inProcessFetch(app: FastifyInstance): typeof fetch {
  return async (input, init) => {
    const request = new Request(input instanceof Request ? input : new URL(String(input), SELF), init);
    const url = new URL(request.url);
    const payload = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    request.signal.throwIfAborted();
    const answer = await app.inject({
      method: request.method as 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
      url: url.pathname + url.search,
      headers: Object.fromEntries(request.headers),
      ...(payload ? { payload } : {}),
    });
    request.signal.throwIfAborted();
    const headers = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : String(value));
    }
    const empty = answer.statusCode === 204 || answer.statusCode === 304;
    return new Response(empty ? null : new Uint8Array(answer.rawPayload), { status: answer.statusCode, headers });
  };
}
