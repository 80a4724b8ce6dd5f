// Jobs the console's server runs, through its endpoints and against the sandbox in-process: a job
// made by Send finishes with every row once and no tab open; a restart mid-job (the app closed,
// a new one built on the same CONSOLE_DB and SANDBOX_DB) resumes it with no row sent twice; a
// pasted key is not kept across a restart, and its jobs wait for it; workspaces see only their own.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { NewServerJob } from '../../contract/server-jobs';
import { accountJob } from '../../jobs/accounting';
import type { BatchOutcome, ImportJob } from '../../jobs/import-job';
import { jobDatabasePath, SqliteJobDatabase } from '../../jobs/storage/sqlite-storage';
import { containerCheckDigit } from '../../spreadsheet/iso6346';
import { buildApp } from '../app';
import { testConfig, type ServerConfig } from '../config';
import { consoleServerTestBed, serverJobOf } from '../test-support';
import { inProcessFetch } from './in-process-fetch';
import { WAITING_FOR_KEY } from './job-host';

const KEY_A = 'workspace-a-key-0000000001';
const KEY_B = 'workspace-b-key-0000000002';
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const urlOf = (input: Parameters<typeof fetch>[0]) => new URL(input instanceof Request ? input.url : input instanceof URL ? input.href : input, 'http://console.internal');
const HEADERS = ['tracking_number', 'tracking_type', 'reference', 'carrier'];
/** Polls of one batch 50 ms apart rather than 10–15 s: the sandbox processes at once. */
const FAST_POLLS = { serverJobs: { pollSpacing: { spacingMs: 50, jitterMs: 0 } } };

const { files, started, close } = consoleServerTestBed('server-jobs');

async function server(overrides: Partial<ServerConfig>, deps: Parameters<typeof buildApp>[1] = FAST_POLLS): Promise<FastifyInstance> {
  return started(await buildApp(testConfig({ apiKeys: [{ key: KEY_A, workspace: 'a' }, { key: KEY_B, workspace: 'b' }], consoleRunsJobs: true, ...overrides }), deps));
}

/** `rows` valid container rows, each with its own reference, cut into CSV chunks of `chunkRows`. */
function newJob(rows: number, chunkRows: number, tag: string): NewServerJob {
  const numbered = Array.from({ length: rows }, (_, r) => {
    const first = `${tag}U${String(r).padStart(6, '0')}`;
    return { rowNumber: r + 2, cells: [`${first}${containerCheckDigit(first)}`, 'container', `${tag}-${r + 2}`, 'MAEU'] };
  });
  return serverJobOf(tag, HEADERS, numbered, chunkRows);
}

const send = (app: FastifyInstance, job: NewServerJob, key: string) =>
  app.inject({ method: 'POST', url: '/console/api/server-jobs', payload: JSON.stringify(job), headers: { ...bearer(key), 'content-type': 'application/json' } });

async function readJob(app: FastifyInstance, id: string, key: string): Promise<ImportJob> {
  const answer = await app.inject({ method: 'GET', url: `/console/api/server-jobs/${id}`, headers: bearer(key) });
  expect(answer.statusCode).toBe(200);
  return answer.json<{ job: ImportJob }>().job;
}

