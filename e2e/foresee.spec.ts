// Creates and updates before Send (DESIGN §1 journey 14): a second file repeating 8 references of a
// first, sent and finished, says on the Ready step that 8 update existing shipments; a row without a
// reference repeating a number sent before is a possible duplicate, each count opening its rows in
// the review grid. A reference only the service knew (made through the API, not this console) is
// foreseen to create, and after Send the job page names that row as not foreseen; Check against
// the service reads the service's shipments and foresees such a row as an update.
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { screenshot, test } from './support/fixtures';
import { containerNumber } from './support/files';
import { connectToSandbox, continueToReady, continueToReview, dropFile, jobFinishedBadge, send } from './support/journey';
import { DEMO_KEY, sandboxBatch } from './support/sandbox-api';

const RUN = Date.now().toString(36).toUpperCase();
const ref = (i: number | string) => `FS-${RUN}-${i}`;
const BASE = (Date.now() % 9_000) * 10;
const number = (owner: string, i: number) => containerNumber(owner, BASE + i);
const HEADER = 'tracking_number,tracking_type,reference,carrier';
const row = (trackingNumber: string, reference: string) => `${trackingNumber},container,${reference},MAEU`;
const csv = (rows: string[]) => [HEADER, ...rows].join('\r\n');
const today = () => new Date().toLocaleDateString('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });

/** Shipments made straight through the service's API (no console job, no team history), once processed. */
async function shipmentsThroughApi(request: APIRequestContext, baseURL: string, shipments: { reference: string; trackingNumber: string }[]): Promise<void> {
  const response = await request.post(`${baseURL}/api/v1/shipments/imports`, {
    headers: { Authorization: `Bearer ${DEMO_KEY}`, 'content-type': 'application/json' },
    data: shipments.map(({ reference, trackingNumber }) => ({ reference, tracking_number: trackingNumber, tracking_type: 'container', carrier_scac: 'MAEU' })),
  });
  expect(response.status()).toBe(202);
  const { id } = (await response.json()) as { id: string };
  await expect.poll(async () => (await sandboxBatch(request, baseURL, id)).status, { timeout: 30_000 }).toBe('completed');
}

async function sendAndFinish(page: Page, rows: number): Promise<void> {
  await send(page, rows);
  await expect(jobFinishedBadge(page)).toBeVisible({ timeout: 120_000 });
}

const foresight = (page: Page) => page.getByRole('region', { name: 'What the rows will do at the service' });

test('the Ready step says which rows create and which update, flags possible duplicates, checks against the service, and the job names the rows not as foreseen', async ({
  page,
  request,
  baseURL,
  expectAccessible,
}) => {
  test.setTimeout(360_000);
  const numbers = Array.from({ length: 10 }, (_, i) => number('FSA', i));
  const sentWithoutReference = number('FSN', 1);
  await connectToSandbox(page);

  // Week 1: 10 references and a row without one, sent and finished.
  await dropFile(page, `week-1-${RUN}.csv`, csv([...numbers.map((n, i) => row(n, ref(i + 1))), row(sentWithoutReference, '')]));
  await continueToReview(page, 11);
  await continueToReady(page, 11);
  await sendAndFinish(page, 11);

  // A shipment made another way: the service knows its reference, this console does not.
  const serviceOnly = ref('API-1');
  await shipmentsThroughApi(request, baseURL!, [{ reference: serviceOnly, trackingNumber: number('FSS', 1) }]);

  // Week 2: 8 references of week 1, 2 new ones, the service's, a number sent before without a
  // reference, and a new number without one.
  await page.goto('/');
  await dropFile(
    page,
    `week-2-${RUN}.csv`,
    csv([
      ...numbers.slice(0, 8).map((n, i) => row(n, ref(i + 1))),
      row(number('FSB', 1), ref(11)),
      row(number('FSB', 2), ref(12)),
      row(number('FSB', 3), serviceOnly),
      row(sentWithoutReference, ''),
      row(number('FSB', 4), ''),
    ]),
  );
  await continueToReview(page, 13);
  await continueToReady(page, 13);
  const panel = foresight(page);
  await expect(panel.getByRole('status').first()).toContainText('Known from this browser’s', { timeout: 30_000 });
  await expect(panel.getByRole('status').first()).toContainText('the team history of this workspace');
  await expect(panel).toContainText(`3 create · 8 update existing shipments · 2 without a reference, 1 of them already sent on ${today()}`);
  await expect(panel).toContainText('The service’s own shipments are not read');
  await expect(panel.getByRole('button', { name: 'Check against the service' })).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, 'foresee-ready');

  // Each count opens its rows in the review grid (by keyboard here): the possible duplicate, then the updates.
  await panel.getByRole('button', { name: `1 of them already sent on ${today()}` }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: /^Possible duplicates 1$/ })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('button', { name: /^Possible duplicates 1$/ })).toBeFocused();
  const grid = page.getByRole('region', { name: 'Rows to review' });
  await expect(grid.getByRole('row').filter({ hasText: sentWithoutReference })).toHaveCount(1);
  await expect(grid.getByRole('row').filter({ hasText: ref(1) })).toHaveCount(0);
  await page.getByRole('button', { name: /^Update existing 8$/ }).click();
  await expect(grid.getByRole('row').filter({ hasText: ref(1) })).toHaveCount(1);
  await expect(grid.getByRole('row').filter({ hasText: serviceOnly })).toHaveCount(0);
  await screenshot(page, 'foresee-review-filter');

  // Sent without checking against the service: the row of the service's reference updates where
  // "create" was foreseen, and the job page says so.
  await continueToReady(page, 13);
  await sendAndFinish(page, 13);
  const outcome = page.getByRole('region', { name: 'As foreseen?' });
  await expect(outcome).toContainText('1 row did not do what the Ready step foresaw: 1 foreseen to create updated an existing shipment.', { timeout: 30_000 });
  await outcome.getByRole('button', { name: 'Show this row' }).click();
  const notForeseen = outcome.getByRole('region', { name: 'Rows not as foreseen' });
  await expect(notForeseen.getByRole('row').filter({ hasText: serviceOnly })).toContainText('create a shipment');
  await expect(notForeseen.getByRole('row').filter({ hasText: serviceOnly })).toContainText('updated an existing shipment');
  await expect(notForeseen.getByRole('row')).toHaveCount(2); // the header and the one row
  await expectAccessible(page);
  await screenshot(page, 'foresee-not-as-foreseen');

  // Week 3: another reference only the service knows, among 120 more shipments (so that the
  // workspace holds more than one page of them). Check against the service foresees it as an update.
  const serviceOnlyToo = ref('API-2');
  await shipmentsThroughApi(request, baseURL!, [
    { reference: serviceOnlyToo, trackingNumber: number('FSS', 2) },
    ...Array.from({ length: 120 }, (_, i) => ({ reference: ref(`API-FILL-${i}`), trackingNumber: number('FSF', i) })),
  ]);
  await page.goto('/');
  await dropFile(page, `week-3-${RUN}.csv`, csv([row(number('FSC', 1), serviceOnlyToo), row(number('FSC', 2), ref(13))]));
  await continueToReview(page, 2);
  await continueToReady(page, 2);
  await expect(panel).toContainText('2 create · 0 update existing shipments · 0 without a reference', { timeout: 30_000 });
  await expect(panel.getByRole('group', { name: 'Check against the service' })).toContainText(/The service allows [\d,]+ more requests in its current window/);
  await panel.getByRole('button', { name: 'Check against the service' }).click();
  // More than one page: the first tells how many there are, and the rest's cost is shown before it is read.
  const readRest = panel.getByRole('button', { name: /^Read the rest \([\d,]+ requests?\)$/ });
  await expect(readRest).toBeVisible({ timeout: 30_000 });
  await expect(panel.getByRole('group', { name: 'Check against the service' })).toContainText(/The service holds [\d,]+ shipments; page 1 is read\. The rest takes [\d,]+ requests?\./);
  await expectAccessible(page);
  await screenshot(page, 'foresee-check-cost');
  await readRest.click();
  await expect(panel.getByText(/^Checked against the service’s [\d,]+ shipments \([\d,]+ requests\)\.$/)).toBeVisible({ timeout: 120_000 });
  await expect(panel).toContainText('1 create · 1 update existing shipment · 0 without a reference');
  await expect(panel.getByRole('status').first()).toContainText('the service’s');
  await expectAccessible(page);
  await screenshot(page, 'foresee-checked');
});

