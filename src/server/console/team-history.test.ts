import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import type { TeamChunkRows, TeamJob, TeamJobList, TeamJobReport } from '../../contract/team-history';
import { buildApp } from '../app';
import { testConfig, type ServerConfig } from '../config';
import { AUTH } from '../test-support';
import { ConsoleStore } from './console-store';

const KEY_A = 'workspace-a-key-0000000001';
const KEY_B = 'workspace-b-key-0000000002';
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const JOB = '3f0c6a52-9a4e-4c55-8f0e-7c1b2a9d1e01';

function report(overrides: Partial<TeamJobReport> = {}): TeamJobReport {
  return {
    source: { kind: 'file', name: 'weekly-46.csv', size: 1_234, contentHash: 'a'.repeat(64), retryOf: null },
    numbering: 'Line',
    sentBy: 'Ana',
    createdAt: 1_764_000_000_000,
    version: 1_764_000_000_000,
    state: 'Processing',
    finished: false,
    rowsRead: 3,
    rowsSkipped: 1,
    counts: { created: 0, updated: 0, failed: 0, withWarnings: 0, trackingFailed: 0 },
    chunks: [{ id: 0, firstRow: 2, lastRow: 3, rowCount: 2, status: 'accepted', batchId: 'batch-41', note: null }],
    skipped: [{ rowNumber: 4, reason: 'tracking_number is empty' }],
    ...overrides,
  };
}

const ROWS: TeamChunkRows = {
  rowNumbers: [2, 3],
  body: { format: 'csv', csv: 'tracking_number,tracking_type,reference\r\nMSKU1234565,container,PO-77\r\nMEDU7654321,container,\r\n' },
};

