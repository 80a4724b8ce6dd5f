// Quick add (DESIGN journey 11): from the Import page to a finished JSON list job, and History.
import { expect, screenshot, test } from './support/fixtures';
import { pasteIntoFocused } from './support/keyboard';
import { connectToSandbox } from './support/journey';

test('quick add: paste three shipments, fix one, send them as a job that finishes, and find it in History', async ({ page, expectAccessible }) => {
  // Polling waits 10–15 s per batch, and axe runs five times on a machine whose cores are shared.
  test.setTimeout(180_000);
  await connectToSandbox(page);
  await page.getByRole('link', { name: 'Type or paste them in Quick add' }).click();
  await expect(page.getByRole('heading', { name: 'Quick add', level: 1 })).toBeVisible();
  await expectAccessible(page);

  await page.getByRole('textbox', { name: 'Reference, row 1' }).focus();
  await pasteIntoFocused(
    page,
    ['Ref\tContainer No\tType\tCarrier SCAC\tName', 'QA-1\tcsqu 305438-3\tContainer\tmaeu\tFirst', 'QA-2\tMSKU1234566\tcontainer\tAUTO\tSecond', 'QA-3\tMAEU123456789\tB/L\t\tThird', ''].join('\r\n'),
  );
  await expect(page.getByText('Read the first line as a header.')).toBeVisible();
  await expect(page.getByText('3 shipments: 2 ready, 1 with errors, 0 with warnings.')).toBeVisible();
  const number2 = page.getByRole('textbox', { name: 'Tracking number, row 2' });
  await expect(number2).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText('Error: tracking_number: check digit should be 5.')).toBeVisible();
  await expect(page.getByText('Auto-fix: carrier_scac: changed “maeu” to “MAEU” (upper-cased).')).toBeVisible();
  // A B/L without carrier takes the SCAC its number starts with, shown as an auto-fix.
  await expect(page.getByRole('textbox', { name: 'Carrier SCAC, row 3' })).toHaveAccessibleDescription(/^Auto-fix: carrier_scac: empty; set to MAEU/);
  await expectAccessible(page);
  await screenshot(page, 'quick-add-errors');

  // Sending is refused until every row can go, and focus lands on the first error.
  await page.getByRole('button', { name: 'Send 3 shipments' }).click();
  await expect(page.getByRole('alert')).toContainText('Fix or remove the row with errors first');
  await expect(number2).toBeFocused();

  await page.getByRole('button', { name: 'Use MSKU1234565 for Tracking number, row 2' }).click();
  await expect(page.getByText('3 shipments: 3 ready, 0 with errors, 0 with warnings.')).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, 'quick-add-ready');

  await page.getByRole('button', { name: 'Send 3 shipments' }).click();
  await expect(page).toHaveURL(/\/imports\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { name: 'Quick add', level: 1 })).toBeVisible();
  // The runner sends the list and polls its batch (10–15 s apart) until it is completed.
  await expect(page.getByText('Import finished: 3 created, 0 updated, 0 failed.')).toBeAttached({ timeout: 45_000 });
  await expect(page.locator('dt', { hasText: /^Created$/ }).locator('xpath=following-sibling::dd')).toHaveText('3');
  await expectAccessible(page);
  await screenshot(page, 'quick-add-job-finished');

  await page.goto('/history');
  const table = page.getByRole('table', { name: 'Import jobs, newest first' });
  const row = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Quick add' }) });
  await expect(row.getByRole('cell').first()).toHaveText(/Finished/);
  // Read, sent, skipped, created, updated, failed; started, finished, sent from.
  await expect(row.getByRole('cell')).toHaveText([/Finished/, '3', '3', '0', '3', '0', '0', /\d{4}/, /\d{4}/, /^(This browser|The console’s server)$/, /Open/]);
  await expectAccessible(page);
  await screenshot(page, 'history-finished');
});

// The grid's sr-only "Remove" header, absolutely placed, once hung past a narrow page's right
// edge (262 px at 683 px, which is 1366 px at 200% zoom) until its scroller held it (`relative`).
test('quick add at 200% zoom (683 px): the page does not scroll sideways', async ({ page }) => {
  await page.setViewportSize({ width: 683, height: 800 });
  await connectToSandbox(page);
  await page.goto('/quick-add');
  await expect(page.getByRole('heading', { name: 'Quick add' })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
});
