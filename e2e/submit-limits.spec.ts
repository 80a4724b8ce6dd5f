// Sending against a sandbox with a tiny import limit (2 per 5 s) and a small row cap (25): the
// console paces by the headers (no 429 surfaced), splits on the cap, and drops no row. The first
// test plays a service that does not advertise its cap (the real one does not), so the console
// learns it from a 413; the second takes the sandbox's advertised cap and needs no split. With the
// default, the console's server sends the job through its pacer; the browser's own runner (as in
// direct mode) keeps its tests, with CONSOLE_RUNS_JOBS off.
import { expect, screenshot, test } from './support/fixtures';
import { shipmentsCsv } from './support/files';
import { connectToSandbox, dropAndSend, jobBatchIds } from './support/journey';
import { expectInvariant } from './support/invariants';
import { sandboxBatch, shipmentsOfBatch } from './support/sandbox-api';
import { startSandbox } from './support/servers';

const LIMITS = { SANDBOX_IMPORT_LIMIT: '2', SANDBOX_IMPORT_WINDOW_S: '5', SANDBOX_MAX_BATCH_ROWS: '25' };

test('sent by the console’s server: paced by the tiny import limit, cut at the row cap, every row once, each step shown', async ({ page, request }) => {
  test.setTimeout(150_000);
  const server = await startSandbox(LIMITS);
  try {
    await connectToSandbox(page, server.url);
    await dropAndSend(page, 'server-capped.csv', shipmentsCsv(120, { prefix: 'SCAP' }), 120);
    await expect(page.getByText(/Sent by the console’s server/)).toBeVisible();
    await expect(page.getByText(/Requests accepted: [0-4] of 5/)).toBeVisible({ timeout: 30_000 });
    await screenshot(page, 'submit-server-paced');
    await expect(page.getByText('Requests accepted: 5 of 5')).toBeVisible({ timeout: 60_000 });
    await expect(page.getByText(/^✓\s*Finished$/)).toBeVisible({ timeout: 60_000 });
    await expectInvariant(page, 120);
    const ids = await jobBatchIds(page);
    expect(ids).toHaveLength(5);
    let total = 0;
    for (const id of ids) {
      const batch = await sandboxBatch(request, server.url, id);
      expect(batch.total_requests).toBeLessThanOrEqual(25);
      total += await shipmentsOfBatch(request, server.url, id);
    }
    expect(total).toBe(120);
  } finally {
    await server.stop();
  }
});