test('a colleague’s browser foresees updates from the team history alone: references another profile sent', async ({ browser }) => {
  test.setTimeout(180_000);
  // Two profiles with no storage in common.
  const sender = await (await browser.newContext()).newPage();
  await connectToSandbox(sender);
  await dropFile(sender, `colleague-1-${RUN}.csv`, csv([row(number('FST', 1), ref('T1')), row(number('FST', 2), ref('T2'))]));
  await continueToReview(sender, 2);
  await continueToReady(sender, 2);
  await send(sender, 2);
  await sender.context().close();

  const colleague = await (await browser.newContext()).newPage();
  // The colleague's own list of jobs left empty (the jobs the console's server runs for the
  // workspace are its past jobs too): what it knows of the sender's comes from the team history.
  await colleague.route('**/console/api/server-jobs', (route) => route.fulfill({ json: { data: [] } }));
  await connectToSandbox(colleague);
  await dropFile(colleague, `colleague-2-${RUN}.csv`, csv([row(number('FST', 3), ref('T1')), row(number('FST', 4), ref('T3'))]));
  await continueToReview(colleague, 2);
  await continueToReady(colleague, 2);
  const panel = foresight(colleague);
  await expect(panel.getByRole('status').first()).toContainText('Known from the team history of this workspace.');
  await expect(panel).toContainText('1 create · 1 update existing shipment · 0 without a reference');
  await colleague.context().close();
});
