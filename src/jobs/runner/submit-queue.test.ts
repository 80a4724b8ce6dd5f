import Papa from 'papaparse';
import { afterEach, describe, expect, it } from 'vitest';
import type { HttpDeps } from '../../api/http-client';
import { RateLimitBudget } from '../../api/rate-limit-budget';
import { JobStore } from '../job-store';
import { MemoryJobStorage } from '../storage/memory-storage';
import { isCapAnswer, namedRowCap, payloadSender, sendPendingChunks } from './submit-queue';
import { HttpError, InvalidResponseError, NotSentError } from '../../api/api-error';

const HEADERS = ['tracking_number', 'tracking_type', 'reference', 'carrier'];

type Answer = (request: { url: string; rows: string[][] | unknown[] }) => Response | Promise<Response>;

interface Harness {
  store: JobStore;
  sent: { url: string; rows: number; at: number; key: string | null }[];
  clock: { now: number };
  run: (jobId: string) => Promise<string>;
}

const stores: JobStore[] = [];
afterEach(async () => {
  await Promise.all(stores.splice(0).map((s) => s.close()));
});

function harness(answer: Answer, pageOrigin = 'https://svc.example'): Harness {
  const clock = { now: 1_700_000_000_000 };
  const wait = (ms: number) => {
    clock.now += ms;
    return Promise.resolve();
  };
  const store = new JobStore(new MemoryJobStorage(), () => clock.now);
  stores.push(store);
  const budget = new RateLimitBudget(() => clock.now, wait);
  const sent: Harness['sent'] = [];
  const fetchStub = async (url: string, init?: RequestInit): Promise<Response> => {
    const body = init?.body;
    let rows: string[][] | unknown[] = [];
    if (body instanceof FormData) {
      const file = body.get('file') as Blob;
      rows = Papa.parse<string[]>(await file.text()).data.slice(1);
    } else if (typeof body === 'string') {
      rows = JSON.parse(body) as unknown[];
    }
    sent.push({ url, rows: rows.length, at: clock.now, key: new Headers(init?.headers).get('idempotency-key') });
    return answer({ url, rows });
  };
  const httpDeps: HttpDeps = { fetch: fetchStub as unknown as typeof fetch, budget, sleep: wait, random: () => 0.5, now: () => clock.now };
  const deps = {
    store,
    send: payloadSender({ baseUrl: 'https://svc.example', apiKey: 'k' }, headlineReader, store, httpDeps, pageOrigin),
    waitForBudget: (signal: AbortSignal) => budget.waitUntilReady('import', signal),
    now: () => clock.now,
  };
  return { store, sent, clock, run: (jobId) => sendPendingChunks(jobId, deps, new AbortController().signal) };
}

/** Reads the 202 body in this thread, as the results worker does (an unreadable body rejects). */
const headlineReader = {
  headline: (body: ArrayBuffer) => {
    const batch = JSON.parse(new TextDecoder().decode(body)) as { id: string; status: string; total_requests: number; completed_requests: number };
    if (typeof batch.id !== 'string') return Promise.reject(new InvalidResponseError('The import answered in an unexpected shape at id.'));
    return Promise.resolve({ id: batch.id, status: batch.status, total: batch.total_requests, completed: batch.completed_requests, failureReason: null });
  },
};

let batchCount = 0;
/** The first request's connection drops (a network error); every later one is accepted. */
function lostOnce(): Answer {
  let fail = true;
  return ({ rows }) => {
    if (fail) {
      fail = false;
      throw new TypeError('Failed to fetch');
    }
    return batchResponse(rows.length);
  };
}

function batchResponse(rows: number, status = 202, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}): Response {
  const body = {
    id: `batch-${++batchCount}`,
    status: 'processing',
    created_at: '2026-01-01T00:00:00Z',
    total_requests: rows,
    completed_requests: 0,
    results: Array.from({ length: rows }, (_, i) => ({
      id: `r${i}`,
      tracking_type: 'container',
      tracking_number: `N${i}`,
      creation_status: 'processing',
      tracking_status: 'processing',
      surprise_field: { nested: true },
    })),
    ...extra,
  };
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}

