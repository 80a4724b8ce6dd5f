// The engine off the browser: the runner's loops (submit, poll through TanStack Query observers,
// follow-up), the machine, the in-memory storage and the HTTP module (src/api) against the
// sandbox in-process (buildApp, answered through inject), with the answers a real service gives
// on a bad day: a size cap, a storm of 429s and an answer lost after the import was made. Batch
// bodies are read with the results worker's own reader, in this thread.
import { environmentManager, QueryClient } from '@tanstack/query-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiTarget, HttpDeps } from '../api/http-client';
import { RateLimitBudget, sleep } from '../api/rate-limit-budget';
import { fetchShipmentPage } from '../api/shipments';
import { testConfig } from '../server/config';
import { closeParsePool, DEMO_API_KEY, sandbox, warmParsePool } from '../server/test-support';
import { containerCheckDigit } from '../spreadsheet/iso6346';
import { digestBatch, headlineOf, readBatchBody } from './batch-digest';
import { accountJob } from './accounting';
import type { BatchReader, ImportJob } from './import-job';
import { JobRunner } from './runner/job-runner';
import { JobStore } from './job-store';
import { MemoryJobStorage } from './storage/memory-storage';

const ROWS = 10_000;
const CHUNK_ROWS = 1_000;
/** The sandbox takes at most this many rows per import: every first chunk is refused for its size and split. */
const MAX_BATCH_ROWS = 800;
/** The console's own origin: its imports carry their chunk's Idempotency-Key. */
const ORIGIN = 'http://sandbox.test';
const SETTINGS = { maxBatchRows: MAX_BATCH_ROWS, importLimit: 10_000, hourlyLimit: 100_000, dailyLimit: 100_000 };

type Sandbox = Awaited<ReturnType<typeof sandbox>>;

/** fetch() answered by the in-process sandbox, as its HTTP server would answer it. */
function fetchFrom(app: Sandbox): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const payload = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const answer = await app.inject({ method: request.method as 'GET' | 'POST', url: url.pathname + url.search, headers: Object.fromEntries(request.headers), payload });
    const headers = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : String(value));
    }
    return new Response(answer.statusCode === 204 ? null : new Uint8Array(answer.rawPayload), { status: answer.statusCode, headers });
  };
}

/**
 * The service's bad day, by request: the 2nd import is made but its answer never arrives (the
 * connection dropped); imports 4–9 and polls 3–4 are answered 429 (Retry-After 1) without
 * reaching the service, so one chunk's request meets a 429 on every one of its attempts.
 */
function withFaults(service: typeof fetch) {
  const seen = { imports: 0, polls: 0, answered429: 0, dropped: 0 };
  const tooMany = () => {
    seen.answered429++;
    return new Response(JSON.stringify({ error: { code: 'rate_limited', message: 'Too many requests; retry in 1 second.' } }), {
      status: 429,
      headers: { 'content-type': 'application/json', 'retry-after': '1' },
    });
  };
  const fetchWithFaults: typeof fetch = async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if ((init?.method ?? 'GET') === 'POST' && url.endsWith('/imports/file')) {
      const n = ++seen.imports;
      if (n >= 4 && n <= 9) return tooMany();
      const answer = await service(input, init);
      if (n === 2) {
        seen.dropped++;
        throw new TypeError('fetch failed'); // made by the service, its answer lost on the way back
      }
      return answer;
    }
    if (/\/imports\/[^/?]+$/.test(url)) {
      const n = ++seen.polls;
      if (n === 3 || n === 4) return tooMany();
    }
    return service(input, init);
  };
  return { fetch: fetchWithFaults, seen };
}

/** Valid container rows with their own reference and number each: row r is file row r + 2. */
function rows(): string[][] {
  return Array.from({ length: ROWS }, (_, r) => {
    const first = `ENGU${String(r).padStart(6, '0')}`;
    return [`${first}${containerCheckDigit(first)}`, 'container', `ENGINE-${r + 2}`, 'MAEU'];
  });
}

/** The results worker's reader, run in this thread: an unreadable body rejects with its sentence. */
const reader: BatchReader = {
  headline: (body) => new Promise((resolve) => resolve(headlineOf(readBatchBody(body as ArrayBuffer, 'The import')))),
  digest: (body, rowNumbers) => new Promise((resolve) => resolve(digestBatch(readBatchBody(body as ArrayBuffer, 'The batch'), rowNumbers ?? []))),
};