const dirs: string[] = [];
const apps: FastifyInstance[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

async function consoleServer(overrides: Partial<ServerConfig> = {}): Promise<FastifyInstance> {
  const app = await buildApp(testConfig(overrides), { fetchUpstream: () => Promise.reject(new Error('no upstream in this test')) });
  apps.push(app);
  return app;
}

const put = (app: FastifyInstance, url: string, body: unknown, headers: Record<string, string> = AUTH) =>
  app.inject({ method: 'PUT', url, payload: JSON.stringify(body), headers: { ...headers, 'content-type': 'application/json' } });
const get = (app: FastifyInstance, url: string, headers: Record<string, string> = AUTH) => app.inject({ method: 'GET', url, headers });

describe('the team history (sandbox mode)', () => {
  test('a job reported by the sender is listed, read, searched and traced from its batch by another browser of the workspace', async () => {
    const app = await consoleServer();
    expect((await put(app, `/console/api/jobs/${JOB}`, report())).json()).toEqual({ rowsKept: [] });
    expect((await put(app, `/console/api/jobs/${JOB}/chunks/0/rows`, ROWS)).statusCode).toBe(204);
    expect((await put(app, `/console/api/jobs/${JOB}`, report())).json()).toEqual({ rowsKept: [0] });

    const list = (await get(app, '/console/api/jobs')).json<TeamJobList>();
    expect(list.data).toHaveLength(1);
    expect(list.data[0]).toMatchObject({ id: JOB, sentBy: 'Ana', state: 'Processing', rowsSkipped: 1, batchIds: ['batch-41'] });
    expect(list.more).toBe(false);
    expect(list.data[0]?.source.name).toBe('weekly-46.csv');

    const job = (await get(app, `/console/api/jobs/${JOB}`)).json<{ job: TeamJob }>().job;
    expect(job.skipped).toEqual([{ rowNumber: 4, reason: 'tracking_number is empty' }]);
    expect(job.rowsKept).toEqual([0]);
    expect((await get(app, `/console/api/jobs/${JOB}/chunks/0/rows`)).json()).toEqual(ROWS);

    for (const search of ['weekly', 'batch-41', 'PO-77', JOB]) {
      const found = (await get(app, `/console/api/jobs?q=${encodeURIComponent(search)}`)).json<TeamJobList>();
      expect(found.data.map((line) => line.id), search).toEqual([JOB]);
    }
    for (const search of ['monthly', 'batch-4', 'PO-7', '%', '_']) {
      expect((await get(app, `/console/api/jobs?q=${encodeURIComponent(search)}`)).json<TeamJobList>().data, search).toEqual([]);
    }
    expect((await get(app, '/console/api/batches/batch-41')).json()).toEqual({ origin: { jobId: JOB, chunkId: 0, sourceName: 'weekly-46.csv', sentBy: 'Ana' } });
    expect((await get(app, '/console/api/batches/batch-4')).json()).toEqual({ origin: null });
  });

  test('a later report updates the job and keeps who sent it, and the skipped rows when it leaves them out', async () => {
    const app = await consoleServer();
    await put(app, `/console/api/jobs/${JOB}`, report());
    await put(app, `/console/api/jobs/${JOB}`, report({ version: 1_764_000_009_000, sentBy: 'Someone else', state: 'Finished', finished: true, counts: { created: 2, updated: 0, failed: 0, withWarnings: 0, trackingFailed: 1 }, skipped: undefined }));
    // A report of an older version, arriving late (another tab, a retried request), changes nothing.
    await put(app, `/console/api/jobs/${JOB}`, report({ version: 1_764_000_005_000, state: 'Processing', finished: false }));
    const job = (await get(app, `/console/api/jobs/${JOB}`)).json<{ job: TeamJob }>().job;
    expect(job).toMatchObject({ sentBy: 'Ana', state: 'Finished', finished: true, counts: { created: 2, trackingFailed: 1 } });
    expect(job.skipped).toEqual([{ rowNumber: 4, reason: 'tracking_number is empty' }]);
  });

  test("two workspaces never see, search, trace or overwrite each other's jobs", async () => {
    const app = await consoleServer({ apiKeys: [{ key: KEY_A, workspace: 'a' }, { key: KEY_B, workspace: 'b' }] });
    await put(app, `/console/api/jobs/${JOB}`, report(), bearer(KEY_A));
    await put(app, `/console/api/jobs/${JOB}/chunks/0/rows`, ROWS, bearer(KEY_A));

    expect((await get(app, '/console/api/jobs', bearer(KEY_B))).json<TeamJobList>().data).toEqual([]);
    expect((await get(app, '/console/api/jobs?q=PO-77', bearer(KEY_B))).json<TeamJobList>().data).toEqual([]);
    expect((await get(app, `/console/api/jobs/${JOB}`, bearer(KEY_B))).json()).toEqual({ job: null });
    expect((await get(app, '/console/api/batches/batch-41', bearer(KEY_B))).json()).toEqual({ origin: null });
    const rows = await get(app, `/console/api/jobs/${JOB}/chunks/0/rows`, bearer(KEY_B));
    expect(rows.statusCode).toBe(404);
    expect(rows.body).not.toContain('weekly-46');
    expect((await put(app, `/console/api/jobs/${JOB}`, report({ source: { ...report().source, name: 'hijack.csv' } }), bearer(KEY_B))).statusCode).toBe(404);
    expect((await put(app, `/console/api/jobs/${JOB}/chunks/0/rows`, ROWS, bearer(KEY_B))).statusCode).toBe(404);
    expect((await get(app, `/console/api/jobs/${JOB}`, bearer(KEY_A))).json<{ job: TeamJob }>().job.source.name).toBe('weekly-46.csv');
  });

  test('refuses a request without a key, with a key the sandbox does not know, and a disabled key', async () => {
    const app = await consoleServer({ disabledKeys: ['sandbox-demo-key-4173'] });
    const none = await get(app, '/console/api/jobs', {});
    expect(none.statusCode).toBe(401);
    expect(none.json<{ errors: { message: string }[] }>().errors[0]?.message).toBe('The team history needs the API key this console is connected with, in the Authorization header.');
    const unknown = await get(app, '/console/api/jobs', bearer('not-a-key-of-this-sandbox'));
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json<{ errors: { message: string }[] }>().errors[0]?.message).toBe('The team history needs an API key the service accepts, and it refuses the one this browser sent: connect again with a valid key.');
    const disabled = await get(app, '/console/api/jobs');
    expect(disabled.statusCode).toBe(401);
    expect(disabled.json()).toMatchObject({ errors: [{ code: 'unauthorized' }] });
  });

  test('answers a bad report with a sentence naming the field, and stores nothing', async () => {
    const app = await consoleServer();
    const bad = await put(app, `/console/api/jobs/${JOB}`, { ...report(), rowsRead: -1 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ errors: { message: string }[] }>().errors[0]?.message).toMatch(/^rowsRead: /);
    expect((await put(app, '/console/api/jobs/<script>', report())).statusCode).toBe(400);
    expect((await put(app, `/console/api/jobs/${JOB}/chunks/0/rows`, ROWS)).statusCode).toBe(404);
    expect((await get(app, '/console/api/jobs')).json<TeamJobList>().data).toEqual([]);
  });

  test('the name from the single-sign-on header wins over the typed one', async () => {
    const app = await consoleServer({ consoleUserHeader: 'x-forwarded-email' });
    await put(app, `/console/api/jobs/${JOB}`, report(), { ...AUTH, 'x-forwarded-email': 'ana@example.com' });
    expect((await get(app, `/console/api/jobs/${JOB}`)).json<{ job: TeamJob }>().job.sentBy).toBe('ana@example.com');
  });

  test('survives a restart of the console server', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'console-store-'));
    dirs.push(dir);
    const consoleDbPath = join(dir, 'console.sqlite');
    const first = await consoleServer({ consoleDbPath });
    await put(first, `/console/api/jobs/${JOB}`, report());
    await first.close();
    const second = await consoleServer({ consoleDbPath });
    expect((await get(second, '/console/api/jobs')).json<TeamJobList>().data.map((line) => line.id)).toEqual([JOB]);
  });
});