const errorResponse = (status: number, message: string, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ errors: [{ code: 'x', message, target: null }] }), { status, headers: { 'content-type': 'application/json', ...headers } });

async function makeJob(store: JobStore, n: number, chunkRows: number, reference = (i: number) => (i % 3 === 0 ? '' : `R${i}`)) {
  const rows = Array.from({ length: n }, (_, i) => [`MSCU${String(i).padStart(7, '0')}`, 'container', reference(i), 'MSCU']);
  return store.createJob({
    source: { kind: 'file', fileName: 'ships.csv', size: 10, contentHash: null },
    serviceUrl: 'https://svc.example',
    rowsRead: n, numbering: 'Line',
    skipped: [],
    rows: { format: 'csv', headers: HEADERS, rows, rowNumbers: rows.map((_, i) => i + 2) },
    chunkRows,
  });
}

const states = async (store: JobStore, id: string) => (await store.getJob(id))!.chunks.map((c) => c.state.status);

describe('the submit queue', () => {
  it.each([202, 200, 201])('accepts a batch answered %i, with extra unknown fields and no row_number', async (status) => {
    const h = harness(({ rows }) => batchResponse(rows.length, status));
    const job = await makeJob(h.store, 5, 2);
    expect(await h.run(job.id)).toBe('nothing-pending');
    const after = (await h.store.getJob(job.id))!;
    expect(after.chunks.map((c) => [c.state.status, c.attempts])).toEqual([['accepted', 1], ['accepted', 1], ['accepted', 1]]);
    expect(Object.values(after.batches).map((b) => b.total)).toEqual([2, 2, 1]);
    expect(h.sent.map((s) => s.rows)).toEqual([2, 2, 1]);
    expect(h.sent[0]!.url).toBe('https://svc.example/api/v1/shipments/imports/file');
  });

  it('waits out a 429 with Retry-After and never counts it as a failure', async () => {
    let calls = 0;
    const h = harness(({ rows }) => (++calls <= 2 ? errorResponse(429, 'Slow down.', { 'retry-after': '7' }) : batchResponse(rows.length)));
    const job = await makeJob(h.store, 2, 2);
    const start = h.clock.now;
    await h.run(job.id);
    expect(await states(h.store, job.id)).toEqual(['accepted']);
    expect((await h.store.getJob(job.id))!.chunks[0]!.attempts).toBe(1);
    expect(h.sent.map((s) => s.at - start)).toEqual([0, 7_000, 14_000]);
  });

  it('paces by the headers: an empty import bucket waits until its reset, whatever the window', async () => {
    const h = harness(({ rows }) => {
      const resetS = Math.floor(h.clock.now / 1000) + 1; // a one-second window, as the real service may have
      return batchResponse(rows.length, 202, {}, { 'x-ratelimit-limit': '2', 'x-ratelimit-remaining': String(Math.max(0, 1 - (h.sent.length - 1) % 2)), 'x-ratelimit-reset': String(resetS) });
    });
    const job = await makeJob(h.store, 4, 1);
    await h.run(job.id);
    expect(await states(h.store, job.id)).toEqual(['accepted', 'accepted', 'accepted', 'accepted']);
    const gaps = h.sent.slice(1).map((s, i) => s.at - h.sent[i]!.at);
    expect(gaps.some((gap) => gap > 0)).toBe(true); // waited for the reset after the bucket emptied
    expect(h.sent).toHaveLength(4); // and no 429 was needed
  });

  it('splits a chunk on a 413 and resends both halves: no row dropped', async () => {
    const h = harness(({ rows }) => (rows.length > 3 ? errorResponse(413, 'The file is too large.') : batchResponse(rows.length)));
    const job = await makeJob(h.store, 10, 10);
    await h.run(job.id);
    const after = (await h.store.getJob(job.id))!;
    expect(after.chunks.every((c) => c.state.status === 'accepted')).toBe(true);
    expect(after.chunks.reduce((sum, c) => sum + c.rowCount, 0)).toBe(10);
    expect(after.chunks.map((c) => [c.firstRow, c.lastRow])).toEqual([[2, 4], [5, 6], [7, 9], [10, 11]]);
    expect(h.sent.filter((s) => s.rows <= 3).reduce((sum, s) => sum + s.rows, 0)).toBe(10);
  });

  it('cuts to the cap a 400 names ("at most 300 rows") in one step', async () => {
    const h = harness(({ rows }) => (rows.length > 4 ? errorResponse(400, 'A file may contain at most 4 rows.') : batchResponse(rows.length)));
    const job = await makeJob(h.store, 10, 10);
    await h.run(job.id);
    const after = (await h.store.getJob(job.id))!;
    expect(after.chunks.map((c) => [c.rowCount, c.state.status])).toEqual([[4, 'accepted'], [4, 'accepted'], [2, 'accepted']]);
    expect(h.sent).toHaveLength(4);
  });

  it('a 400 that names no cap rejects the chunk with the service’s sentence', async () => {
    const h = harness(() => errorResponse(400, 'The header tracking_number is missing.'));
    const job = await makeJob(h.store, 3, 3);
    await h.run(job.id);
    const chunk = (await h.store.getJob(job.id))!.chunks[0]!;
    expect(chunk.state).toMatchObject({ status: 'rejected', error: 'The header tracking_number is missing.', httpStatus: 400 });
  });

  it('a 500 after sending makes the chunk unknown, never resent silently', async () => {
    const h = harness(({ rows }) => (h.sent.length === 1 ? errorResponse(500, 'Boom.') : batchResponse(rows.length)));
    const job = await makeJob(h.store, 4, 2);
    await h.run(job.id);
    const after = (await h.store.getJob(job.id))!;
    expect(after.chunks.map((c) => c.state.status)).toEqual(['unknown', 'accepted']);
    expect(after.chunks[0]!.withoutReference).toBe(1);
    expect(h.sent).toHaveLength(2);
    expect(after.runState).toBe('running'); // waits for the user's Resend or Skip
  });

  it('a network error makes the chunk unknown; Resend sends it once more', async () => {
    const h = harness(lostOnce());
    const job = await makeJob(h.store, 2, 2);
    await h.run(job.id);
    expect((await h.store.getJob(job.id))!.chunks[0]!.state).toMatchObject({ status: 'unknown', error: expect.stringContaining('Failed to fetch') as string });
    await h.store.resendChunk(job.id, 0);
    await h.run(job.id);
    expect((await h.store.getJob(job.id))!.chunks[0]!).toMatchObject({ state: { status: 'accepted' }, attempts: 2 });
    expect(h.sent).toHaveLength(2);
  });

  it('a refused key pauses the job without failing the chunk', async () => {
    const h = harness(() => errorResponse(403, 'API access is not enabled for this account.'));
    const job = await makeJob(h.store, 2, 2);
    expect(await h.run(job.id)).toBe('paused');
    const after = (await h.store.getJob(job.id))!;
    expect(after.runState).toBe('paused');
    expect(after.pausedReason).toBe(
      'The service refused the API key, or API access is not enabled for this account (403). It said: API access is not enabled for this account. Connect again, then resume.',
    );
    expect(after.chunks[0]).toMatchObject({ state: { status: 'pending' }, attempts: 0 });
  });

  it('a request that never left the browser pauses the job with its sentence, the chunk still pending', async () => {
    const h = harness(() => {
      throw new NotSentError('The part of this page that sends and reads imports could not start, so nothing was sent. Reload the page, then resume.');
    });
    const job = await makeJob(h.store, 2, 2);
    expect(await h.run(job.id)).toBe('paused');
    const after = (await h.store.getJob(job.id))!;
    expect(after.pausedReason).toBe('The part of this page that sends and reads imports could not start, so nothing was sent. Reload the page, then resume.');
    expect(after.chunks[0]).toMatchObject({ state: { status: 'pending' }, attempts: 0 });
  });

  it('sends a quick-add job to the JSON list endpoint', async () => {
    const h = harness(({ rows }) => batchResponse(rows.length));
    const job = await quickAddJob(h.store);
    await h.run(job.id);
    expect(h.sent[0]!.url).toBe('https://svc.example/api/v1/shipments/imports');
    expect(await states(h.store, job.id)).toEqual(['accepted']);
  });
});