let app: Sandbox;
beforeAll(async () => {
  // Query takes a process without `window` for a server and schedules no refetch: this one runs jobs.
  environmentManager.setIsServer(() => false);
  await warmParsePool(SETTINGS);
  app = await sandbox(SETTINGS);
}, 120_000);

afterAll(async () => {
  environmentManager.setIsServer(() => true);
  await app.close();
  await closeParsePool(testConfig(SETTINGS));
});

describe('the job engine in Node, against the sandbox', () => {
  it('sends 10,000 rows through a size cap, a 429 storm and a lost answer: every row once, the accounting holds', async () => {
    const started = Date.now();
    const target: ApiTarget = { baseUrl: ORIGIN, apiKey: DEMO_API_KEY };
    const budget = new RateLimitBudget();
    const faults = withFaults(fetchFrom(app));
    const http: HttpDeps = { fetch: faults.fetch, budget, sleep, random: Math.random, now: Date.now };
    const store = new JobStore(new MemoryJobStorage());
    const runner = new JobRunner({
      store,
      budget,
      getTarget: () => target,
      subscribeTarget: () => () => undefined,
      locks: null,
      now: Date.now,
      random: Math.random,
      notify: () => undefined,
      pageOrigin: ORIGIN,
      http,
      // Polls of one batch 50 ms apart rather than 10–15 s: the sandbox processes at once.
      pollSpacing: { spacingMs: 50, jitterMs: 0 },
      shipmentPage: (t, query, signal) => fetchShipmentPage(t, { batchId: query.batch_id, page: query.page, pageSize: query.page_size }, signal, http),
    });

    const job = await store.createJob({
      source: { kind: 'file', fileName: 'ten-thousand.csv', size: null, contentHash: null },
      serviceUrl: ORIGIN,
      rowsRead: ROWS, numbering: 'Line',
      skipped: [],
      rows: { format: 'csv', headers: ['tracking_number', 'tracking_type', 'reference', 'carrier'], rows: rows(), rowNumbers: Array.from({ length: ROWS }, (_, r) => r + 2) },
      chunkRows: CHUNK_ROWS,
    });
    const stop = runner.start(reader, new QueryClient({ defaultOptions: { queries: { retry: false } } }));
    let resends = 0;
    let finished: ImportJob | undefined;
    try {
      while (!finished) {
        if (Date.now() - started > 60_000) throw new Error('The job did not finish within a minute.');
        const current = (await store.getJob(job.id))!;
        expect(accountJob(current).readAddsUp).toBe(true);
        // The user's answer to a lost answer: Resend (its Idempotency-Key makes the repeat the same batch).
        for (const chunk of current.chunks.filter((c) => c.state.status === 'unknown')) {
          resends++;
          await store.resendChunk(job.id, chunk.id);
        }
        if (current.finishedAt !== null) finished = current;
        else await sleep(25);
      }
    } finally {
      stop();
    }

    // The bad day happened: a lost answer resent, 429s waited out, chunks split to the cap.
    expect(faults.seen.dropped).toBe(1);
    expect(resends).toBe(1);
    expect(faults.seen.answered429).toBe(8);
    expect(faults.seen.polls).toBeGreaterThanOrEqual(finished.chunks.length);
    expect(Math.max(...finished.chunks.map((c) => c.rowCount))).toBeLessThanOrEqual(MAX_BATCH_ROWS);

    // Every row once: each in one accepted chunk, each answered by exactly one created item.
    expect(finished.runState).toBe('finished');
    expect(finished.chunks.every((c) => c.state.status === 'accepted')).toBe(true);
    const account = accountJob(finished);
    expect(account).toMatchObject({ read: ROWS, sent: ROWS, skipped: 0, toSend: 0, unknown: 0, totalRequests: ROWS, processed: ROWS, unmatched: 0 });
    expect([account.readAddsUp, account.sentMatchesBatches, account.everyRowOneItem]).toEqual([true, true, true]);
    const items = (await store.getOutcomes(job.id)).flatMap((outcome) => outcome.items);
    expect(items).toHaveLength(ROWS);
    expect(new Set(items.map((item) => item?.rowNumber)).size).toBe(ROWS);
    expect(items.every((item) => item?.creationStatus === 'created')).toBe(true);
    // And the service holds each shipment once: the resent chunk was answered from its first batch.
    const shipments = await app.inject({ method: 'GET', url: '/api/v1/shipments?page_size=1', headers: { authorization: `Bearer ${DEMO_API_KEY}` } });
    expect(shipments.json<{ pagination: { total: number } }>().pagination.total).toBe(ROWS);
    expect(Date.now() - started).toBeLessThan(20_000);
  }, 90_000);
});
