// Sending against a sandbox with a tiny import limit (2 per 5 s) and a small row cap (25): the
// console paces by the headers (no 429 surfaced), splits on the cap, and drops no row.
import { expect, screenshot, test } from './fixtures';
import { batchIds, connectTo, dropAndSend, shipmentsCsv, shipmentsOfBatch, startSandbox } from './submit-helpers';

let sandbox: Awaited<ReturnType<typeof startSandbox>>;

test.beforeAll(async () => {
  sandbox = await startSandbox({ SANDBOX_IMPORT_LIMIT: '2', SANDBOX_IMPORT_WINDOW_S: '5', SANDBOX_MAX_BATCH_ROWS: '25' });
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
  await connectTo(page, sandbox.url);
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
  const ids = await batchIds(page);
  expect(ids).toHaveLength(5);
  let total = 0;
  for (const id of ids) total += await shipmentsOfBatch(request, sandbox.url, id);
  expect(total).toBe(120);
  await screenshot(page, 'submit-split-finished');
});
