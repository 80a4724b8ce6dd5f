// Serves the built console (dist/) with an SPA fallback: any GET for a page that is not a file
// and not under /api gets index.html, so bookmarked URLs like /imports/<id> load.
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { errorBody } from '../../contract/error-body';

export async function serveConsole(app: FastifyInstance, consoleDir: string): Promise<void> {
  await app.register(fastifyStatic, {
    root: consoleDir,
    index: ['index.html'],
    setHeaders(reply, filePath) {
      // Hashed assets never change; index.html must be revalidated to pick up a new build.
      reply.header('Cache-Control', filePath.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
}

export function notFoundHandler(app: FastifyInstance, hasConsole: boolean): void {
  app.setNotFoundHandler(async (request, reply) => {
    const isPage =
      hasConsole &&
      request.method === 'GET' &&
      !request.url.startsWith('/api/') &&
      (request.headers.accept ?? '').includes('text/html');
    if (isPage) {
      return reply.header('Cache-Control', 'no-cache').sendFile('index.html');
    }
    return reply
      .code(404)
      .send(errorBody('not_found', `There is no ${request.method} ${request.url.split('?')[0]} here.`));
  });
}
