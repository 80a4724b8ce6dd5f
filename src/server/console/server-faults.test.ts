// The fault matrix against the console server's runner (CONSOLE_RUNS_JOBS on), in-process: a job
// of 20 rows in chunks of 5 is handed over as a browser's Send does and runs with no browser at
// all, while the sandbox's own faults (SANDBOX_FAULTS, switched on at Send and off once they hit
// both imports and polls) answer the runner's requests behind the pacer — 500s, a 429 storm,
// slow answers, dropped answers — or the server stops mid-submit or mid-poll and a new one starts
// on the same files. Then the job must finish (an unknown chunk resent as the user would, under
// its Idempotency-Key), the accounting invariant hold, and the sandbox's store hold each row once.
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { IDEMPOTENCY_KEY_HEADER } from '../../contract/idempotency';
import type { PacingView } from '../../contract/pacing';
import type { NewServerJob } from '../../contract/server-jobs';
import { accountJob } from '../../jobs/accounting';
import type { ImportJob } from '../../jobs/import-job';
import { containerCheckDigit } from '../../spreadsheet/iso6346';
import { buildApp } from '../app';
import { type FaultShares, testConfig, type ServerConfig } from '../config';
import { consoleServerTestBed, seededRandom, serverJobOf } from '../test-support';
import { inProcessFetch } from './in-process-fetch';

const KEY = 'fault-matrix-key-000000001';
const auth = { authorization: `Bearer ${KEY}` };
const HEADERS = ['tracking_number', 'tracking_type', 'reference', 'carrier', 'name'];
const ROWS = 20;
const CAP = 5;
/** Polls of one batch 100 ms apart rather than 10–15 s. */
const FAST_POLLS = { serverJobs: { pollSpacing: { spacingMs: 100, jitterMs: 0 } } };

const { files, started, close } = consoleServerTestBed('server-faults');

/** An import the runner made, by its Idempotency-Key (`<job id>:<chunk id>`), and what came back: a status, or none. */
interface ImportMade {
  key: string;
  answer: number | 'none';
}

/** Every import each server's runner made, as it left the runner. */
const importsMade = new WeakMap<FastifyInstance, ImportMade[]>();

/** A console server running jobs in sandbox mode, its faults present (none drawn until switched on). */
async function server(where: Pick<ServerConfig, 'dbPath' | 'consoleDbPath'>, overrides: Partial<ServerConfig> = {}): Promise<FastifyInstance> {
  let self: FastifyInstance | null = null;
  const made: ImportMade[] = [];
  const countingFetch: typeof fetch = async (input, init) => {
    const key = new Headers(init?.headers).get(IDEMPOTENCY_KEY_HEADER);
    try {
      const answer = await inProcessFetch(self!)(input, init);
      if (key !== null) made.push({ key, answer: answer.status });
      return answer;
    } catch (error) {
      if (key !== null) made.push({ key, answer: 'none' });
      throw error;
    }
  };
  const app = await buildApp(
    testConfig({
      ...where,
      apiKeys: [{ key: KEY, workspace: 'faults' }],
      consoleRunsJobs: true,
      maxBatchRows: CAP,
      rowDelayMs: 10,
      importLimit: 100,
      importWindowS: 1,
      faults: {},
      faultSlowMs: 1_500,
      ...overrides,
    }),
    { serverJobs: { ...FAST_POLLS.serverJobs, serviceFetch: () => countingFetch } },
  );
  self = app;
  importsMade.set(app, made);
  return started(app);
}

function faultsOf(app: FastifyInstance): NonNullable<FastifyInstance['sandboxFaults']> {
  const control = app.sandboxFaults;
  if (!control) throw new Error('The sandbox has no fault mode: SANDBOX_FAULTS was not set.');
  return control;
}

/**
 * The sandbox's seeded draws, so a cell meets the same faults on every run; its first draw is 0, so the
 * first request after Send — the first import, as nothing is polled yet — is always faulted.
 */
function seeded(seed: number): () => number {
  const draw = seededRandom(seed);
  let first = true;
  return () => {
    if (!first) return draw();
    first = false;
    return 0;
  };
}

