// A browser's job store where the console's server runs jobs, against the server in-process
// (its fetch answered by inject): Send hands the job over and the store watches it finish by
// itself; the user's decisions are applied there; the browser's own jobs stay in the browser.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../server/app';
import { testConfig } from '../../server/config';
import { inProcessFetch } from '../../server/console/in-process-fetch';
import { closeParsePool, warmParsePool } from '../../server/test-support';
import { containerCheckDigit } from '../../spreadsheet/iso6346';
import { accountJob } from '../accounting';
import { JobStore } from '../job-store';
import { ConsoleServerJobStorage } from './console-server-storage';
import { MemoryJobStorage } from './memory-storage';
import { RoutedJobStorage } from './routed-storage';

const KEY = 'workspace-a-key-0000000001';
const HEADERS = ['tracking_number', 'tracking_type', 'reference', 'carrier'];
let app: Awaited<ReturnType<typeof buildApp>>;

beforeAll(async () => {
  await warmParsePool();
  const config = testConfig({ apiKeys: [{ key: KEY, workspace: 'a' }], consoleRunsJobs: true });
  app = await buildApp(config, { serverJobs: { pollSpacing: { spacingMs: 50, jitterMs: 0 } } });
  await app.ready();
  vi.stubGlobal('fetch', inProcessFetch(app));
}, 120_000);

afterAll(async () => {
  vi.unstubAllGlobals();
  await app.close();
  await closeParsePool(testConfig());
});

function rows(n: number, tag: string): string[][] {
  return Array.from({ length: n }, (_, r) => {
    const first = `${tag}U${String(r).padStart(6, '0')}`;
    return [`${first}${containerCheckDigit(first)}`, 'container', `${tag}-${r + 2}`, 'MAEU'];
  });
}

function browserStore(handsOff: boolean) {
  const local = new MemoryJobStorage();
  const server = new ConsoleServerJobStorage({ target: () => Promise.resolve({ baseUrl: '', apiKey: KEY }), sentBy: () => 'Ana', pollMs: 100 });
  const store = new JobStore(new RoutedJobStorage(local, server, () => Promise.resolve(handsOff)));
  return { store, local };
}

describe('a browser store where the console’s server runs jobs', () => {
  it('hands a new job to the server and watches it finish there: every row once, nothing kept in the browser', async () => {
    const { store, local } = browserStore(true);
    const seen: string[] = [];
    const unsubscribe = store.subscribe(() => seen.push(store.getSnapshot().jobs[0]?.runState ?? 'none'));
    try {
      const job = await store.createJob({
        source: { kind: 'file', fileName: 'handed.csv', size: null, contentHash: null },
        serviceUrl: '',
        rowsRead: 300,
        numbering: 'Line',
        skipped: [],
        rows: { format: 'csv', headers: HEADERS, rows: rows(300, 'HAND'), rowNumbers: Array.from({ length: 300 }, (_, r) => r + 2) },
        chunkRows: 100,
      });
      expect(await local.list()).toEqual([]);
      // No runner in this browser: the store's snapshot follows the server's polls to the end.
      await expect.poll(() => store.getSnapshot().jobs.find((j) => j.id === job.id)?.runState, { timeout: 30_000, interval: 100 }).toBe('finished');
      const finished = store.getSnapshot().jobs.find((j) => j.id === job.id)!;
      expect(finished).toMatchObject({ runsOn: 'console-server', sentBy: 'Ana' });
      const account = accountJob(finished);
      expect([account.sent, account.processed, account.readAddsUp, account.everyRowOneItem]).toEqual([300, 300, true, true]);
      expect((await store.getOutcomes(job.id)).flatMap((o) => o.items)).toHaveLength(300);
      expect((await store.getPayload(job.id, 2))?.rowNumbers[0]).toBe(202);
      expect(seen).toContain('finished');

      // A decision is the server's to apply: refused there with the machine's sentence.
      const cancel = await store.apply(job.id, { type: 'cancel', at: Date.now() });
      expect(cancel.refused).toBe('The job is already finished.');
      await store.deleteJob(job.id);
      await expect.poll(() => store.getSnapshot().jobs.some((j) => j.id === job.id), { timeout: 10_000 }).toBe(false);
      const gone = await app.inject({ method: 'GET', url: `/console/api/server-jobs/${job.id}`, headers: { authorization: `Bearer ${KEY}` } });
      expect(gone.statusCode).toBe(404);
    } finally {
      unsubscribe();
    }
  }, 60_000);

  it('keeps a job in the browser when the server does not run jobs, listed beside the server’s', async () => {
    const { store, local } = browserStore(false);
    const job = await store.createJob({
      source: { kind: 'quick-add' },
      serviceUrl: '',
      rowsRead: 1,
      numbering: 'Row',
      skipped: [],
      rows: { format: 'json', requests: [{ reference: crypto.randomUUID() }], rowNumbers: [1] },
      chunkRows: 10,
    });
    expect((await local.list()).map((j) => j.id)).toEqual([job.id]);
    expect((await store.listJobs()).some((j) => j.id === job.id && j.runsOn === undefined)).toBe(true);
    expect((await store.cancelJob(job.id)).runState).toBe('cancelled');
  });
});
