import { connectToSandbox, expect, screenshot, test } from './fixtures';

test('the shipments of one batch are listed by a bookmarkable URL', async ({ page, request, expectAccessible }) => {
  const info = (await (await request.get('/sandbox.json')).json()) as { api_key: string };
  const headers = { Authorization: `Bearer ${info.api_key}` };
  const created = await request.post('/api/v1/shipments/imports', {
    headers,
    data: [
      { reference: 'E2E-SHIP-1', tracking_number: 'MSCU1234566', tracking_type: 'container', carrier_scac: 'MSCU', name: 'Bikes' },
      { reference: 'E2E-SHIP-2', tracking_number: 'MAEU123456789', tracking_type: 'bill_of_lading', carrier_scac: 'MAEU' },
    ],
  });
  expect(created.status()).toBe(202);
  const batch = (await created.json()) as { id: string };
  await expect
    .poll(async () => ((await (await request.get(`/api/v1/shipments/imports/${batch.id}`, { headers })).json()) as { status: string }).status)
    .toBe('completed');

  await connectToSandbox(page);
  await page.goto(`/shipments?batch_id=${batch.id}`);
  const table = page.getByRole('table', { name: 'Shipments' });
  await expect(table.getByRole('row')).toHaveCount(3);
  await expect(table).toContainText('E2E-SHIP-1');
  await expect(table).toContainText('MAEU123456789');
  await expect(table.getByText('track succeeded').first()).toBeVisible();
  await expect(page.getByText(/Page 1 of 1 · 2 shipments/)).toBeVisible();
  await expect(page.getByLabel('Import batch')).toHaveValue(batch.id);
  await expectAccessible(page);
  await screenshot(page, 'shipments-by-batch');

  await page.getByRole('button', { name: 'Show all' }).click();
  await expect(page).toHaveURL(/\/shipments$/);
});
