// A team sending at once through one console server: three browsers (contexts with no shared
// storage) against one server in sandbox mode with a small import limit (2 per 5 s) and row cap
// (20), all pressing Send together. The console server's pacer shares the workspace's budget: no
// answer is a 429, every row arrives once, every job finishes, the rate-limit meter tells each
// browser whose jobs are sending (and that none is once they finished), and a page of shipments
// asked meanwhile is not held behind them.
import type { BrowserContext, Page, Response } from '@playwright/test';
import { expect, screenshot, test } from './support/fixtures';
import { faultCsv } from './support/files';
import { expectInvariant, expectNoRowTwice } from './support/invariants';
import { connectToSandbox, continueToReady, continueToReview, dropFile, jobBatchIds, jobFinishedBadge, send } from './support/journey';
import { DEMO_KEY } from './support/sandbox-api';
import { startServerProcess, type ServerProcess } from '../src/tooling/server-process';
import { newTab, type PageErrors } from './support/tabs';

const ROWS = 60;
/** SANDBOX_MAX_BATCH_ROWS: three imports a job, nine in all, at 2 per 5 s (a job handed over first cannot send all of its three before the others arrive); the jobs take turns. */
const CAP = 20;
const IMPORTS_PER_JOB = ROWS / CAP;
const SENDERS = [
  { prefix: 'TEAMA', owner: 'TGH' },
  { prefix: 'TEAMB', owner: 'ABC' },
  { prefix: 'TEAMC', owner: 'XYZ' },
];

let sandbox: ServerProcess;
/** What the server logged (LOG_LEVEL info): every request it answered, the jobs' own imports among them, since the console's server sends them. */
const logged: string[] = [];

test.beforeAll(async () => {
  // faultCsv's last row has a carrier this sandbox does not support: each job has one failed row.
  sandbox = await startServerProcess({
    env: { SANDBOX_ROW_DELAY_MS: '5', SANDBOX_IMPORT_LIMIT: '2', SANDBOX_IMPORT_WINDOW_S: '5', SANDBOX_MAX_BATCH_ROWS: String(CAP), SANDBOX_CARRIERS: 'MAEU,MSCU', LOG_LEVEL: 'info' },
    onLine: (line) => logged.push(line),
  });
});
test.afterAll(async () => {
  await sandbox.stop();
});

interface Seen {
  status: number;
  url: string;
  pacer: string | null;
}

function watchApi(context: BrowserContext, seen: Seen[]): void {
  context.on('response', (response: Response) => {
    if (!response.url().includes('/api/v1/')) return;
    seen.push({ status: response.status(), url: response.url(), pacer: /desc="(\w+)"/.exec(response.headers()['server-timing'] ?? '')?.[1] ?? null });
  });
}

test('three people send at once: no 429, every row once, each job finishes, and a page of shipments is not held behind the jobs', async ({ browser, request }) => {
  test.setTimeout(300_000);
  const errors: PageErrors = [];
  const seen: Seen[] = [];
  const contexts = await Promise.all(SENDERS.map(() => browser.newContext({ viewport: { width: 1280, height: 900 } })));
  try {
    const pages: Page[] = [];
    for (const [i, context] of contexts.entries()) {
      watchApi(context, seen);
      const page = await newTab(context, errors);
      await connectToSandbox(page, sandbox.url);
      await dropFile(page, `team-${i}.csv`, faultCsv(SENDERS[i]!.prefix, ROWS, SENDERS[i]!.owner));
      await continueToReview(page, ROWS);
      await continueToReady(page, ROWS);
      pages.push(page);
    }

    // All three at once.
    const jobIds = await Promise.all(pages.map((page) => send(page, ROWS)));
    expect(new Set(jobIds).size).toBe(3);

    // Each browser's meter names its own job among the team's (the three looked at together: a job
    // stops counting as sending once its last import is accepted).
    await Promise.all(pages.map((page) => expect(page.getByText('3 jobs sending: yours and 2 others.')).toBeVisible({ timeout: 60_000 })));
    await screenshot(pages[0]!, 'team-pacing-meter');

    // A person opens Shipments while the jobs send: the pacer lets the page's request go at once.
    const pacing = await request.get(`${sandbox.url}/console/api/pacing`, { headers: { authorization: `Bearer ${DEMO_KEY}` } });
    expect(((await pacing.json()) as { jobsSending: string[] }).jobsSending.sort()).toEqual([...jobIds].sort());
    const person = await newTab(contexts[0]!, errors);
    await connectToSandbox(person, sandbox.url);
    const list = person.waitForResponse((response) => /\/api\/v1\/shipments\/?(\?|$)/.test(response.url()) && response.request().method() === 'GET');
    const asked = Date.now();
    await person.goto(`${sandbox.url}/shipments`);
    const listed = await list;
    expect(listed.status()).toBe(200);
    expect(listed.headers()['server-timing']).toMatch(/^pacer;dur=[\d.]+;desc="free"$/);
    expect(Date.now() - asked).toBeLessThan(15_000);
    await expect(person.getByRole('heading', { name: 'Shipments', exact: true })).toBeVisible();

    for (const page of pages) await expect(jobFinishedBadge(page)).toBeVisible({ timeout: 180_000 });
    // A finished job is not sending: the meter says so within a few of its 2 s asks, not 30 s after the last import.
    for (const page of pages) await expect(page.getByText('No job is sending in this workspace.')).toBeVisible({ timeout: 8_000 });

    // The service answered no request with 429, and the pacer refused none: not the browsers' and
    // not the imports the console's server made for the jobs (one per 20 rows).
    expect(seen.filter((s) => s.status === 429)).toEqual([]);
    expect(logged.filter((line) => /"statusCode":429/.test(line))).toEqual([]);
    expect(logged.filter((line) => /"method":"POST","url":"\/api\/v1\/shipments\/imports\/file"/.test(line))).toHaveLength(SENDERS.length * IMPORTS_PER_JOB);
    for (const [i, page] of pages.entries()) {
      await expectInvariant(page, ROWS);
      const batchIds = await jobBatchIds(page);
      expect(batchIds).toHaveLength(IMPORTS_PER_JOB);
      await expectNoRowTwice(request, sandbox.url, { prefix: SENDERS[i]!.prefix, rows: ROWS, batchIds, resent: [], page });
    }
    expect(errors).toEqual([]);
  } finally {
    await Promise.all(contexts.map((context) => context.close()));
  }
});