/** Waits for `done` of the job, answering an unknown chunk as the user would (Resend: its Idempotency-Key makes it the same batch). */
async function waitFor(app: FastifyInstance, id: string, key: string, done: (job: ImportJob) => boolean, resend = true): Promise<ImportJob> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const job = await readJob(app, id, key);
    expect(accountJob(job).readAddsUp).toBe(true);
    if (done(job)) return job;
    if (resend) {
      for (const chunk of job.chunks.filter((c) => c.state.status === 'unknown')) {
        await app.inject({ method: 'POST', url: `/console/api/server-jobs/${id}/decisions`, payload: { type: 'resend', chunkId: chunk.id }, headers: bearer(key) });
      }
    }
    if (Date.now() > deadline) throw new Error(`The job did not get there within a minute: ${JSON.stringify(job.chunks.map((c) => c.state.status))}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function shipmentsAt(service: FastifyInstance, key: string): Promise<number> {
  const answer = await service.inject({ method: 'GET', url: '/api/v1/shipments?page_size=1', headers: bearer(key) });
  return answer.json<{ pagination: { total: number } }>().pagination.total;
}

async function expectEveryRowOnce(app: FastifyInstance, job: ImportJob, rows: number, key: string): Promise<void> {
  expect(job.runState).toBe('finished');
  expect(job.chunks.every((c) => c.state.status === 'accepted')).toBe(true);
  const account = accountJob(job);
  expect(account).toMatchObject({ read: rows, sent: rows, skipped: 0, unknown: 0, totalRequests: rows, processed: rows, unmatched: 0 });
  expect([account.readAddsUp, account.sentMatchesBatches, account.everyRowOneItem]).toEqual([true, true, true]);
  const outcomes = await app.inject({ method: 'GET', url: `/console/api/server-jobs/${job.id}/outcomes`, headers: bearer(key) });
  const items = outcomes.json<{ data: BatchOutcome[] }>().data.flatMap((outcome) => outcome.items);
  expect(items).toHaveLength(rows);
  expect(new Set(items.map((item) => item?.rowNumber)).size).toBe(rows);
  expect(items.every((item) => item?.creationStatus === 'created')).toBe(true);
}

describe('jobs the console server runs (sandbox mode)', () => {
  it('sends a job handed over by Send with no browser watching: every row once, the accounting holds, other workspaces see nothing of it', async () => {
    const app = await server(files());
    const job = newJob(600, 200, 'SEND');
    const made = await send(app, job, KEY_A);
    expect(made.statusCode).toBe(201);
    expect(made.json<{ job: ImportJob }>().job).toMatchObject({ id: job.id, runsOn: 'console-server', sentBy: 'Ana', runState: 'running' });

    const finished = await waitFor(app, job.id, KEY_A, (j) => j.finishedAt !== null);
    await expectEveryRowOnce(app, finished, 600, KEY_A);
    expect(await shipmentsAt(app, KEY_A)).toBe(600);
    const payload = await app.inject({ method: 'GET', url: `/console/api/server-jobs/${job.id}/payloads/1`, headers: bearer(KEY_A) });
    expect(payload.json<{ rowNumbers: number[] }>().rowNumbers).toEqual(job.chunks[1]!.rowNumbers);
    // The team history holds it, with who sent it and where it ran.
    const team = await app.inject({ method: 'GET', url: `/console/api/jobs/${job.id}`, headers: bearer(KEY_A) });
    expect(team.json<{ job: { sentBy: string; runsOn: string; finished: boolean } }>().job).toMatchObject({ sentBy: 'Ana', runsOn: 'console-server', finished: true });

    // Workspace b: nothing listed, the id unknown, no decision taken.
    expect((await app.inject({ method: 'GET', url: '/console/api/server-jobs', headers: bearer(KEY_B) })).json()).toEqual({ data: [] });
    expect((await app.inject({ method: 'GET', url: `/console/api/server-jobs/${job.id}`, headers: bearer(KEY_B) })).statusCode).toBe(404);
    const cancel = await app.inject({ method: 'POST', url: `/console/api/server-jobs/${job.id}/decisions`, payload: { type: 'cancel' }, headers: bearer(KEY_B) });
    expect(cancel.statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: `/console/api/server-jobs/${job.id}/outcomes`, headers: bearer(KEY_B) })).json()).toEqual({ data: [] });
    expect((await app.inject({ method: 'GET', url: '/console/api/server-jobs' })).statusCode).toBe(401);
  }, 90_000);

  it('resumes every unfinished job after a restart mid-job: the chunk being sent becomes unknown, is resent under its key, and no row is sent twice', async () => {
    const where = files();
    const slow = { ...where, importLimit: 4, importWindowS: 1, rowDelayMs: 5 };
    // The first server's 4th import reaches the sandbox, and the server stops before its answer comes back.
    let self: FastifyInstance | null = null;
    let imports = 0;
    let madeFourth: () => void = () => undefined;
    const fourthMade = new Promise<void>((resolve) => (madeFourth = resolve));
    const cutOff: typeof fetch = async (input, init) => {
      const answer = await inProcessFetch(self!)(input, init);
      if (init?.method === 'POST' && urlOf(input).pathname.endsWith('/imports/file') && ++imports === 4) {
        madeFourth();
        return new Promise<Response>((_resolve, reject) => init.signal?.addEventListener('abort', () => reject(new DOMException('stopped', 'AbortError'))));
      }
      return answer;
    };
    const first = await server(slow, { serverJobs: { ...FAST_POLLS.serverJobs, serviceFetch: () => cutOff } });
    self = first;
    const job = newJob(1_000, 100, 'BOOT');
    expect((await send(first, job, KEY_A)).statusCode).toBe(201);
    await fourthMade;
    await close(first);

    const second = await server(slow);
    const resumed = await readJob(second, job.id, KEY_A);
    // Never resent silently: the chunk the stop cut off waits for the user; the rest goes on.
    expect(resumed.chunks.slice(0, 4).map((c) => c.state.status)).toEqual(['accepted', 'accepted', 'accepted', 'unknown']);
    const finished = await waitFor(second, job.id, KEY_A, (j) => j.finishedAt !== null);
    await expectEveryRowOnce(second, finished, 1_000, KEY_A);
    // The sandbox holds each shipment once: the unknown chunk, resent under its Idempotency-Key, was answered with its first batch.
    expect(await shipmentsAt(second, KEY_A)).toBe(1_000);
  }, 120_000);
});

describe('jobs the console server runs with a pasted key (proxy mode)', () => {
  it('has no such endpoints where the console server runs no jobs (CONSOLE_RUNS_JOBS off): nothing to keep rows or a key', async () => {
    const app = await server({ ...files(), consoleRunsJobs: false });
    expect((await send(app, newJob(3, 3, 'OFF'), KEY_A)).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: '/console/api/server-jobs', headers: { authorization: `Bearer ${KEY_A}` } })).statusCode).toBe(404);
  });

  it('keeps the key in memory only: after a restart the job waits, saying so, until a request carries the key', async () => {
    const service = await server({ ...files(), importLimit: 2, importWindowS: 1, rowDelayMs: 10 });
    const upstream = inProcessFetch(service);
    const where = files();
    const proxy = (): Promise<FastifyInstance> => server({ ...where, upstreamUrl: 'http://service.test', upstreamApiKey: null }, { ...FAST_POLLS, fetchUpstream: (input, init) => upstream(urlOf(input).pathname + urlOf(input).search, init) });
    const first = await proxy();
    const job = newJob(600, 100, 'PAST');
    expect((await send(first, job, KEY_A)).statusCode).toBe(201);
    await waitFor(first, job.id, KEY_A, (j) => j.chunks.some((c) => c.state.status === 'accepted'), false);
    await close(first);

    const second = await proxy();
    const database = new SqliteJobDatabase(jobDatabasePath(where.consoleDbPath));
    try {
      // Read beside the server, with no request that would carry the key.
      const stored = database.storage(database.workspacesWithUnfinishedJobs()[0]!);
      const [waiting] = await stored.list();
      expect(waiting).toMatchObject({ id: job.id, runState: 'paused', pausedReason: WAITING_FOR_KEY });
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      // Nothing sent meanwhile: its chunks are as they were.
      expect((await stored.get(job.id))?.chunks.map((c) => c.state.status)).toEqual(waiting!.chunks.map((c) => c.state.status));
      expect(waiting!.chunks.some((c) => c.state.status === 'pending')).toBe(true);
    } finally {
      database.close();
    }
    // A browser holding the key connects: the job goes on and finishes, every row once.
    const finished = await waitFor(second, job.id, KEY_A, (j) => j.finishedAt !== null);
    await expectEveryRowOnce(second, finished, 600, KEY_A);
    expect(await shipmentsAt(service, KEY_A)).toBe(600);
    // Never on disk: no file of the console's server (its databases and their WAL) holds the key.
    const folder = dirname(where.consoleDbPath);
    const stored = readdirSync(folder).map((name) => ({ name, bytes: readFileSync(join(folder, name)) }));
    expect(stored.map((file) => file.name)).toEqual(expect.arrayContaining(['console.sqlite', 'console-jobs.sqlite']));
    expect(stored.filter((file) => file.bytes.includes(KEY_A)).map((file) => file.name)).toEqual([]);
  }, 120_000);
});

describe('jobs the console server runs with its own key (proxy mode with UPSTREAM_API_KEY)', () => {
  it('sends a job handed over by a browser that holds no key: every row once', async () => {
    const service = await server(files());
    const upstream = inProcessFetch(service);
    const proxy = await server({ ...files(), upstreamUrl: 'http://service.test', upstreamApiKey: KEY_A }, { ...FAST_POLLS, fetchUpstream: (input, init) => upstream(urlOf(input).pathname + urlOf(input).search, init) });
    const job = newJob(300, 100, 'HELD');
    const handed = await proxy.inject({ method: 'POST', url: '/console/api/server-jobs', payload: JSON.stringify(job), headers: { 'content-type': 'application/json' } });
    expect(handed.statusCode).toBe(201);
    const keyless = async (id: string) => (await proxy.inject({ method: 'GET', url: `/console/api/server-jobs/${id}` })).json<{ job: ImportJob }>().job;
    const deadline = Date.now() + 30_000;
    let seen = await keyless(job.id);
    while (seen.finishedAt === null && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      seen = await keyless(job.id);
    }
    expect(seen.chunks.map((c) => c.state.status)).toEqual(['accepted', 'accepted', 'accepted']);
    expect(seen.finishedAt).not.toBeNull();
    expect(await shipmentsAt(service, KEY_A)).toBe(300);
  }, 60_000);
});
