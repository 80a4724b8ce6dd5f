// A request that never left the browser is no lost answer: when the results worker (which makes
// the imports) cannot load, the job pauses with a sentence that says nothing was sent, offers no
// Resend or Skip, and after a reload Resume sends every row once.
import { expect, screenshot, test } from './support/fixtures';
import { shipmentsCsv } from './support/files';
import { connectToSandbox, dropAndSend, jobBatchIds } from './support/journey';
import { storedJobSource } from './support/stored-job';
import { shipmentsOfBatch } from './support/sandbox-api';

// Tests the runner a browser uses in direct mode: its results worker makes the imports.
test.use({ consoleRunsJobs: 'off' });

test('the worker that sends cannot load: the job pauses saying nothing was sent, and Resume after a reload sends each row once', async ({ page, request, baseURL }) => {
  test.setTimeout(120_000);
  await connectToSandbox(page);
  // As after a redeploy that removed the script the page still names.
  await page.route('**/results-worker-*.js', (route) => route.abort('failed'));
  await dropAndSend(page, 'not-sent.csv', shipmentsCsv(12, { prefix: 'NOTSENT' }), 12);

  const paused = page.getByRole('alert').filter({ hasText: 'Paused' });
  await expect(paused).toContainText('so nothing was sent. Reload the page, then resume.');
  await expect(page.getByRole('region', { name: 'Requests whose answer was lost' })).toHaveCount(0);
  await expect(page.getByText('Requests accepted: 0 of 1')).toBeVisible();
  expect(await storedJobSource(page)).toMatchObject({ fileName: 'not-sent.csv' });
  await screenshot(page, 'submit-not-sent-paused');

  await page.unroute('**/results-worker-*.js');
  await page.reload();
  await page.getByRole('button', { name: 'Resume' }).click();
  await expect(page.getByText(/^✓\s*Finished$/)).toBeVisible({ timeout: 60_000 });
  const ids = await jobBatchIds(page);
  expect(ids).toHaveLength(1);
  expect(await shipmentsOfBatch(request, baseURL!, ids[0]!)).toBe(12);
});
