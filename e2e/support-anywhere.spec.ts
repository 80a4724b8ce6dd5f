// Support anywhere (DESIGN §1 journey 12): a colleague in another browser, sharing no storage with
// the sender, finds the import under History → Team, opens the sender's job link and the batch by
// its id, downloads the failed rows, fixes the row that failed the batch and resends them.
import { readFile } from 'node:fs/promises';
import type { Browser, Page } from '@playwright/test';
import { expect, screenshot, test } from './support/fixtures';
import { startRestartableServerProcess } from '../src/tooling/server-process';
import { connectToSandbox } from './support/journey';
import { tabTo } from './support/keyboard';

const KEY = 'sandbox-demo-key-4173';
const RUN = Date.now().toString(36).toUpperCase();
const ref = (n: number) => `SUP-${RUN}-${n}`;

// Row 3's number makes the sandbox fail the batch there: rows 3 to 5 fail with batch_failed.
const FILE = [
  'tracking_number,tracking_type,reference,carrier,name',
  `MSCU1234566,container,${ref(1)},MSCU,First`,
  `MAEU240000123,bill_of_lading,${ref(2)},MAEU,Second`,
  `CMDU240000500,bill_of_lading,${ref(3)},CMDU,Fails the batch`,
  `MAEU240000124,bill_of_lading,${ref(4)},MAEU,After it`,
  `MAEU240000125,bill_of_lading,${ref(5)},MAEU,Last`,
].join('\r\n');

async function newPerson(browser: Browser, baseURL: string): Promise<Page> {
  const context = await browser.newContext({ baseURL });
  return context.newPage();
}

async function send(page: Page): Promise<string> {
  await page.getByLabel('Spreadsheet file').setInputFiles({ name: `weekly-${RUN}.csv`, mimeType: 'text/csv', buffer: Buffer.from(FILE) });
  await page.getByRole('button', { name: 'Continue to review' }).click();
  await page.getByRole('button', { name: /Continue with 5 ready rows/ }).click();
  await page.getByRole('button', { name: 'Send 5 rows' }).click();
  await expect(page).toHaveURL(/\/imports\/[0-9a-f-]{36}$/);
  return page.url().split('/').pop()!;
}

