// The fault matrix against the console server's runner (CONSOLE_RUNS_JOBS on), as a person meets
// it: a 20-row file (chunks of 5: four imports) is sent from a browser whose context closes at
// once, so the job runs with every tab closed; the fault is on at the service while the server
// submits and polls — the sandbox's own faults (SANDBOX_FAULTS, switched over the server's IPC
// channel), which answer the runner's in-process requests behind the pacer as the real service's
// faults would — or the console's server is killed (kill -9) and started again. Then a new
// context opens the job page: a request whose answer was lost is there with its sentence and the
// person resends it; the job reads Finished, the invariant holds, the sandbox holds no row twice.
// Every fault kind also runs in-process, with seeded draws, in src/server/console/server-faults.test.ts;
// `npm test` runs two cells here (dropped answers, kill -9 while polling), `npm run test:faults` all.
import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { startRestartableServerProcess, type RestartableServerProcess } from '../src/tooling/server-process';
import { expect, screenshot, test } from './support/fixtures';
import { faultCsv } from './support/files';
import { expectInvariant, expectNoRowTwice } from './support/invariants';
import { connectToSandbox, continueToReady, continueToReview, dropFile, jobBatchIds, jobFinishedBadge, send } from './support/journey';
import { DEMO_KEY } from './support/sandbox-api';
import { watchToFinish, whatTheUserSees } from './support/watch';

const ROWS = 20;
const CAP = 5;
const FULL_MATRIX = process.env.FAULT_MATRIX === 'full';

test.describe.configure({ mode: 'serial', timeout: 180_000 });

const SERVER_ENV = {
  // Pinned here: this spec is about the server's runner whatever the default.
  CONSOLE_RUNS_JOBS: 'on',
  // The fault mode present and drawing nothing until the spec switches a fault on.
  SANDBOX_FAULTS: '500:0',
  SANDBOX_FAULT_SLOW_MS: '2000',
  SANDBOX_MAX_BATCH_ROWS: String(CAP),
  SANDBOX_ROW_DELAY_MS: '10',
  // One import a second: the spec sees the first one's fate before the next goes, and switches the storm off between them.
  SANDBOX_IMPORT_LIMIT: '1',
  SANDBOX_IMPORT_WINDOW_S: '1',
  SANDBOX_HOURLY_LIMIT: '1000000',
  SANDBOX_DAILY_LIMIT: '1000000',
  // The last row of every file has a carrier the sandbox refuses: one failed row, as in the browser's matrix.
  SANDBOX_CARRIERS: 'MAEU,MSCU,CMDU,COSU',
};

const auth = { Authorization: `Bearer ${DEMO_KEY}` };

interface ServerJob {
  finishedAt: number | null;
  chunks: { id: number; state: { status: string } }[];
  batches: Record<string, { finishedAt: number | null }>;
}

let server: RestartableServerProcess;
test.beforeAll(async () => {
  server = await startRestartableServerProcess({ env: SERVER_ENV, ipc: true });
});
test.afterAll(async () => {
  await server.stop();
});

/** Switches the sandbox's faults (a SANDBOX_FAULTS value; `off`), drawn from `seed` when given. */
function faults(value: string, seed?: number): void {
  if (!server.send({ sandboxFaults: value, ...(seed === undefined ? {} : { seed }) })) throw new Error('The server has no IPC channel to switch its faults.');
}

/** The job as the console's server holds it, read with the demo key (no browser). */
async function serverJob(request: APIRequestContext, id: string): Promise<ServerJob | null> {
  const response = await request.get(`${server.url}/console/api/server-jobs/${id}`, { headers: auth }).catch(() => null);
  if (!response?.ok()) return null;
  return ((await response.json()) as { job: ServerJob }).job;
}

const statuses = (job: ServerJob | null) => job?.chunks.map((c) => c.state.status) ?? [];
const settled = (job: ServerJob | null) => job !== null && job.chunks.every((c) => c.state.status === 'accepted' || c.state.status === 'unknown');

async function until(request: APIRequestContext, id: string, what: string, check: (job: ServerJob | null) => boolean, timeout = 60_000): Promise<void> {
  await expect.poll(async () => check(await serverJob(request, id)), { message: what, timeout, intervals: [100] }).toBe(true);
}

