// Network faults, switched on only for the phase under test: by Playwright routing on the API's
// paths (a 500, a 429 storm, slow answers, a request handled and its answer cut), or by a proxy
// that drops the browser's socket after the sandbox has answered, as a network does.
import { createServer, request as httpRequest } from 'node:http';
import type { BrowserContext, Route } from '@playwright/test';

export type NetFaultKind = '500' | '429' | 'slow' | 'drop';

export interface NetFault {
  on: () => void;
  off: () => void;
  /** Requests the service has handled while their answer is held back (`slow` only). */
  held?: () => number;
  /** Requests the fault answered (or held back, or cut) while it was on. */
  hits: () => number;
}

const API = /\/api\/v1\//;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One kind of fault on every `/api/v1/` request of the context while switched on:
 * `500` answers 500 without the service seeing the request; `429` answers a 429 with Retry-After
 * and rate-limit headers (the service does not see it either); `slow` lets the service answer
 * and holds the answer back `slowMs`; `drop` lets the service handle the request and then cuts
 * the connection, so the caller cannot know whether an import was taken.
 */
export async function installNetFault(context: BrowserContext, kind: NetFaultKind, slowMs = 2_000, method?: 'POST'): Promise<NetFault> {
  let active = false;
  let hits = 0;
  let held = 0;
  await context.route(API, async (route: Route) => {
    if (!active || (method && route.request().method() !== method)) return route.fallback();
    hits++;
    switch (kind) {
      case '500':
        return route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ errors: [{ code: 'internal', message: 'Injected server error.', target: null }] }) });
      case '429': {
        const reset = Math.ceil(Date.now() / 1000) + 1;
        return route.fulfill({
          status: 429,
          contentType: 'application/json',
          headers: { 'Retry-After': '1', 'X-RateLimit-Limit': '20', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': String(reset) },
          body: JSON.stringify({ errors: [{ code: 'rate_limited', message: 'Too many requests; try again in 1 second.', target: null }] }),
        });
      }
      case 'slow': {
        const response = await route.fetch().catch(() => null);
        if (response) held++;
        await sleep(slowMs);
        if (!response) return route.abort('connectionreset').catch(() => undefined);
        return route.fulfill({ response }).catch(() => undefined);
      }
      case 'drop':
        // The service handles it (an import is taken), then the answer is lost.
        await route.fetch().catch(() => null);
        return route.abort('connectionreset').catch(() => undefined);
    }
  });
  return { on: () => void (active = true), off: () => void (active = false), hits: () => hits, held: () => held };
}

/**
 * Dropped connections as a network drops them: an HTTP proxy in front of the sandbox that, while
 * on, lets the sandbox handle each `/api/v1/` request and then destroys the browser's socket
 * instead of passing the answer on. Unlike `route.abort()`, this is what Chromium's own network
 * stack sees, so whatever it does about a reset keep-alive connection happens too.
 */
export async function startDropProxy(target: string): Promise<NetFault & { url: string; stop: () => Promise<void> }> {
  const upstream = new URL(target);
  let active = false;
  let hits = 0;
  const server = createServer((req, res) => {
    const drop = active && (req.url ?? '').startsWith('/api/v1/');
    const proxied = httpRequest({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      if (drop) {
        hits++;
        answer.resume();
        answer.on('end', () => req.socket.destroy());
        return;
      }
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    proxied.on('error', () => req.socket.destroy());
    req.pipe(proxied);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    on: () => void (active = true),
    off: () => void (active = false),
    hits: () => hits,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
