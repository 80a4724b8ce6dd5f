// Send and close, with the console's server running jobs (CONSOLE_RUNS_JOBS, on by default): the browser hands
// the job over and may go. Send and close the whole browser context at once → the service receives
// every row and the job reads Finished in a new context, sent by the console's server, with its
// results read from that server. And kill -9
// of the console's server mid-job with no browser open, then a restart → the job resumes where it
// stopped, no row twice in the sandbox's store, the invariant holds.
import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { startRestartableServerProcess } from '../src/tooling/server-process';
import { expect, screenshot, test } from './support/fixtures';
import { shipmentsCsv } from './support/files';
import { expectInvariant } from './support/invariants';
import { connectToSandbox, dropAndSend, jobFinishedBadge } from './support/journey';
import { DEMO_KEY, listShipments } from './support/sandbox-api';
import { startSandbox } from './support/servers';

test.describe.configure({ timeout: 180_000 });

const auth = { Authorization: `Bearer ${DEMO_KEY}` };

interface ServerJob {
  finishedAt: number | null;
  chunks: { id: number; state: { status: string } }[];
}

/** The job as the console's server holds it, read with the demo key (no browser). */
async function serverJob(request: APIRequestContext, url: string, id: string): Promise<ServerJob | null> {
  const response = await request.get(`${url}/console/api/server-jobs/${id}`, { headers: auth }).catch(() => null);
  if (!response?.ok()) return null;
  return ((await response.json()) as { job: ServerJob }).job;
}

/** A browser context of its own, connected to the sandbox, that Sends the file; returns the job id with the context still open. */
async function sendFrom(browser: Browser, url: string, name: string, csv: string, rows: number): Promise<{ id: string; close: () => Promise<void>; page: Page }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await connectToSandbox(page, url);
  const id = await dropAndSend(page, name, csv, rows);
  return { id, page, close: () => context.close() };
}

/** A new context opens the job from History, as a person coming back would. */
async function openInNewContext(browser: Browser, url: string, name: string): Promise<{ page: Page; close: () => Promise<void> }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await connectToSandbox(page, url);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'History' }).click();
  const row = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: new RegExp(`^${name.replace('.', '\\.')}`) }) });
  await expect(row.getByRole('cell', { name: 'The console’s server' })).toBeVisible();
  await row.getByRole('link', { name: new RegExp(`^Open ${name.replace('.', '\\.')}`) }).click();
  return { page, close: () => context.close() };
}

test('Send and close the context at once: the service receives every row, and the job reads Finished in a new context', async ({ browser, request }) => {
  // Two imports per 5 s of 25 rows: sending takes about 20 s, so a browser that closes at once has sent almost nothing itself.
  const sandbox = await startSandbox({ SANDBOX_MAX_BATCH_ROWS: '25', SANDBOX_IMPORT_LIMIT: '2', SANDBOX_IMPORT_WINDOW_S: '5' });
  try {
    const sent = await sendFrom(browser, sandbox.url, 'closed.csv', shipmentsCsv(200, { prefix: 'CLOSED' }), 200);
    await expect(sent.page.getByText(/Sent by the console’s server/)).toBeVisible();
    await sent.close();

    // No browser open: the service receives every row all the same.
    await expect.poll(async () => (await listShipments(request, sandbox.url, 'page_size=1')).total, { timeout: 90_000, intervals: [1_000] }).toBe(200);
    await expect.poll(async () => (await serverJob(request, sandbox.url, sent.id))?.finishedAt ?? null, { timeout: 90_000, intervals: [1_000] }).not.toBeNull();

    const again = await openInNewContext(browser, sandbox.url, 'closed.csv');
    await expect(jobFinishedBadge(again.page)).toBeVisible({ timeout: 30_000 });
    await expect(again.page.getByText('Sent by the console’s server.')).toBeVisible();
    await expect(again.page.getByRole('term').filter({ hasText: /^Created$/ }).locator('xpath=following-sibling::dd')).toHaveText('200');
    // Its results, read from the console's server (this browser's storage never had them): each row beside what the service made of it.
    const results = again.page.getByRole('region', { name: 'Results' });
    await expect(results.getByRole('button', { name: 'Created 200' })).toBeVisible({ timeout: 30_000 });
    await expect(results.getByText('Results not available')).toHaveCount(0);
    await results.getByRole('button', { name: 'All 200' }).click();
    await expect(results.getByRole('region', { name: 'Result rows' })).toContainText('CLOSED-1');
    await expectInvariant(again.page, 200);
    await screenshot(again.page, 'send-and-close-finished');
    await again.close();
  } finally {
    await sandbox.stop();
  }
});

test('kill -9 of the console’s server mid-job with no browser open, restart: it resumes, no row twice, the invariant holds', async ({ browser, request }) => {
  // Two imports per 3 s of 25 rows: 300 rows take about 18 s to send, so the kill lands mid-job.
  const server = await startRestartableServerProcess({ env: { SANDBOX_ROW_DELAY_MS: '5', SANDBOX_IMPORT_LIMIT: '2', SANDBOX_IMPORT_WINDOW_S: '3', SANDBOX_MAX_BATCH_ROWS: '25' } });
  try {
    const sent = await sendFrom(browser, server.url, 'killed.csv', shipmentsCsv(300, { prefix: 'KILLED' }), 300);
    await sent.close();
    await expect
      .poll(async () => (await serverJob(request, server.url, sent.id))?.chunks.filter((c) => c.state.status === 'accepted').length ?? 0, { timeout: 60_000, intervals: [500] })
      .toBeGreaterThanOrEqual(4);
    await server.kill();
    await server.restart();

    // It goes on by itself; a chunk the kill cut off mid-request is unknown, and only the user resends it (under its Idempotency-Key).
    const resent = new Set<number>();
    await expect
      .poll(
        async () => {
          const job = await serverJob(request, server.url, sent.id);
          for (const chunk of job?.chunks.filter((c) => c.state.status === 'unknown' && !resent.has(c.id)) ?? []) {
            resent.add(chunk.id);
            await request.post(`${server.url}/console/api/server-jobs/${sent.id}/decisions`, { headers: auth, data: { type: 'resend', chunkId: chunk.id } });
          }
          return job?.finishedAt ?? null;
        },
        { timeout: 120_000, intervals: [1_000] },
      )
      .not.toBeNull();

    // The sandbox holds each row once: 300 shipments, each reference once.
    const stored = [...(await listShipments(request, server.url, 'page_size=100&page=1')).data, ...(await listShipments(request, server.url, 'page_size=100&page=2')).data, ...(await listShipments(request, server.url, 'page_size=100&page=3')).data];
    expect((await listShipments(request, server.url, 'page_size=1')).total).toBe(300);
    const names = stored.map((shipment) => shipment.name);
    expect(new Set(names).size).toBe(300);

    const again = await openInNewContext(browser, server.url, 'killed.csv');
    await expect(jobFinishedBadge(again.page)).toBeVisible({ timeout: 30_000 });
    await expect(again.page.getByRole('term').filter({ hasText: /^Created$/ }).locator('xpath=following-sibling::dd')).toHaveText('300');
    await expectInvariant(again.page, 300);
    await screenshot(again.page, 'send-and-close-after-kill');
    await again.close();
  } finally {
    await server.stop();
  }
});