/** A context of its own connects and drops the file up to Ready; `beforeSend` runs just before Send; the context closes as soon as the job page opens. Returns the job id. */
async function sendAndClose(browser: Browser, prefix: string, beforeSend: () => void = () => undefined): Promise<string> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await connectToSandbox(page, server.url);
    await dropFile(page, `${prefix.toLowerCase()}.csv`, faultCsv(prefix, ROWS));
    await continueToReview(page, ROWS);
    await continueToReady(page, ROWS);
    beforeSend();
    const id = await send(page, ROWS);
    await expect(page.getByText(/Sent by the console’s server/)).toBeVisible();
    return id;
  } finally {
    await context.close();
  }
}

/** A new context opens the job's page, as a person coming back to a link would; uncaught errors are collected. */
async function openJob(browser: Browser, id: string): Promise<{ page: Page; errors: string[]; close: () => Promise<void> }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
  await connectToSandbox(page, server.url);
  await page.goto(`${server.url}/imports/${id}`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  return { page, errors, close: () => context.close() };
}

/** The job finished as the page shows it, with the invariant; the sandbox holds each row once (a resent range's rows without a reference aside). */
async function expectFinishedOnce(page: Page, request: APIRequestContext, prefix: string, resent: Awaited<ReturnType<typeof watchToFinish>>, errors: string[]): Promise<void> {
  await expect(jobFinishedBadge(page)).toBeVisible();
  await expect(page.getByText('Sent by the console’s server.')).toBeVisible();
  await expectInvariant(page, ROWS);
  await expectNoRowTwice(request, server.url, { prefix, rows: ROWS, batchIds: await jobBatchIds(page), resent, page });
  expect(errors, 'uncaught errors in the console').toEqual([]);
}

interface FaultCell {
  name: string;
  /** Whether `npm test` runs it (else only `npm run test:faults`). */
  everyRun: boolean;
  /** While submitting: every request meets this fault until `submitted` holds of the server's job, `ms` after Send. */
  storm: string;
  submitted: (job: ServerJob | null, ms: number) => boolean;
  /** Then, until every request is answered or lost: this share, drawn from a seed. */
  then: { faults: string; seed: number };
  /** Then every request meets this for 16 s: the first polls, 10–15 s after each import. */
  polls: string;
}

const CELLS: FaultCell[] = [
  { name: 'dropped answers', everyRun: true, storm: 'drop:1', submitted: (job) => statuses(job).includes('unknown'), then: { faults: 'drop:0.5', seed: 3 }, polls: 'drop:1' },
  { name: '500s', everyRun: false, storm: '500:1', submitted: (job) => statuses(job).includes('unknown'), then: { faults: '500:0.5', seed: 5 }, polls: '500:1' },
  { name: 'a 429 storm', everyRun: false, storm: '429:1', submitted: (_job, ms) => ms >= 3_000, then: { faults: '429:0.6', seed: 29 }, polls: '429:1' },
  { name: 'slow answers', everyRun: false, storm: 'slow:1', submitted: (job) => statuses(job).includes('accepted'), then: { faults: 'slow:1', seed: 7 }, polls: 'slow:1' },
];

interface Injected {
  kind: string;
  method: string;
  url: string;
}

/** Every request that met a fault since the server (re)started, as the sandbox counts them. */
async function injected(): Promise<Injected[]> {
  const answer = await server.ask({ sandboxFaultsReport: true }, (message): message is { sandboxFaultsInjected: Injected[] } => typeof message === 'object' && message !== null && 'sandboxFaultsInjected' in message);
  return answer.sandboxFaultsInjected;
}

let cellNumber = 0;
const prefixOf = () => `SF${String(++cellNumber).padStart(2, '0')}${Date.now().toString(36).slice(-4).toUpperCase()}`;