test('a connection learns an opaque tag of its workspace: the same for every key of it, another for another workspace', async () => {
  const KEY_A2 = 'workspace-a-key-0000000003';
  const app = await consoleServer({ apiKeys: [{ key: KEY_A, workspace: 'a' }, { key: KEY_A2, workspace: 'a' }, { key: KEY_B, workspace: 'b' }] });
  const tag = async (key: string) => (await get(app, '/console/api/workspace', bearer(key))).json<{ tag: string }>().tag;
  expect(await tag(KEY_A)).toBe(await tag(KEY_A2));
  expect(await tag(KEY_A)).not.toBe(await tag(KEY_B));
  expect(await tag(KEY_A)).toMatch(/^[0-9a-f]{32}$/);
  expect((await get(app, '/console/api/workspace', {})).statusCode).toBe(401);
});

describe('the team history in proxy mode', () => {
  test('with pasted keys, a browser sees only the jobs sent with a key it holds, and the key is never stored', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'console-store-'));
    dirs.push(dir);
    const consoleDbPath = join(dir, 'console.sqlite');
    const app = await consoleServer({ upstreamUrl: 'https://tracking.example.com', consoleDbPath });
    await put(app, `/console/api/jobs/${JOB}`, report(), bearer(KEY_A));
    expect((await get(app, '/console/api/jobs', bearer(KEY_A))).json<TeamJobList>().data).toHaveLength(1);
    expect((await get(app, '/console/api/jobs', bearer(KEY_B))).json<TeamJobList>().data).toEqual([]);
    expect((await get(app, `/console/api/jobs/${JOB}`, bearer(KEY_B))).json()).toEqual({ job: null });
    await app.close();
    const bytes = readFileSync(consoleDbPath).toString('latin1') + readFileSync(`${consoleDbPath}-wal`, { flag: 'a+' }).toString('latin1');
    expect(bytes).toContain('weekly-46.csv');
    expect(bytes).not.toContain(KEY_A);
  });

  test('with the key held by the server, every browser of this console is one workspace', async () => {
    const app = await consoleServer({ upstreamUrl: 'https://tracking.example.com', upstreamApiKey: 'server-held-key-000000000' });
    await put(app, `/console/api/jobs/${JOB}`, report(), {});
    expect((await get(app, '/console/api/jobs', {})).json<TeamJobList>().data.map((line) => line.id)).toEqual([JOB]);
  });
});

