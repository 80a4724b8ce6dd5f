// `npm run dev`: Vite with hot reload for the console and the sandbox API in one process, on
// HOST:PORT. /api, /sandbox.json and /console.json go to Fastify; everything else to Vite.
import { createServer as createHttpServer } from 'node:http';
import { createServer as createViteServer } from 'vite';
import { buildApp } from './app';
import { answerClientError } from './client-error';
import { loadConfig } from './config';

const config = loadConfig({ LOG_LEVEL: 'info', ...process.env });
const app = await buildApp(config);
await app.ready();
const vite = await createViteServer({ server: { middlewareMode: true }, appType: 'spa' });

const server = createHttpServer((req, res) => {
  const url = req.url ?? '/';
  if (url.startsWith('/api/') || url.startsWith('/sandbox.json') || url.startsWith('/console.json')) {
    app.routing(req, res);
  } else {
    vite.middlewares(req, res);
  }
});
server.on('clientError', answerClientError);
server.listen(config.port, config.host, () => {
  console.log(`Dev console with hot reload on http://${config.host}:${config.port}`);
});
