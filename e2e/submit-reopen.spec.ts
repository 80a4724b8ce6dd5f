// Issue #11's done-when: drop a clean file (60 rows), send it, close the tab, open the console again
// and see the job finish with 60 created — with default settings (the sandbox's one-click
// connection is remembered; the console's server sends the job). When the new tab has no
// connection, History says the server's jobs are listed once connected and connects to the sandbox
// in one click; with CONSOLE_RUNS_JOBS off it says the browser's job waits for a connection.
import { expect, screenshot, test } from './support/fixtures';
import { shipmentsCsv } from './support/files';
import { connectToSandbox, dropAndSend, jobFinishedBadge } from './support/journey';

test.describe.configure({ timeout: 120_000 });

test('a job sent from a tab that was closed finishes in a new tab with 60 created', async ({ context, page }) => {
  await connectToSandbox(page);
  // A name of its own: History lists every job the console's server sends for the workspace, and
  // other specs send on the same server.
  await dropAndSend(page, 'reopened.csv', shipmentsCsv(60, { prefix: 'REOPEN' }), 60);
  await expect(page.getByText('Requests accepted: 1 of 1')).toBeVisible();
  await page.close();

  const again = await context.newPage();
  await again.goto('/');
  await expect(again.getByText('Not connected')).toHaveCount(0);
  await again.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'History' }).click();
  const row = again.getByRole('row').filter({ has: again.getByRole('rowheader', { name: /^reopened\.csv/ }) });
  await expect(row.getByRole('cell').first()).toHaveText(/^\W*Finished$/, { timeout: 60_000 });
  await expect(row.getByRole('cell').nth(4)).toHaveText('60'); // Created
  await row.getByRole('link', { name: /^Open reopened\.csv/ }).click();
  // The job's page, not History's table (whose rows have badges of their own).
  await expect(again.getByRole('heading', { level: 1, name: 'reopened.csv' })).toBeVisible();
  await expect(jobFinishedBadge(again)).toHaveText(/^\W*Finished$/);
  await expect(again.getByRole('term').filter({ hasText: /^Created$/ }).locator('xpath=following-sibling::dd')).toHaveText('60');
  await screenshot(again, 'submit-reopened-finished');
});

test('a new tab without a connection says where the job went on, and one click to the sandbox lists it finished', async ({ context, page }) => {
  await connectToSandbox(page);
  await dropAndSend(page, 'unconnected.csv', shipmentsCsv(60, { prefix: 'SERVERRUN' }), 60);
  await expect(page.getByText(/Sent by the console’s server/)).toBeVisible();
  await page.close();

  const again = await context.newPage();
  // As after a connection kept for one tab only (an API key typed without "remember").
  await again.goto('/history');
  await again.evaluate(() => localStorage.removeItem('import-console.connection'));
  await again.reload();
  const notice = again.getByRole('status').filter({ hasText: 'Connect to see the jobs the console’s server sends' });
  await expect(notice).toContainText('Jobs sent from this browser keep running on the console’s server with every tab closed; they are listed here once this browser is connected to the local sandbox.');
  await screenshot(again, 'history-server-jobs-need-connection');
  await notice.getByRole('button', { name: 'Connect to the local sandbox' }).click();
  const row = again.getByRole('row').filter({ has: again.getByRole('rowheader', { name: /^unconnected\.csv/ }) });
  await expect(row.getByRole('cell').first()).toHaveText(/^\W*Finished$/, { timeout: 60_000 });
  await expect(row.getByRole('cell').nth(4)).toHaveText('60');
  await expect(row.getByRole('cell', { name: 'The console’s server' })).toBeVisible();
});

test.describe('sent by the browser (CONSOLE_RUNS_JOBS off)', () => {
  // Tests the runner a browser uses in direct mode: a job with work left waits for this browser's connection.
  test.use({ consoleRunsJobs: 'off' });
  test('a new tab without a connection says the job waits, and one click to the sandbox resumes it', async ({ context, page }) => {
    await connectToSandbox(page);
    await dropAndSend(page, 'clean.csv', shipmentsCsv(60, { prefix: 'RECONNECT' }), 60);
    await expect(page.getByText('Requests accepted: 1 of 1')).toBeVisible();
    await page.close();

    const again = await context.newPage();
    // As after a connection kept for one tab only (an API key typed without "remember").
    await again.goto('/history');
    await again.evaluate(() => localStorage.removeItem('import-console.connection'));
    await again.reload();
    const row = again.getByRole('row').filter({ has: again.getByRole('rowheader', { name: /^clean\.csv/ }) }).first();
    await expect(row.getByText('Waiting for a connection')).toBeVisible();
    await expect(again.getByText('It resumes sending and polling once this browser is connected to the local sandbox.')).toBeVisible();
    await screenshot(again, 'history-waiting-for-connection');
    await again.getByRole('button', { name: 'Connect to the local sandbox' }).click();
    await expect(row.getByRole('cell').first()).toHaveText(/^\W*Finished$/, { timeout: 60_000 });
    await expect(row.getByRole('cell').nth(4)).toHaveText('60');
  });
});