/** 20 valid rows named `<tag> row <i>`, every fifth without a reference (only those could be created twice), in CSV chunks of 5 as the browser cuts them. */
function newJob(tag: string): NewServerJob {
  const rows = Array.from({ length: ROWS }, (_, r) => {
    const i = r + 1;
    const first = `${tag}U${String(300000 + i).padStart(6, '0')}`;
    return { rowNumber: i + 1, cells: [`${first}${containerCheckDigit(first)}`, 'container', i % 5 === 0 ? '' : `${tag}-${i}`, 'MAEU', `${tag} row ${i}`] };
  });
  return serverJobOf(tag, HEADERS, rows, CAP);
}

async function send(app: FastifyInstance, job: NewServerJob): Promise<void> {
  const made = await app.inject({ method: 'POST', url: '/console/api/server-jobs', payload: JSON.stringify(job), headers: { ...auth, 'content-type': 'application/json' } });
  expect(made.statusCode).toBe(201);
}

async function readJob(app: FastifyInstance, id: string): Promise<ImportJob> {
  const answer = await app.inject({ method: 'GET', url: `/console/api/server-jobs/${id}`, headers: auth });
  expect(answer.statusCode).toBe(200);
  return answer.json<{ job: ImportJob }>().job;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 30_000, state: () => Promise<string> = () => Promise.resolve('')): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Not within ${timeoutMs / 1000} s: ${what} ${await state()}`);
    await sleep(50);
  }
}

/**
 * Waits for the job to finish as a user watching its page would: each unknown chunk (its answer
 * lost) is resent once — under its Idempotency-Key, so the sandbox answers with the batch it made.
 * Every look at the job must be one a page can state: the invariant holds on the way, and a
 * paused job says why.
 */
async function finish(app: FastifyInstance, id: string, resent: Set<number>, timeoutMs = 60_000): Promise<ImportJob> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = await readJob(app, id);
    expect(accountJob(job).readAddsUp, 'rows read = sent + skipped, at every look').toBe(true);
    if (job.runState === 'paused') expect(job.pausedReason, 'a paused job says why').toBeTruthy();
    if (job.finishedAt !== null) return job;
    for (const chunk of job.chunks.filter((c) => c.state.status === 'unknown' && !resent.has(c.id))) {
      expect(chunk.state.status === 'unknown' && chunk.state.error, 'an unknown chunk says what happened to it').toBeTruthy();
      resent.add(chunk.id);
      const decided = await app.inject({ method: 'POST', url: `/console/api/server-jobs/${id}/decisions`, payload: { type: 'resend', chunkId: chunk.id }, headers: auth });
      expect(decided.json<{ refused: string | null }>().refused).toBeNull();
    }
    if (Date.now() > deadline) throw new Error(`The job did not finish within ${timeoutMs / 1000} s: ${job.runState}, ${JSON.stringify(job.chunks.map((c) => c.state.status))}`);
    await sleep(100);
  }
}

/**
 * Never sent twice silently: each chunk went out once, plus once per Resend of the user's — a
 * 429 aside (the service did nothing with it, and the runner waits and sends again).
 */
function expectSentOnceEach(app: FastifyInstance, job: ImportJob, resent: ReadonlySet<number>): void {
  const made = importsMade.get(app) ?? [];
  const times = (chunkId: number) => made.filter((m) => m.key === `${job.id}:${chunkId}` && m.answer !== 429).length;
  expect(job.chunks.map((c) => ({ chunk: c.id, sent: times(c.id) }))).toEqual(job.chunks.map((c) => ({ chunk: c.id, sent: 1 + (resent.has(c.id) ? 1 : 0) })));
}

/** The finished job adds up, and the sandbox's store holds each of its rows once. */
async function expectEveryRowOnce(app: FastifyInstance, job: ImportJob, tag: string): Promise<void> {
  expect(job.runState).toBe('finished');
  expect(job.chunks.map((c) => c.state.status)).toEqual(job.chunks.map(() => 'accepted'));
  const account = accountJob(job);
  expect(account).toMatchObject({ read: ROWS, sent: ROWS, skipped: 0, unknown: 0, totalRequests: ROWS, processed: ROWS, unmatched: 0 });
  expect([account.readAddsUp, account.sentMatchesBatches, account.everyRowOneItem]).toEqual([true, true, true]);
  const listed = await app.inject({ method: 'GET', url: '/api/v1/shipments?page_size=100', headers: auth });
  expect(listed.statusCode).toBe(200);
  const names = listed.json<{ data: { name: string | null }[] }>().data.map((shipment) => shipment.name ?? '').filter((name) => name.startsWith(`${tag} row `));
  expect(names.length, 'shipments the sandbox holds for the job’s rows').toBe(ROWS);
  expect(new Set(names).size, 'distinct rows: none twice').toBe(ROWS);
  // The pacer saw every answer, a lost one too: nothing of the job is left in flight or queued.
  const pacing = (await app.inject({ method: 'GET', url: '/console/api/pacing', headers: auth })).json<PacingView>();
  expect({ inFlight: pacing.inFlight, queued: pacing.queued }).toEqual({ inFlight: 0, queued: { imports: 0, polls: 0, people: 0 } });
}

const isImport = (fault: { method: string; url: string }) => fault.method === 'POST' && fault.url.includes('/shipments/imports');
const isPoll = (fault: { method: string; url: string }) => fault.method === 'GET';

interface FaultCell {
  name: string;
  shares: FaultShares;
  seed: number;
}

const CELLS: FaultCell[] = [
  { name: '500s', shares: { '500': 0.5 }, seed: 5 },
  { name: 'a 429 storm', shares: { '429': 0.6 }, seed: 29 },
  { name: 'slow answers', shares: { slow: 0.5 }, seed: 7 },
  { name: 'dropped answers', shares: { drop: 0.5 }, seed: 11 },
];

describe('the server runner under the sandbox’s faults, while submitting and polling, with no browser', () => {
  for (const cell of CELLS) {
    it(`${cell.name}: the job finishes, the invariant holds, no row twice`, async () => {
      const app = await server(files());
      const faults = faultsOf(app);
      const tag = `F${cell.seed}`;
      const job = newJob(tag);
      faults.set(cell.shares, seeded(cell.seed));
      await send(app, job);
      // On for the submit and the poll phases: off once it has hit an import and two polls.
      const resent = new Set<number>();
      await until(`${cell.name} hit an import and two polls`, () => faults.injected.filter(isImport).length >= 1 && faults.injected.filter(isPoll).length >= 2, 45_000, async () => {
        const now = await readJob(app, job.id);
        return JSON.stringify({ runState: now.runState, pausedReason: now.pausedReason, chunks: now.chunks.map((c) => c.state), injected: faults.injected });
      });
      faults.set(null);
      const finished = await finish(app, job.id, resent);
      await expectEveryRowOnce(app, finished, tag);
      expectSentOnceEach(app, finished, resent);
      // A lost answer (a 500 or a cut connection) is the user's decision, never the runner's.
      if (cell.shares['500'] || cell.shares.drop) expect(resent.size, 'chunks whose answer was lost, resent by the user').toBeGreaterThan(0);
    }, 120_000);
  }
});

describe('the server runner stopped and started again, with no browser', () => {
  it('mid-submit: the chunk cut off is unknown and resent under its key; the rest goes on; no row twice', async () => {
    const where = files();
    // Slow imports (1.5 s each): the stop lands while one is under way.
    const first = await server(where);
    faultsOf(first).set({ slow: 1 });
    const job = newJob('RS');
    await send(first, job);
    await until('two chunks accepted and the third one sending', async () => {
      const statuses = (await readJob(first, job.id)).chunks.map((c) => c.state.status);
      return statuses.filter((s) => s === 'accepted').length >= 2 && statuses.includes('sending');
    });
    await close(first);

    const second = await server(where);
    const resumed = await readJob(second, job.id);
    expect(resumed.chunks.some((c) => c.state.status === 'unknown'), 'the chunk the stop cut off waits for the user').toBe(true);
    const finished = await finish(second, job.id, new Set());
    await expectEveryRowOnce(second, finished, 'RS');
  }, 120_000);

  it('mid-poll: every chunk accepted, batches still processing; the new server polls them to the end', async () => {
    const where = files();
    // 100 ms a row: a batch of 5 takes half a second, the four two seconds, so the stop lands while they are polled.
    const first = await server(where, { rowDelayMs: 100 });
    const job = newJob('RP');
    await send(first, job);
    await until('every chunk accepted', async () => (await readJob(first, job.id)).chunks.every((c) => c.state.status === 'accepted'));
    expect(Object.values((await readJob(first, job.id)).batches).some((batch) => batch.finishedAt === null)).toBe(true);
    await close(first);

    const second = await server(where, { rowDelayMs: 100 });
    const finished = await finish(second, job.id, new Set());
    await expectEveryRowOnce(second, finished, 'RP');
  }, 120_000);
});