describe('the Idempotency-Key of a chunk', () => {
  it('is on every import request, the same when a lost answer is resent', async () => {
    const h = harness(lostOnce());
    const job = await makeJob(h.store, 4, 2);
    await h.run(job.id);
    expect(await states(h.store, job.id)).toEqual(['unknown', 'accepted']);
    await h.store.resendChunk(job.id, 0);
    await h.run(job.id);
    expect(h.sent.map((s) => s.key)).toEqual([`${job.id}:0`, `${job.id}:1`, `${job.id}:0`]);
  });

  it('is new for each half of a split chunk, never the refused chunk’s key', async () => {
    const h = harness(({ rows }) => (rows.length > 3 ? errorResponse(413, 'The file is too large.') : batchResponse(rows.length)));
    const job = await makeJob(h.store, 10, 10);
    await h.run(job.id);
    const keys = h.sent.map((s) => s.key);
    expect(keys.every((key) => key !== null && key.startsWith(`${job.id}:`))).toBe(true);
    const accepted = h.sent.filter((s) => s.rows <= 3).map((s) => s.key);
    expect(accepted).toHaveLength(4);
    expect(new Set(accepted).size).toBe(4);
    expect(accepted).not.toContain(`${job.id}:0`);
  });

  it('is not sent to a service on another origin, whose CORS preflight might refuse it', async () => {
    const h = harness(({ rows }) => batchResponse(rows.length), 'https://console.example');
    const job = await makeJob(h.store, 2, 2);
    await h.run(job.id);
    expect(await states(h.store, job.id)).toEqual(['accepted']);
    expect(h.sent.map((s) => s.key)).toEqual([null]);
  });

  it('goes to the JSON list import too', async () => {
    const h = harness(({ rows }) => batchResponse(rows.length));
    const job = await quickAddJob(h.store);
    await h.run(job.id);
    expect(h.sent[0]!.key).toBe(`${job.id}:0`);
  });
});

