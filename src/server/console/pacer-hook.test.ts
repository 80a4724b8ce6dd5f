import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterEach, describe, expect, test } from 'vitest';
import { pacingSchema } from '../../contract/pacing';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { AUTH, DEMO_API_KEY, sandbox } from '../test-support';
import { jobOf } from './pacer-hook';

let apps: FastifyInstance[] = [];
afterEach(async () => {
  await Promise.all(apps.map((app) => app.close()));
  apps = [];
});

async function open(overrides: Parameters<typeof sandbox>[0] = {}, deps: Parameters<typeof sandbox>[1] = {}): Promise<FastifyInstance> {
  const app = await sandbox(overrides, deps);
  apps.push(app);
  return app;
}

const rows = (job: string, chunk: number) => [{ reference: `${job}-${chunk}`, tracking_number: 'MSCU1234566', tracking_type: 'container', carrier_scac: 'MSCU' }];

/** One import of `job`'s chunk, named as the console names it. */
function importChunk(app: FastifyInstance, job: string, chunk: number): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url: '/api/v1/shipments/imports',
    payload: JSON.stringify(rows(job, chunk)),
    headers: { ...AUTH, 'content-type': 'application/json', 'idempotency-key': `${job}:${chunk}` },
  });
}

/** Three jobs of three chunks each, sending at once, each one chunk after the other as the console's submit queue does. */
async function threeSenders(app: FastifyInstance) {
  const started = Date.now();
  const sent = await Promise.all(
    ['job-aaaa1111', 'job-bbbb2222', 'job-cccc3333'].map(async (job) => {
      const answers = [];
      for (const chunk of [0, 1, 2]) answers.push({ job, chunk, answer: await importChunk(app, job, chunk), at: Date.now() - started });
      return answers;
    }),
  );
  return sent.flat();
}

const SMALL_LIMIT = { importLimit: 4, importWindowS: 1 };

/** Answers grouped by the window that let them through: a pause of over 300 ms starts the next. */
function windowsOf<T extends { at: number }>(answers: readonly T[]): T[][] {
  const windows: T[][] = [];
  let last = Number.NEGATIVE_INFINITY;
  for (const answer of [...answers].sort((a, b) => a.at - b.at)) {
    if (answer.at - last > 300) windows.push([]);
    windows.at(-1)?.push(answer);
    last = answer.at;
  }
  return windows;
}

describe('the job a request works for', () => {
  test('is the import’s Idempotency-Key job, or the X-Console-Job a poll names; else none (a person’s request)', () => {
    expect(jobOf({ method: 'POST', url: '/api/v1/shipments/imports/file', headers: { 'idempotency-key': 'job-aaaa1111:3' } })).toBe('job-aaaa1111');
    expect(jobOf({ method: 'GET', url: '/api/v1/shipments/imports/b-1', headers: { 'x-console-job': 'job-bbbb2222' } })).toBe('job-bbbb2222');
    expect(jobOf({ method: 'GET', url: '/api/v1/shipments/imports/b-1', headers: { 'x-console-job': 'not a job id!' } })).toBeNull();
    expect(jobOf({ method: 'GET', url: '/api/v1/shipments?page=2', headers: {} })).toBeNull();
  });
});

