// The ways into support anywhere (DESIGN §1 journey 12): the name typed at Connect that a colleague
// sees beside the import, History's "Batch id" field, the Shipments filter's "Open its results",
// and the job page's batch links with Copy link. Two browser contexts that share no storage.
import type { Browser, Page } from '@playwright/test';
import { expect, screenshot, test } from './support/fixtures';
import { shipmentsCsv } from './support/files';
import { connectToSandbox, dropAndSend, jobBatchIds } from './support/journey';

const RUN = Date.now().toString(36).toUpperCase();
const NAME = `Ana Support ${RUN}`;
const FILE = `entry-${RUN}.csv`;

async function newPerson(browser: Browser, baseURL: string, permissions: string[] = []): Promise<Page> {
  const context = await browser.newContext({ baseURL, permissions });
  return context.newPage();
}

test('a name typed at Connect is what a colleague sees under History → Team; every batch id leads to its batch page', async ({ browser, baseURL, expectAccessible }) => {
  test.slow();
  // The sender: a name at Connect, then the sandbox in one click, then a small file.
  const sender = await newPerson(browser, baseURL!, ['clipboard-read', 'clipboard-write']);
  await sender.goto('/connect');
  const name = sender.getByRole('textbox', { name: 'Your name (optional)' });
  await expect(name).toBeVisible();
  await expect(name).toHaveAccessibleDescription(/never sent to the tracking service/);
  await name.fill(NAME);
  await expectAccessible(sender);
  await screenshot(sender, 'support-entry-connect');
  await sender.getByRole('button', { name: 'Use local sandbox' }).click();
  await expect(sender.getByRole('heading', { name: 'Import shipments' })).toBeVisible();
  const jobId = await dropAndSend(sender, FILE, shipmentsCsv(3, { prefix: `ENTRY-${RUN}` }), 3);

  // The job page: the batch id is a link (the helper still reads the bare id), and Copy link copies its address.
  const batches = sender.getByRole('table').filter({ has: sender.getByRole('columnheader', { name: 'Batch' }) });
  await expect(batches.locator('tbody tr')).toHaveCount(1);
  const [batchId = ''] = await jobBatchIds(sender);
  expect(batchId).toMatch(/^[0-9a-f-]{36}$/);
  await expect(batches.getByRole('link', { name: batchId })).toHaveAttribute('href', `/batches/${batchId}`);
  await batches.getByRole('button', { name: `Copy link to batch ${batchId}` }).click();
  await expect(sender.getByText('Link copied.')).toBeVisible();
  expect(await sender.evaluate(() => navigator.clipboard.readText())).toBe(`${baseURL}/batches/${batchId}`);
  await expectAccessible(sender);
  await screenshot(sender, 'support-entry-job-batches');

  // Shipments filtered by that batch: Open its results goes to the batch page.
  await sender.goto(`/shipments?batch_id=${batchId}`);
  const filter = sender.getByRole('search', { name: 'Filter shipments' });
  await expect(filter.getByRole('link', { name: 'Open its results' })).toBeVisible();
  await screenshot(sender, 'support-entry-shipments-filter');
  await filter.getByRole('link', { name: 'Open its results' }).click();
  await expect(sender.getByRole('heading', { name: `Batch ${batchId}` })).toBeVisible();

  // A colleague in another browser: the import under Team, with the sender's name.
  const support = await newPerson(browser, baseURL!);
  await connectToSandbox(support);
  await support.goto('/history?view=team');
  const team = support.getByRole('region', { name: /team's import jobs/ });
  const row = team.getByRole('row').filter({ has: support.getByRole('link', { name: FILE }) });
  await expect(row).toBeVisible({ timeout: 20_000 });
  await expect(row.getByRole('cell', { name: NAME, exact: true })).toBeVisible();
  await expectAccessible(support);
  await screenshot(support, 'support-entry-team-name');
  await row.getByRole('link', { name: FILE }).click();
  await expect(support).toHaveURL(new RegExp(`/imports/${jobId}$`));
  // The console's server sent it, for the name typed at Connect.
  await expect(support.getByText(`Sent by the console’s server for ${NAME}`)).toBeVisible();

  // History's Batch id field, by keyboard: empty says so and stays; a pasted id (with spaces) opens its batch.
  await support.goto('/history');
  const field = support.getByRole('textbox', { name: 'Batch id' });
  await field.focus();
  await support.keyboard.press('Tab');
  await expect(support.getByRole('button', { name: 'Open batch' })).toBeFocused();
  await support.keyboard.press('Enter');
  await expect(field).toHaveAccessibleDescription('Type or paste a batch id first: the field is empty.');
  await expect(support).toHaveURL(/\/history$/);
  await expectAccessible(support);
  await screenshot(support, 'support-entry-history-field');
  await field.focus();
  await support.keyboard.insertText(`  ${batchId}  `);
  await support.keyboard.press('Enter');
  await expect(support).toHaveURL(new RegExp(`/batches/${batchId}$`));
  await expect(support.getByRole('heading', { name: `Batch ${batchId}` })).toBeVisible();
  await expect(support.getByRole('region', { name: 'Result rows' })).toBeVisible();

  // From the Team view too; an id the workspace does not have gets the batch page's sentence.
  await support.goto('/history?view=team');
  await support.getByRole('textbox', { name: 'Batch id' }).fill(`no-such-batch-${RUN}`);
  await expectAccessible(support);
  await support.getByRole('button', { name: 'Open batch' }).click();
  await expect(support.getByText('No such batch')).toBeVisible();
  await expect(support.getByText(`The service has no batch no-such-batch-${RUN} in the workspace this console is connected to.`)).toBeVisible();
  await screenshot(support, 'support-entry-no-such-batch');
});