describe('reading a cap refusal', () => {
  it.each([
    [413, 'anything', true],
    [400, 'The file has 500 rows; one import takes at most 300.', true],
    [400, 'File size exceeds the 20 MB limit.', true],
    [400, 'tracking_type must be container', false],
    [422, 'too many rows', false],
  ])('%i "%s" → split: %s', (status, message, expected) => {
    expect(isCapAnswer(new HttpError(status, message, null, null))).toBe(expected);
  });

  it.each([
    ['The file has 500 rows; one import takes at most 300.', 300],
    ['Maximum of 1,000 rows per file.', 1000],
    ['File size exceeds the limit of 20 MB.', null],
    ['Too large.', null],
  ])('"%s" names %s rows', (message, cap) => {
    expect(namedRowCap(message)).toBe(cap);
  });
});

/** A quick-add job of one shipment: it goes to the JSON list import. */
function quickAddJob(store: JobStore) {
  return store.createJob({
    source: { kind: 'quick-add' },
    serviceUrl: '',
    rowsRead: 1,
    numbering: 'Row',
    skipped: [],
    rows: { format: 'json', requests: [{ reference: 'A', tracking_number: 'X', tracking_type: 'container', carrier_scac: 'AUTO' }], rowNumbers: [1] },
    chunkRows: 300,
  });
}