describe('the pacer in front of the sandbox', () => {
  test('without it, nine imports against a limit of 4 meet the sandbox’s 429s (the case it exists for)', async () => {
    const app = await open({ ...SMALL_LIMIT, consolePacer: false });
    const answers = await threeSenders(app);
    expect(answers.filter(({ answer }) => answer.statusCode === 429).length).toBeGreaterThan(0);
  });

  test('with it, the same nine imports are held instead: no 429, every one accepted, each window used to its limit', async () => {
    const app = await open(SMALL_LIMIT);
    const answers = await threeSenders(app);
    expect(answers.map(({ answer }) => answer.statusCode)).toEqual(Array(9).fill(202));
    // ⌈9 ÷ 4⌉ = 3 windows of a second: the last ones go in the third.
    expect(Math.max(...answers.map(({ at }) => at))).toBeGreaterThanOrEqual(1_500);
    // Round robin: every job has a chunk in each of the first two windows, none waits for another's whole job.
    // The windows are told apart by the pause between them (most of a second), not by the order of
    // answers inside one: those released together arrive in any order, milliseconds apart.
    const windows = windowsOf(answers);
    expect(windows.length).toBe(3);
    for (const window of windows.slice(0, 2)) expect(new Set(window.map((a) => a.job))).toEqual(new Set(['job-aaaa1111', 'job-bbbb2222', 'job-cccc3333']));
    // Each answer says how long the pacer held it.
    expect(answers[0]!.answer.headers['server-timing']).toMatch(/^pacer;dur=\d+(\.\d+)?;desc="(free|held)"$/);
  });

  test('a page of shipments asked while jobs wait for import slots is answered at once', async () => {
    const app = await open({ importLimit: 1, importWindowS: 5 });
    const first = await importChunk(app, 'job-aaaa1111', 0);
    expect(first.statusCode).toBe(202);
    const held = importChunk(app, 'job-aaaa1111', 1);
    const started = Date.now();
    const page = await app.inject({ url: '/api/v1/shipments?page=1', headers: AUTH });
    expect(page.statusCode).toBe(200);
    expect(Date.now() - started).toBeLessThan(2_000);

    const view = pacingSchema.parse((await app.inject({ url: '/console/api/pacing', headers: AUTH })).json());
    expect(view.jobsSending).toEqual(['job-aaaa1111']);
    expect(view.queued.imports).toBe(1);
    expect(view.nextImportSlotInMs).toBeGreaterThan(2_000);
    expect((await held).statusCode).toBe(202);
  }, 15_000);

  test('a job is sending while it has chunks to send; once the service accepted its last, it is waiting for results, then gone once finished: waiting for results, then gone once finished', async () => {
    const app = await open({ importLimit: 4, importWindowS: 5 });
    const job = 'job-aaaa1111';
    const report = (finished: boolean, status: 'pending' | 'accepted') => ({
      source: { kind: 'file', name: 'team.csv', size: 100, contentHash: 'a'.repeat(64), retryOf: null },
      numbering: 'Line',
      sentBy: 'Ana',
      createdAt: 1_764_000_000_000,
      version: finished ? 1_764_000_000_002 : 1_764_000_000_001,
      state: finished ? 'Finished' : 'Sending',
      finished,
      rowsRead: 2,
      rowsSkipped: 0,
      counts: { created: 0, updated: 0, failed: 0, withWarnings: 0, trackingFailed: 0 },
      chunks: [0, 1].map((id) => ({ id, firstRow: 2 + id, lastRow: 2 + id, rowCount: 1, status, batchId: null, note: null })),
    });
    const put = (body: object) => app.inject({ method: 'PUT', url: `/console/api/jobs/${job}`, headers: AUTH, payload: body });
    const pacing = async () => pacingSchema.parse((await app.inject({ url: '/console/api/pacing', headers: AUTH })).json());
    expect((await put(report(false, 'pending'))).statusCode).toBe(200);
    expect((await importChunk(app, job, 0)).statusCode).toBe(202);
    // Chunk 1 still to send.
    expect((await pacing()).jobsSending).toEqual([job]);
    expect((await importChunk(app, job, 1)).statusCode).toBe(202);
    const sent = await pacing();
    expect(sent.jobsSending).toEqual([]);
    expect(sent.jobsWaitingForResults).toEqual([job]);
    expect((await put(report(true, 'accepted'))).statusCode).toBe(200);
    const finished = await pacing();
    expect([finished.jobsSending, finished.jobsWaitingForResults]).toEqual([[], []]);
  });

  test('the pacing view needs the connection’s key, and shows nothing of another workspace', async () => {
    const app = await open({ apiKeys: [{ key: DEMO_API_KEY, workspace: 'demo' }, { key: 'other-workspace-key-1234', workspace: 'other' }], importLimit: 1, importWindowS: 5 });
    expect((await app.inject({ url: '/console/api/pacing' })).statusCode).toBe(401);
    await importChunk(app, 'job-aaaa1111', 0);
    const other = pacingSchema.parse((await app.inject({ url: '/console/api/pacing', headers: { authorization: 'Bearer other-workspace-key-1234' } })).json());
    expect(other.jobsSending).toEqual([]);
  });
});

describe('the pacer in front of the proxy', () => {
  test('a 429 from the service holds the next request of the workspace for its Retry-After, whoever sends it', async () => {
    const reached: number[] = [];
    let answer429 = true;
    const fetchUpstream: typeof fetch = () => {
      reached.push(Date.now());
      if (answer429) {
        answer429 = false;
        return Promise.resolve(new Response('{"errors":[]}', { status: 429, headers: { 'retry-after': '1', 'x-ratelimit-limit': '1500', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000) + 1) } }));
      }
      return Promise.resolve(new Response('{"data":[],"pagination":{"page":1,"page_size":25,"total":0,"total_pages":0}}', { status: 200, headers: { 'content-type': 'application/json' } }));
    };
    const app = await buildApp({ ...loadConfig({ UPSTREAM_URL: 'https://tracking.example.com', UPSTREAM_API_KEY: 'server-held-key-123456', CONSOLE_DB: ':memory:', LOG_LEVEL: 'silent' }) }, { fetchUpstream });
    apps.push(app);
    expect((await app.inject({ url: '/api/v1/shipments' })).statusCode).toBe(429);
    const second = await app.inject({ url: '/api/v1/shipments' });
    expect(second.statusCode).toBe(200);
    expect(reached[1]! - reached[0]!).toBeGreaterThanOrEqual(900);
  });
});