describe('the console store', () => {
  test('forgets jobs not reported for the kept days, with their rows as sent and references', () => {
    const store = new ConsoleStore(':memory:');
    store.reportJob('w', JOB, report(), 'Ana', 1_000);
    store.keepChunkRows('w', JOB, 0, ROWS);
    const recent = '0d7f0b7e-2c7b-4f3b-9d59-5b3e0c1f2a02';
    store.reportJob('w', recent, report({ source: { ...report().source, name: 'recent.csv' } }), null, 5_000);
    expect(store.forgetOlderThan(2_000)).toBe(1);
    expect(store.job('w', JOB)).toBeNull();
    expect(store.chunkRows('w', JOB, 0)).toBeNull();
    expect(store.list('w', 'PO-77').data).toEqual([]);
    expect(store.list('w').data.map((line) => line.source.name)).toEqual(['recent.csv']);
    store.close();
  });

  test('keeps at most so many jobs per workspace, forgetting the least recently reported', () => {
    const store = new ConsoleStore(':memory:', { jobsKept: 3 });
    const id = (n: number) => `job-${String(n).padStart(8, '0')}`;
    store.reportJob('other', id(99_999), report({ chunks: [] }), null, 0);
    for (let n = 1; n <= 4; n++) store.reportJob('w', id(n), report({ chunks: [] }), null, n);
    expect(store.job('w', id(1))).toBeNull();
    expect([2, 3, 4].map((n) => store.job('w', id(n))?.id)).toEqual([2, 3, 4].map(id));
    expect(store.job('other', id(99_999))).not.toBeNull();
    store.close();
  });

  test('keeps one secret per name across opens of the same file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'console-store-'));
    dirs.push(dir);
    const path = join(dir, 'console.sqlite');
    const first = new ConsoleStore(path);
    const secret = first.secret('pasted-key-fingerprint');
    first.close();
    const second = new ConsoleStore(path);
    expect(second.secret('pasted-key-fingerprint').equals(secret)).toBe(true);
    expect(second.secret('another').equals(secret)).toBe(false);
    second.close();
  });
});

describe('the team history learns from the imports passing through', () => {
  const pending = () => report({ chunks: [{ id: 0, firstRow: 2, lastRow: 3, rowCount: 2, status: 'sending', batchId: null, note: null }] });
  const rows = [
    { reference: 'LEARN-1', tracking_number: 'MSCU1234566', tracking_type: 'container', carrier_scac: 'MSCU' },
    { reference: 'LEARN-2', tracking_number: 'MSCU1234566', tracking_type: 'container', carrier_scac: 'MSCU' },
  ];
  const importChunk = (app: FastifyInstance, key: string, headers: Record<string, string> = AUTH) =>
    app.inject({ method: 'POST', url: '/api/v1/shipments/imports', payload: JSON.stringify(rows), headers: { ...headers, 'content-type': 'application/json', 'idempotency-key': key } });
  const chunkOf = async (app: FastifyInstance, headers: Record<string, string> = AUTH) =>
    (await get(app, `/console/api/jobs/${JOB}`, headers)).json<{ job: TeamJob }>().job.chunks[0];
  const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

  test('sandbox mode: an import naming the job and chunk in its Idempotency-Key marks the chunk accepted with its batch, which a stale report does not undo', async () => {
    const app = await consoleServer();
    await put(app, `/console/api/jobs/${JOB}`, pending());
    const batch = (await importChunk(app, `${JOB}:0`)).json<{ id: string }>();
    await settle();
    expect(await chunkOf(app)).toMatchObject({ status: 'accepted', batchId: batch.id });
    expect((await get(app, `/console/api/batches/${batch.id}`)).json()).toMatchObject({ origin: { jobId: JOB, chunkId: 0 } });
    // The sender's report made before the answer came, arriving after it.
    await put(app, `/console/api/jobs/${JOB}`, pending());
    expect(await chunkOf(app)).toMatchObject({ status: 'accepted', batchId: batch.id });
  });

  test("an import of another workspace, or with no job's key, records nothing", async () => {
    const app = await consoleServer({ apiKeys: [{ key: KEY_A, workspace: 'a' }, { key: KEY_B, workspace: 'b' }] });
    await put(app, `/console/api/jobs/${JOB}`, pending(), bearer(KEY_A));
    await importChunk(app, `${JOB}:0`, bearer(KEY_B));
    await importChunk(app, 'some-other-key-0001', bearer(KEY_A));
    await settle();
    expect(await chunkOf(app, bearer(KEY_A))).toMatchObject({ status: 'sending', batchId: null });
  });

  test('proxy mode: the answer is copied for the history while the browser gets it whole', async () => {
    const upstream = await consoleServer();
    const fetchUpstream: typeof fetch = async (input, init) => {
      const url = new URL(input instanceof Request ? input.url : input.toString());
      const answer = await upstream.inject({ method: (init?.method ?? 'GET') as 'POST', url: url.pathname, headers: Object.fromEntries(new Headers(init?.headers)), payload: init?.body ? Buffer.from(await new Response(init.body).arrayBuffer()) : undefined });
      return new Response(answer.body, { status: answer.statusCode, headers: { 'content-type': 'application/json' } });
    };
    const app = await buildApp(testConfig({ upstreamUrl: 'http://upstream.test' }), { fetchUpstream });
    apps.push(app);
    await put(app, `/console/api/jobs/${JOB}`, pending());
    const answer = await importChunk(app, `${JOB}:0`);
    expect(answer.statusCode).toBe(202);
    const batch = answer.json<{ id: string; results: unknown[] }>();
    expect(batch.results).toHaveLength(2);
    await settle();
    expect(await chunkOf(app)).toMatchObject({ status: 'accepted', batchId: batch.id });
  });
});

