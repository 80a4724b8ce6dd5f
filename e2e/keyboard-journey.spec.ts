// Issue #14 item 3: one journey from the drop zone to results to fix & retry with the keyboard
// alone — Tab, Shift+Tab, Enter, Space, arrow keys and typing; the one file is handed to the file
// chooser that Enter on the drop zone opens, as a person picks it in the OS dialog. The rows pass
// the console's checks; the service refuses one (a carrier it does not support, QQQQ: a warning
// here) and cannot track another (MAEU240000404, a sandbox test number). The job page announces
// its milestones in a polite live region.
import { expect, screenshot, test } from './support/fixtures';
import { arrowTo, tabTo } from './support/keyboard';

const FILE = {
  name: 'keyboard-journey.csv',
  mimeType: 'text/csv',
  buffer: Buffer.from(
    [
      'tracking_number,tracking_type,reference,carrier,name',
      'MSCU1234566,container,KBD-1,MSCU,Tracked fine',
      'MSCU1234566,container,KBD-2,QQQQ,Carrier the service refuses',
      'MAEU240000404,bill_of_lading,KBD-3,MAEU,Tracking fails',
    ].join('\r\n'),
  ),
};

test('keyboard only: drop, map, review, Ready, Send, results, the failed row, fix & retry and send the retry', async ({ page }) => {
  test.setTimeout(300_000);
  await page.goto('/connect');
  await tabTo(page, page.getByRole('button', { name: 'Use local sandbox' }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Import shipments' })).toBeVisible();

  // Drop: both Space and Enter on the zone open the file chooser; the file is picked in the second.
  const zone = page.getByRole('button', { name: /Choose a spreadsheet to import/ });
  await tabTo(page, zone);
  const bySpace = page.waitForEvent('filechooser', { timeout: 5_000 });
  await page.keyboard.press('Space');
  expect((await bySpace).isMultiple()).toBe(false);
  await expect(zone).toBeFocused();
  const byEnter = page.waitForEvent('filechooser', { timeout: 5_000 });
  await page.keyboard.press('Enter');
  await (await byEnter).setFiles(FILE);

  // Map: exact headers are mapped already.
  await expect(page.getByRole('heading', { name: 'Columns' })).toBeVisible();
  await tabTo(page, page.getByRole('button', { name: 'Continue to review' }));
  await page.keyboard.press('Enter');

  // Review: the unsupported carrier is a warning, so every row goes on.
  const grid = page.getByRole('region', { name: 'Rows to review' });
  await expect(grid.getByRole('button', { name: /^carrier, line 3: QQQQ\. Warning/ })).toBeVisible();
  await tabTo(page, page.getByRole('button', { name: 'Continue with 3 ready rows' }));
  await page.keyboard.press('Enter');

  // Ready and Send.
  await expect(page.getByRole('heading', { name: 'Ready to submit' })).toBeVisible();
  await tabTo(page, page.getByRole('button', { name: 'Send 3 rows' }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/imports\/[0-9a-f-]{36}$/);

  // Every text the polite live region takes, in order, until the results are in.
  const live = page.locator('p[aria-live="polite"][aria-atomic="true"]');
  await expect(live).toBeAttached();
  const announced: string[] = [];
  const results = page.getByRole('region', { name: 'Results' });
  const allButton = results.getByRole('button', { name: 'All 3' });
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const text = ((await live.textContent()) ?? '').trim();
    if (text && announced.at(-1) !== text) announced.push(text);
    if (text.startsWith('Import finished') && (await allButton.isVisible())) break;
    await page.waitForTimeout(200);
  }
  test.info().annotations.push({ type: 'announced', description: announced.join(' | ') });
  expect(announced.length, `milestones announced: ${announced.join(' | ')}`).toBeGreaterThanOrEqual(2);
  expect(announced.at(-1)).toBe('Import finished: 2 created, 0 updated, 1 failed.');
  await screenshot(page, 'keyboard-journey-finished');

  // Results: the failed row's filter (chosen by default when rows failed), then its details.
  const failedFilter = results.getByRole('button', { name: 'Failed 1', exact: true });
  await tabTo(page, results.getByRole('button', { name: 'Tracking failed 1' }));
  await page.keyboard.press('Enter');
  await expect(results.getByRole('button', { name: 'Tracking failed 1' })).toHaveAttribute('aria-pressed', 'true');
  await tabTo(page, failedFilter, { backward: true });
  await page.keyboard.press('Space');
  await expect(failedFilter).toHaveAttribute('aria-pressed', 'true');
  const failedRow = results.getByRole('button', { name: 'Line 3: Failed. Show its details' });
  await tabTo(page, failedRow);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('region', { name: 'Line 3 details' })).toContainText('QQQQ');
  await screenshot(page, 'keyboard-journey-failed-row');

  // Fix & retry: the failed row opens in the import wizard as a dropped file.
  await tabTo(page, results.getByRole('button', { name: 'Fix and retry 1 row', exact: true }));
  await page.keyboard.press('Enter');
  await expect(page.getByText('keyboard-journey-failed-rows.csv')).toBeVisible();
  await tabTo(page, page.getByRole('button', { name: 'Continue to review' }));
  await page.keyboard.press('Enter');
  const retryGrid = page.getByRole('region', { name: 'Rows to review' });
  const carrier = retryGrid.getByRole('button', { name: /^carrier, line 3: QQQQ\./ });
  await arrowTo(page, retryGrid, carrier);
  await page.keyboard.press('Enter');
  const editor = page.getByLabel('Edit carrier, line 3');
  await expect(editor).toBeFocused();
  await page.keyboard.press('Control+A');
  await page.keyboard.type('MSCU');
  await page.keyboard.press('Enter');
  await expect(retryGrid.getByRole('button', { name: 'carrier, line 3: MSCU. Press Enter to edit.', exact: true })).toBeVisible();
  await screenshot(page, 'keyboard-journey-retry-fixed');
  await tabTo(page, page.getByRole('button', { name: 'Continue with 1 ready row' }));
  await page.keyboard.press('Enter');
  await tabTo(page, page.getByRole('button', { name: 'Send 1 row' }));
  await page.keyboard.press('Enter');

  // The retry is its own job, linked to the first, and the row is taken this time.
  await expect(page.getByRole('heading', { name: 'retry of keyboard-journey.csv', level: 1 })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Results' }).getByRole('button', { name: 'All 1' })).toBeVisible({ timeout: 120_000 });
  await expect(live).toHaveText(/^Import finished: [01] created, [01] updated, 0 failed\.$/);
  await screenshot(page, 'keyboard-journey-retry-done');
});