// With the default the console's server sends the job; with CONSOLE_RUNS_JOBS off the sender's
// browser does and the colleague reads the team history's copy of it.
for (const runsJobs of ['on', 'off'] as const) {
  test.describe(runsJobs === 'on' ? 'sent by the console’s server' : 'sent by the sender’s browser (CONSOLE_RUNS_JOBS off)', () => {
    test.use({ consoleRunsJobs: runsJobs });
    test('a colleague in another browser finds the import, opens its job and batch, downloads and resends the failed rows fixed', async ({ browser, baseURL, request, expectAccessible }) => {
      test.slow();
      const sender = await newPerson(browser, baseURL!);
      await connectToSandbox(sender);
      const jobId = await send(sender);
      await expect(sender.getByText('Finished with failures').first()).toBeVisible({ timeout: 60_000 });
      const batchId = (await sender.locator('table').filter({ has: sender.getByRole('columnheader', { name: 'Batch' }) }).locator('tbody tr td:first-child').first().textContent())!.trim();

      // Support: another browser, nothing shared but the console's address.
      const support = await newPerson(browser, baseURL!);
      await connectToSandbox(support);
      await support.goto('/history');
      if (runsJobs === 'on') {
        // The console's server runs the workspace's jobs, so any browser of it lists and watches them.
        const listed = support.getByRole('row').filter({ has: support.getByRole('rowheader', { name: new RegExp(`^weekly-${RUN}\\.csv`) }) });
        await expect(listed.getByRole('cell', { name: 'The console’s server' })).toBeVisible();
      } else {
        await expect(support.getByText('No import jobs yet')).toBeVisible();
      }
      await support.getByRole('link', { name: 'Team', exact: true }).click();
      const team = support.getByRole('region', { name: /team's import jobs/ });
      await expect(team.getByRole('link', { name: `weekly-${RUN}.csv` })).toBeVisible({ timeout: 20_000 });
      await support.getByLabel('Search').fill(ref(4));
      await expect(team.getByRole('link', { name: `weekly-${RUN}.csv` })).toBeVisible();
      await expect(team.getByRole('row')).toHaveCount(2);
      await expectAccessible(support);
      await screenshot(support, `support-team-history-${runsJobs}`);

      // The sender's job link, in the browser that did not send it.
      await support.goto(`/imports/${jobId}`);
      await expect(support.getByText(runsJobs === 'on' ? /^Sent by the console’s server/ : 'Sent from another browser by')).toBeVisible();
      await expect(support.getByRole('link', { name: batchId })).toBeVisible();
      // Its results on the job page itself: the batch's rows with their reasons and fix & retry.
      await expect(support.getByRole('region', { name: 'Result rows' })).toBeVisible();
      await expect(support.getByRole('button', { name: 'Fix and retry 3 rows' })).toBeVisible();
      await expectAccessible(support);
      await screenshot(support, `support-team-job-${runsJobs}`);
      await support.getByRole('link', { name: batchId }).click();

      // The batch by its id: every row with its reason, the failed rows to download.
      await expect(support.getByRole('heading', { name: `Batch ${batchId}` })).toBeVisible();
      await expect(support.getByRole('alert').filter({ hasText: 'The batch failed' })).toContainText('Line 4 of the file');
      await expect(support.getByRole('region', { name: 'Result rows' })).toBeVisible();
      await expectAccessible(support);
      await screenshot(support, `support-batch-${runsJobs}`);
      const [download] = await Promise.all([support.waitForEvent('download'), support.getByRole('button', { name: 'Download failed rows as CSV' }).click()]);
      const failedCsv = await readFile(await download.path(), 'utf8');
      const lines = failedCsv.trim().split(/\r\n/);
      expect(lines[0]).toBe('tracking_number,tracking_type,reference,carrier,name,viewers,tags,assignees,error');
      expect(lines.slice(1).map((line) => line.split(',')[2])).toEqual([ref(3), ref(4), ref(5)]);

      // Fix and retry: the three rows in the review grid; the row that failed the batch gets a new number.
      await support.getByRole('button', { name: 'Fix and retry 3 rows' }).click();
      await support.getByRole('button', { name: 'Continue to review' }).click();
      const grid = support.getByRole('region', { name: 'Rows to review' });
      await expect(grid.getByRole('cell', { name: /^Service: / }).first()).toContainText('Line 4 of the file');
      // A click while the grid is still laying out its rows can miss the editor: click again, as a person would.
      await expect(async () => {
        await grid.getByRole('button', { name: /^tracking_number, line 4: CMDU240000500/ }).click();
        await expect(support.getByRole('textbox', { name: /Edit tracking_number/ })).toBeVisible({ timeout: 2_000 });
      }).toPass({ timeout: 20_000 });
      await support.getByRole('textbox', { name: /Edit tracking_number/ }).fill('CMDU240000777');
      await support.keyboard.press('Enter');
      await support.getByRole('button', { name: /Continue/ }).click();
      await support.getByRole('button', { name: /^Send 3 rows/ }).click();
      await expect(support.getByRole('heading', { name: `retry of batch ${batchId}`, level: 1 })).toBeVisible();
      // The retry links back to the batch its rows came from, not to a job this browser never had.
      await expect(support.getByRole('link', { name: `retry of batch ${batchId}` })).toHaveAttribute('href', `/batches/${batchId}`);
      await expect(support.getByRole('button', { name: 'Created 3' }).or(support.getByRole('button', { name: 'Updated 3' }))).toBeVisible({ timeout: 120_000 });

      // The sandbox holds each reference once; the fixed row has its new number.
      // Every page of the workspace (other specs share it): each reference of this file once.
      const shipments: { reference: string | null; tracking_number: string }[] = [];
      for (let page = 1; page <= 50; page++) {
        const listed = await request.get(`/api/v1/shipments?page_size=100&page=${page}`, { headers: { Authorization: `Bearer ${KEY}` } });
        const body = (await listed.json()) as { data: { reference: string | null; tracking_number: string }[]; pagination: { total_pages: number } };
        shipments.push(...body.data.filter((s) => s.reference?.startsWith(`SUP-${RUN}-`)));
        if (page >= body.pagination.total_pages) break;
      }
      expect(shipments.map((s) => s.reference).sort()).toEqual([1, 2, 3, 4, 5].map(ref));
      expect(shipments.find((s) => s.reference === ref(3))?.tracking_number).toBe('CMDU240000777');
    });
  });
}

test('the Team view and a job link show hostile names as text, and work by keyboard alone', async ({ page, request, baseURL, expectAccessible }) => {
  const jobId = `4a1b2c3d-0000-4000-8000-${RUN.padStart(12, '0').slice(-12).toLowerCase().replace(/[^0-9a-f]/g, 'a')}`;
  const hostile = `<img src=x onerror="window.__hacked=1">${RUN}.csv`;
  const put = await request.put(`${baseURL}/console/api/jobs/${jobId}`, {
    headers: { authorization: `Bearer ${KEY}` },
    data: {
      source: { kind: 'file', name: hostile, size: 10, contentHash: null, retryOf: null },
      numbering: 'Line',
      sentBy: '=HYPERLINK("http://evil")',
      createdAt: Date.now(),
      version: Date.now(),
      state: 'Finished',
      finished: true,
      rowsRead: 1,
      rowsSkipped: 1,
      counts: { created: 1, updated: 0, failed: 0, withWarnings: 0, trackingFailed: 0 },
      chunks: [],
      skipped: [{ rowNumber: 3, reason: '<script>window.__hacked=1</script>' }],
    },
  });
  expect(put.status()).toBe(200);

  await connectToSandbox(page);
  await page.goto('/history?view=team');
  await tabTo(page, page.getByLabel('Search'));
  await page.keyboard.type(RUN);
  const link = page.getByRole('link', { name: hostile });
  await tabTo(page, link);
  await expect(page.getByRole('cell', { name: '=HYPERLINK("http://evil")' })).toBeVisible();
  await expectAccessible(page);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: hostile, level: 1 })).toBeVisible();
  await expect(page.getByText('Line 3: <script>window.__hacked=1</script>')).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { __hacked?: number }).__hacked)).toBeUndefined();
  await expect(page.locator('main img')).toHaveCount(0);
});

