// Helpers for the sandbox's in-process tests: an app on a throwaway store, the demo key's
// header, multipart bodies and polling a batch to its final status.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { Batch } from '../contract/batch';
import type { NewServerJob } from '../contract/server-jobs';
import { isFinalBatchStatus } from '../contract/batch';
import { buildApp } from './app';
import { testConfig, type ServerConfig } from './config';
import { sharedParsePool } from './sandbox/parsing/parse-pool';
import type { ApiDependencies } from './register-api';
import { DEMO_API_KEY } from './sandbox/sandbox-keys';

/** The sandbox's demo key, for tests that hand it to a proxy as its own key. */
export { DEMO_API_KEY };
/** The sandbox's seeded draws of SANDBOX_FAULTS, for tests of the console's side that meet the same faults on every run. */
export { seededRandom } from './sandbox/faults';

export const AUTH = { authorization: `Bearer ${DEMO_API_KEY}` };

/**
 * Loads the sandbox's upload parse pool (a worker takes seconds to load through tsx on a busy
 * machine), for a `beforeAll` with a long timeout, so that no single test pays for it.
 */
export async function warmParsePool(overrides: Partial<ServerConfig> = {}): Promise<void> {
  await parsePoolOf(testConfig(overrides)).ready();
}

/**
 * Ends the parse pool an app of this config shares: `app.close()` leaves the pool to the next
 * app. An idle pool does not hold the process (its workers are unref'd); this frees its threads
 * at once, for a script that goes on without it.
 */
export async function closeParsePool(config: ServerConfig): Promise<void> {
  await parsePoolOf(config).close();
}

const parsePoolOf = (config: ServerConfig) =>
  sharedParsePool({ workers: config.parseWorkers, timeoutMs: config.parseTimeoutMs, heapMb: config.parseHeapMb });

export async function sandbox(overrides: Partial<ServerConfig> = {}, deps: ApiDependencies = {}): Promise<FastifyInstance> {
  const app = await buildApp(testConfig(overrides), deps);
  await app.ready();
  return app;
}

export function multipartBody(
  content: string | Uint8Array,
  fileName: string,
  fieldName = 'file',
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = '----sandbox-test-boundary';
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="${fieldName}"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  const payload = Buffer.concat([Buffer.from(head), Buffer.from(content), Buffer.from(`\r\n--${boundary}--\r\n`)]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

export function uploadFile(
  app: FastifyInstance,
  content: string | Uint8Array,
  fileName = 'shipments.csv',
  headers: Record<string, string> = AUTH,
): Promise<LightMyRequestResponse> {
  const body = multipartBody(content, fileName);
  return app.inject({ method: 'POST', url: '/api/v1/shipments/imports/file', payload: body.payload, headers: { ...headers, ...body.headers } });
}

export function importList(app: FastifyInstance, rows: unknown, headers: Record<string, string> = AUTH): Promise<LightMyRequestResponse> {
  return app.inject({ method: 'POST', url: '/api/v1/shipments/imports', payload: JSON.stringify(rows), headers: { ...headers, 'content-type': 'application/json' } });
}

export async function readBatch(app: FastifyInstance, id: string, headers: Record<string, string> = AUTH): Promise<Batch> {
  const response = await app.inject({ method: 'GET', url: `/api/v1/shipments/imports/${id}`, headers });
  if (response.statusCode !== 200) throw new Error(`batch ${id}: HTTP ${response.statusCode} ${response.body}`);
  return response.json<Batch>();
}

/** Polls like a client does, only faster; fails the test if the batch does not finish in time. */
export async function waitForBatch(app: FastifyInstance, id: string, timeoutMs = 5000, headers: Record<string, string> = AUTH): Promise<Batch> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const batch = await readBatch(app, id, headers);
    if (isFinalBatchStatus(batch.status)) return batch;
    if (Date.now() > deadline) throw new Error(`batch ${id} still ${batch.status} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * For a test file of console servers on throwaway databases: `files()` gives a fresh sandbox and
 * console database each call; every app `started` is closed after its test, the files are
 * removed after the file's last, and the parse pool is warmed first and freed at the end.
 */
export function consoleServerTestBed(prefix: string): {
  files: () => Pick<ServerConfig, 'dbPath' | 'consoleDbPath'>;
  /** The app kept to be closed after the test, once ready. */
  started: (app: FastifyInstance) => Promise<FastifyInstance>;
  /** Closes the app now (a server stopped mid-test). */
  close: (app: FastifyInstance) => Promise<void>;
} {
  const dirs: string[] = [];
  const apps: FastifyInstance[] = [];
  beforeAll(async () => {
    await warmParsePool();
  }, 120_000);
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((app) => app.close()));
  });
  afterAll(async () => {
    dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true }));
    await closeParsePool(testConfig());
  });
  return {
    async started(app) {
      apps.push(app);
      await app.ready();
      return app;
    },
    async close(app) {
      apps.splice(apps.indexOf(app), 1);
      await app.close();
    },
    files() {
      const dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
      dirs.push(dir);
      return { dbPath: join(dir, 'sandbox.sqlite'), consoleDbPath: join(dir, 'console.sqlite') };
    },
  };
}

/** A job as Send hands it to the console's server: `rows` (cells under `headers`, reference third) cut into CSV chunks of `chunkRows`. */
export function serverJobOf(tag: string, headers: string[], rows: { rowNumber: number; cells: string[] }[], chunkRows: number): NewServerJob {
  const chunks = [];
  for (let at = 0; at < rows.length; at += chunkRows) {
    const piece = rows.slice(at, at + chunkRows);
    chunks.push({
      rowNumbers: piece.map((row) => row.rowNumber),
      withoutReference: piece.filter((row) => row.cells[2] === '').length,
      body: { format: 'csv' as const, csv: [headers, ...piece.map((row) => row.cells)].map((line) => line.join(',')).join('\r\n') },
    });
  }
  return {
    id: randomUUID(),
    createdAt: Date.now(),
    source: { kind: 'file', fileName: `${tag}.csv`, size: null, contentHash: null },
    endpoint: 'file',
    headers,
    chunkRows,
    rowsRead: rows.length,
    numbering: 'Line',
    skippedBeforeSend: [],
    notify: false,
    sentBy: 'Ana',
    chunks,
  };
}