describe('which references and tracking numbers the workspace has sent (POST /console/api/seen)', () => {
  const post = (app: FastifyInstance, body: unknown, headers: Record<string, string> = AUTH) =>
    app.inject({ method: 'POST', url: '/console/api/seen', payload: JSON.stringify(body), headers: { ...headers, 'content-type': 'application/json' } });

  test('answers the keys its jobs sent, with when the job was made; a number is compared in upper case without spaces', async () => {
    const app = await consoleServer();
    await put(app, `/console/api/jobs/${JOB}`, report());
    await put(app, `/console/api/jobs/${JOB}/chunks/0/rows`, ROWS);
    const answer = await post(app, { references: ['PO-77', 'PO-78', ' PO-77 '], trackingNumbers: ['medu 7654321', 'MSKU0000000'] });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ references: [{ value: 'PO-77', sentAt: report().createdAt }], trackingNumbers: [{ value: 'MEDU7654321', sentAt: report().createdAt }] });
  });

  test("never answers with another workspace's keys", async () => {
    const app = await consoleServer({ apiKeys: [{ key: KEY_A, workspace: 'a' }, { key: KEY_B, workspace: 'b' }] });
    await put(app, `/console/api/jobs/${JOB}`, report(), bearer(KEY_A));
    await put(app, `/console/api/jobs/${JOB}/chunks/0/rows`, ROWS, bearer(KEY_A));
    const query = { references: ['PO-77'], trackingNumbers: ['MEDU7654321', 'MSKU1234565'] };
    expect((await post(app, query, bearer(KEY_B))).json()).toEqual({ references: [], trackingNumbers: [] });
    expect((await post(app, query, bearer(KEY_A))).json<{ references: unknown[]; trackingNumbers: unknown[] }>()).toMatchObject({ references: [{ value: 'PO-77' }], trackingNumbers: [{}, {}] });
    expect((await post(app, query, {})).statusCode).toBe(401);
  });

  test('refuses more than 5,000 keys of a kind, with a sentence naming the field', async () => {
    const app = await consoleServer();
    const tooMany = await post(app, { references: Array.from({ length: 5_001 }, (_, i) => `R${i}`) });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json<{ errors: { target: string }[] }>().errors[0]?.target).toBe('references');
    const fine = await post(app, { references: Array.from({ length: 5_000 }, (_, i) => `R${i}`) });
    expect(fine.json()).toEqual({ references: [], trackingNumbers: [] });
  });
});