test.describe('sent by the browser (CONSOLE_RUNS_JOBS off)', () => {
  // Tests the runner a browser uses in direct mode: its own requests, tabs and Web Lock are what they watch.
  let sandbox: Awaited<ReturnType<typeof startSandbox>>;

  test.beforeAll(async () => {
    sandbox = await startSandbox({ CONSOLE_RUNS_JOBS: 'off', ...LIMITS });
  });
  test.afterAll(async () => {
    await sandbox.stop();
  });

  test('paced by a tiny import limit and split at the row cap: every row sent once, no 429', async ({ page, request }) => {
    test.setTimeout(150_000);
    const imports: { status: number; at: number }[] = [];
    page.on('response', (response) => {
      if (response.request().method() === 'POST' && response.url().includes('/imports/file')) imports.push({ status: response.status(), at: Date.now() });
    });
    await page.route('**/sandbox.json', async (route) => {
      const response = await route.fetch();
      const { max_batch_rows: _, ...info } = (await response.json()) as Record<string, unknown>;
      await route.fulfill({ response, json: info });
    });
    await connectToSandbox(page, sandbox.url);
    await dropAndSend(page, 'capped.csv', shipmentsCsv(120, { prefix: 'CAP' }), 120);
    await expect(page.getByText('Requests accepted: 5 of 5')).toBeVisible({ timeout: 60_000 });
    await screenshot(page, 'submit-split-paced');
    await expect(page.getByText(/^✓\s*Finished$/)).toBeVisible({ timeout: 60_000 });

    // One refused for the cap (413), then five of 25 rows; two per window at most, never a 429.
    expect(imports.map((i) => i.status)).toEqual([413, 202, 202, 202, 202, 202]);
    const accepted = imports.filter((i) => i.status === 202);
    for (let i = 2; i < accepted.length; i++) expect(accepted[i]!.at - accepted[i - 2]!.at).toBeGreaterThan(2_000);
    await expect(page.getByText(/Holds:\s*rows read 120 = sent 120 \+ skipped 0/)).toBeVisible();
    await expect(page.getByText(/Holds:\s*every sent row is in exactly one result item/)).toBeVisible();
    const ids = await jobBatchIds(page);
    expect(ids).toHaveLength(5);
    let total = 0;
    for (const id of ids) total += await shipmentsOfBatch(request, sandbox.url, id);
    expect(total).toBe(120);
    await screenshot(page, 'submit-split-finished');
  });

  test('a reload while submitting and a second tab: one runner, every chunk sent once', async ({ page, context, request }) => {
    test.setTimeout(180_000);
    const posts: string[] = [];
    context.on('response', (response) => {
      if (response.request().method() === 'POST' && response.url().includes('/imports/file')) posts.push(String(response.status()));
    });
    await connectToSandbox(page, sandbox.url);
    const jobId = await dropAndSend(page, 'tabs.csv', shipmentsCsv(200, { prefix: 'TABS', owner: 'TGH' }), 200);
    await expect(page.getByText(/Requests accepted: [3-7] of 8/)).toBeVisible({ timeout: 60_000 });
    await page.reload();
    await expect(page.getByRole('heading', { name: 'tabs.csv' })).toBeVisible();

    // The key lives in sessionStorage, per tab: the second tab connects too, then opens the job.
    const second = await context.newPage();
    await connectToSandbox(second, sandbox.url);
    await second.goto(`${sandbox.url}/imports/${jobId}`);
    await expect(second.getByRole('status').filter({ hasText: 'Another tab of this console sends and polls' })).toBeVisible();
    const held = await second.evaluate(async () => (await navigator.locks.query()).held?.length ?? 0);
    expect(held).toBe(1);
    await screenshot(second, 'submit-second-tab');

    // The first tab goes away: the second takes over and finishes the job. A chunk that a closing
    // tab left mid-request is offered, not resent by itself: this test resends it.
    await page.close();
    const finished = second.getByText(/^✓\s*Finished$/);
    const resend = second.getByRole('button', { name: /^Resend rows/ });
    await expect(finished.or(resend.first())).toBeVisible({ timeout: 90_000 });
    const offered = await resend.count();
    if (offered > 0) {
      await screenshot(second, 'submit-takeover-unknown');
      for (let i = 0; i < offered; i++) await resend.first().click();
    }
    await expect(finished).toBeVisible({ timeout: 90_000 });
    await expect(second.getByText(/Holds:\s*rows read 200 = sent 200 \+ skipped 0/)).toBeVisible();
    await expect(second.getByText(/Holds:\s*rows sent 200 = Σ total_requests of the 8 batches 200/)).toBeVisible();
    // 8 accepted; one more reached the service only if a resent chunk's first request did.
    expect(posts.filter((s) => s === '202').length).toBeGreaterThanOrEqual(8);
    expect(posts.filter((s) => s === '202').length).toBeLessThanOrEqual(8 + offered);
    // A fresh page knows no headers yet: its first import may meet a full window (one 429, waited
    // out, never a failure). Here that is the reload and the takeover: two at the most.
    expect(posts.filter((s) => s === '429').length).toBeLessThanOrEqual(2);
    const ids = await jobBatchIds(second);
    let total = 0;
    for (const id of ids) total += await shipmentsOfBatch(request, sandbox.url, id);
    expect(total).toBe(200);
  });

  test('the sandbox advertises its row cap: chunks are cut to it at once, none refused', async ({ page }) => {
    test.setTimeout(150_000);
    const statuses: number[] = [];
    page.on('response', (response) => {
      if (response.request().method() === 'POST' && response.url().includes('/imports/file')) statuses.push(response.status());
    });
    await connectToSandbox(page, sandbox.url);
    await dropAndSend(page, 'advertised.csv', shipmentsCsv(50, { prefix: 'ADV' }), 50);
    await expect(page.getByText(/^✓\s*Finished$/)).toBeVisible({ timeout: 90_000 });
    expect(statuses).toEqual([202, 202]);
    await expect(page.getByText(/Holds:\s*rows read 50 = sent 50 \+ skipped 0/)).toBeVisible();
  });
});