test('the team history survives kill -9 of the console server in the middle of a job', async ({ browser }) => {
  test.slow();
  // The team history's copy of a job the sender's browser sends and reports (the runner a browser uses in direct mode); send-and-close.spec.ts kills a server that runs the job itself.
  const server = await startRestartableServerProcess({ entry: 'src/server/main.ts', env: { CONSOLE_RUNS_JOBS: 'off', SANDBOX_ROW_DELAY_MS: '2000' } });
  try {
    const sender = await newPerson(browser, server.url);
    await connectToSandbox(sender, server.url);
    const jobId = await send(sender);
    // Killed while the batch processes: the sender's report of the accepted request is already kept.
    await expect(sender.getByText('Processing').first()).toBeVisible({ timeout: 30_000 });
    await server.kill();
    await server.restart();
    const support = await newPerson(browser, server.url);
    await connectToSandbox(support, server.url);
    await support.goto(`${server.url}/imports/${jobId}`);
    await expect(support.getByText('Sent from another browser by')).toBeVisible();
    await expect(support.getByText('Accepted')).toBeVisible();
    // The sender's browser goes on reporting after the restart: the job finishes in the history too.
    await expect(support.getByText(/Finished with failures/).first()).toBeVisible({ timeout: 90_000 });
  } finally {
    await server.stop();
  }
});
