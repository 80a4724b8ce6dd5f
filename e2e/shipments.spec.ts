import type { APIRequestContext } from '@playwright/test';
import { expect, screenshot, test } from './support/fixtures';
import { connectToSandbox } from './support/journey';

const headers = { Authorization: 'Bearer sandbox-demo-key-4173' };

// Each test seeds a batch, loads pages and runs axe two or three times: on the shared 2-core
// machine (load 15+ while this was written) that took 35–45 s, too near the default 60 s.
test.describe.configure({ timeout: 120_000 });

/** Seeds shipments through the sandbox API, as another client of the service would, and waits for the batch. */
async function importList(request: APIRequestContext, rows: object[]): Promise<string> {
  const created = await request.post('/api/v1/shipments/imports', { headers, data: rows });
  expect(created.status()).toBe(202);
  const batch = (await created.json()) as { id: string };
  await expect
    .poll(async () => ((await (await request.get(`/api/v1/shipments/imports/${batch.id}`, { headers })).json()) as { status: string }).status, { timeout: 20_000 })
    .toBe('completed');
  return batch.id;
}

function seedRows(run: string, bills: number) {
  // The two containers go first, so that (newest first) they come last in the list.
  return [
    { reference: `${run}-C1`, tracking_number: 'MSCU1234566', tracking_type: 'container', carrier_scac: 'MSCU', name: 'Bikes' },
    { reference: `${run}-C2`, tracking_number: 'MSCU1234560', tracking_type: 'container', carrier_scac: 'MSCU' },
    ...Array.from({ length: bills }, (_, i) => ({
      reference: `${run}-B${String(i + 1).padStart(2, '0')}`,
      tracking_number: `MAEU77${String(1000 + i)}${run.slice(-3)}`,
      tracking_type: 'bill_of_lading',
      carrier_scac: 'MAEU',
    })),
  ];
}

const runId = () => Date.now().toString(36).toUpperCase();

test('a batch\'s shipments are listed page by page, as the service counts them', async ({ page, request, expectAccessible }) => {
  const run = runId();
  const batchId = await importList(request, seedRows(run, 28));
  await connectToSandbox(page);

  // Loading: hold the list's answer back for a moment to see the loading view.
  await page.route('**/api/v1/shipments?*', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 800));
    await route.continue();
  });
  await page.goto(`/shipments?batch_id=${batchId}`);
  await expect(page.getByRole('status').filter({ hasText: 'Loading shipments…' })).toBeVisible();
  await screenshot(page, 'shipments-loading');
  await page.unrouteAll({ behavior: 'wait' }); // let the held answer go through before the route is dropped

  const table = page.getByRole('table', { name: 'Shipments' });
  await expect(page.getByText('Page 1 of 2 · 30 shipments')).toBeVisible();
  await expect(table.getByRole('row')).toHaveCount(26);
  await expect(page.getByLabel('Import batch')).toHaveValue(batchId);
  await expect(table.getByText('tracked').first()).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, 'shipments-list');

  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/page=2/);
  await expect(page.getByText('Page 2 of 2 · 30 shipments')).toBeVisible();
  await expect(table.getByRole('row')).toHaveCount(6);
  await expect(page.getByRole('button', { name: 'Next' })).toBeDisabled();
  const failedRow = table.getByRole('row').filter({ hasText: `${run}-C2` });
  await expect(failedRow).toContainText('tracking failed');
  await expect(failedRow).toContainText('Reason: not found');
  await screenshot(page, 'shipments-page-2');

  await page.getByRole('button', { name: 'Previous' }).click();
  await expect(page.getByText('Page 1 of 2 · 30 shipments')).toBeVisible();
});

test('a shipment opens by keyboard with its containers, and edits are saved to the list', async ({ page, request, expectAccessible }) => {
  const run = runId();
  const batchId = await importList(request, seedRows(run, 1));
  await connectToSandbox(page);
  await page.goto(`/shipments?batch_id=${batchId}`);
  const table = page.getByRole('table', { name: 'Shipments' });
  await expect(table.getByRole('row')).toHaveCount(4);

  // Open a row by keyboard: focus moves into the panel, Escape hands it back.
  const opener = table.getByRole('button', { name: `${run}-C1` });
  await opener.focus();
  await page.keyboard.press('Enter');
  const panel = page.getByRole('dialog', { name: `${run}-C1` });
  await expect(panel.getByRole('heading', { name: `${run}-C1` })).toBeFocused();
  const container = panel.getByRole('article', { name: 'MSCU1234566' });
  await expect(container).toBeVisible();
  const events = container.getByRole('list', { name: 'Events of MSCU1234566' }).getByRole('listitem');
  await expect(events).toHaveCount(8);
  await expect(events.first()).toContainText('Actual');
  await expect(events.last()).toContainText('Planned');
  await expectAccessible(page);
  await screenshot(page, 'shipment-panel');
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  await expect(opener).toBeFocused();

  // Rename a bill of lading (opened by a click on its row) and see the name in the list.
  await table.getByRole('row').filter({ hasText: `${run}-B01` }).getByRole('cell').nth(2).click();
  const blPanel = page.getByRole('dialog', { name: `${run}-B01` });
  await expect(blPanel.getByRole('heading', { name: /^Containers \(\d\)$/ })).toBeVisible();
  const patches: string[] = [];
  page.on('request', (sent) => {
    if (sent.method() === 'PATCH') patches.push(sent.postData() ?? '');
  });
  await blPanel.getByLabel('Name').fill('Renamed by e2e');
  await blPanel.getByRole('button', { name: 'Save changes' }).click();
  await expect(blPanel.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();
  await expect(table.getByRole('row').filter({ hasText: `${run}-B01` })).toContainText('Renamed by e2e');
  expect(patches).toEqual(['{"name":"Renamed by e2e"}']);

  // A malformed e-mail is refused in the browser with a sentence; nothing is sent.
  await blPanel.getByLabel('Viewers').fill('ana.lopez@example.com, bob@');
  await blPanel.getByRole('button', { name: 'Save changes' }).click();
  await expect(blPanel.getByRole('alert')).toContainText('viewers: “bob@” is not an e-mail address.');
  await expect(blPanel.getByLabel('Viewers')).toBeFocused();
  await expect(blPanel.getByLabel('Viewers')).toHaveAttribute('aria-invalid', 'true');
  expect(patches).toHaveLength(1);
  await expectAccessible(page);
  await screenshot(page, 'shipment-panel-invalid');
});

test('a batch that created nothing and a batch that is not there each say so', async ({ page, request, expectAccessible }) => {
  const emptyBatch = await importList(request, [{ reference: 'E2E-EMPTY', tracking_number: 'MSCU1234566', tracking_type: 'ship', carrier_scac: 'MSCU' }]);
  await connectToSandbox(page);
  await page.goto(`/shipments?batch_id=${emptyBatch}`);
  await expect(page.getByRole('heading', { name: 'No shipments from this batch' })).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, 'shipments-empty');

  const unknown = '00000000-0000-4000-8000-000000000000';
  await page.goto(`/shipments?batch_id=${unknown}`);
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('Could not load shipments');
  await expect(alert).toContainText(`There is no import batch ${unknown} in this workspace.`);
  await expect(alert.getByRole('button', { name: 'Retry' })).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, 'shipments-error');
});