for (const cell of CELLS.filter((c) => FULL_MATRIX || c.everyRun)) {
  test(`${cell.name} while the server submits and polls, every tab closed: a new browser sees it finish, lost answers offered and resent; no row twice`, async ({ browser, request }) => {
    const prefix = prefixOf();
    const before = (await injected()).length;
    let sentAt = 0;
    const id = await sendAndClose(browser, prefix, () => {
      faults(cell.storm);
      sentAt = Date.now();
    });
    try {
      await until(request, id, `${cell.name}: the storm met the imports`, (job) => cell.submitted(job, Date.now() - sentAt));
      faults(cell.then.faults, cell.then.seed);
      await until(request, id, `${cell.name}: every request answered or lost`, settled, 90_000);
      // The first polls come 10–15 s after each import: they meet the fault, every one.
      faults(cell.polls);
      await new Promise((resolve) => setTimeout(resolve, 16_000));
    } finally {
      faults('off');
    }
    // It met the runner's imports and its polls, as the sandbox counts them.
    const met = (await injected()).slice(before);
    test.info().annotations.push({ type: 'faulted requests', description: met.map((f) => `${f.kind} ${f.method} ${f.url}`).join('; ') });
    expect(met.filter((f) => f.method === 'POST' && f.url.endsWith('/shipments/imports/file')).length, 'imports that met the fault').toBeGreaterThan(0);
    expect(met.filter((f) => f.method === 'GET' && f.url.includes('/shipments/imports/')).length, 'polls that met the fault').toBeGreaterThan(0);
    const job = await serverJob(request, id);
    const lost = job?.chunks.filter((c) => c.state.status === 'unknown').length ?? 0;
    test.info().annotations.push({ type: 'server job when the fault went off', description: statuses(job).join(', ') });

    const opened = await openJob(browser, id);
    try {
      const { page } = opened;
      if (lost > 0) {
        // What the person sees: each request whose answer was lost, with its sentence, and Resend.
        const section = page.getByRole('region', { name: 'Requests whose answer was lost' });
        await expect(section).toBeVisible({ timeout: 30_000 });
        await expect(section.getByText(/may or may not have imported these rows/)).toBeVisible();
        await expect(section.getByRole('button', { name: /^Resend rows \d+–\d+$/ })).toHaveCount(lost);
        test.info().annotations.push({ type: 'saw', description: await whatTheUserSees(page) });
        await screenshot(page, `server-faults-${cell.name.replace(/\W+/g, '-')}-lost`);
      }
      const resent = await watchToFinish(page, 90_000);
      expect(resent.length, 'each lost request resent once by the person').toBe(lost);
      await expectFinishedOnce(page, request, prefix, resent, opened.errors);
    } finally {
      await opened.close();
    }
  });
}

test('kill -9 of the console’s server while it polls, every tab closed, restart: a new browser sees it finish; no row twice', async ({ browser, request }) => {
  const prefix = prefixOf();
  const id = await sendAndClose(browser, prefix);
  // Every import accepted, the batches not yet polled to their end (the first poll comes 10–15 s after each import).
  await until(request, id, 'every request accepted, the job still polling', (job) => job !== null && job.finishedAt === null && statuses(job).every((s) => s === 'accepted'));
  await server.kill();
  await server.restart();
  const opened = await openJob(browser, id);
  try {
    const resent = await watchToFinish(opened.page, 90_000);
    expect(resent, 'nothing to resend: no request was under way').toEqual([]);
    await expectFinishedOnce(opened.page, request, prefix, resent, opened.errors);
  } finally {
    await opened.close();
  }
});

if (FULL_MATRIX) {
  test('kill -9 of the console’s server while it submits, every tab closed, restart: the cut request is offered, resent once; no row twice', async ({ browser, request }) => {
    const prefix = prefixOf();
    // Slow answers (2 s each): the kill lands while an import is under way.
    const id = await sendAndClose(browser, prefix, () => faults('slow:1'));
    await until(request, id, 'an import accepted and the next one under way', (job) => statuses(job).includes('accepted') && statuses(job).includes('sending'));
    await server.kill();
    await server.restart();
    const job = await serverJob(request, id);
    expect(statuses(job), 'the import the kill cut off waits for the person').toContain('unknown');
    const opened = await openJob(browser, id);
    try {
      await expect(opened.page.getByRole('region', { name: 'Requests whose answer was lost' })).toBeVisible({ timeout: 30_000 });
      const resent = await watchToFinish(opened.page, 90_000);
      expect(resent.length).toBeGreaterThanOrEqual(1);
      await expectFinishedOnce(opened.page, request, prefix, resent, opened.errors);
    } finally {
      await opened.close();
    }
  });
}
