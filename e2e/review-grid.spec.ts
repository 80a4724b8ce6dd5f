// The review grid at its limits: every row of a 1,000,000-row file is reachable by scrolling and by
// keyboard (the scroll bar is scaled past Chromium's largest element), "Next error" finds a cell
// far below and far right, and a Ready step whose lists overflow stays keyboard-reachable.
import { appendFileSync, statSync, writeFileSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import { expect, screenshot, test } from './support/fixtures';
import { connectToSandbox } from './support/journey';

/** Builds the file in the page and drops it, as the bench does: a 1M-row transfer through Playwright is slow. */
async function dropGeneratedCsv(page: Page, rows: number, lastAssignees: string): Promise<void> {
  await page.getByRole('button', { name: /Choose a spreadsheet to import/ }).evaluate(
    (zone, { rows, lastAssignees }) => {
      const parts = ['tracking_number,tracking_type,reference,carrier,name,assignees'];
      for (let r = 0; r < rows; r++) {
        const assignees = r === rows - 1 ? lastAssignees : '';
        parts.push(`MAEU${100_000_000 + r},bill_of_lading,REF-${r + 1},MAEU,Shipment ${r + 1} of the spring order for the Rotterdam warehouse,${assignees}`);
      }
      const data = new DataTransfer();
      data.items.add(new File([parts.join('\r\n')], 'million.csv', { type: 'text/csv' }));
      zone.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
    },
    { rows, lastAssignees },
  );
}

/** File line numbers of the row headers the grid shows inside its visible box. */
async function visibleLines(grid: Locator): Promise<number[]> {
  return grid.evaluate((box) => {
    const frame = box.getBoundingClientRect();
    const head = box.querySelector('thead')?.getBoundingClientRect().bottom ?? frame.top;
    return [...box.querySelectorAll('tbody th button')]
      .filter((b) => {
        const r = b.getBoundingClientRect();
        return r.top >= head - 1 && r.bottom <= frame.bottom + 1;
      })
      .map((b) => Number(b.textContent?.replace(/\D/g, '')));
  });
}

test('every row of a 1,000,000-row file is reachable by scrolling and by keyboard, and F8 finds an error far away', async ({ page }) => {
  test.setTimeout(300_000);
  await connectToSandbox(page);
  await dropGeneratedCsv(page, 1_000_000, 'not-an-email');
  await page.getByRole('button', { name: 'Continue to review' }).click({ timeout: 180_000 });
  const grid = page.getByRole('region', { name: 'Rows to review' });
  await expect(page.getByText('1,000,000 rows:', { exact: true })).toBeVisible({ timeout: 180_000 });
  await expect(grid.getByRole('button', { name: 'Line 2: show its issues' })).toBeVisible();

  // Scrolling: the middle of the scroll bar shows the middle rows, its end the last row.
  await grid.evaluate((box) => (box.scrollTop = (box.scrollHeight - box.clientHeight) / 2));
  await expect.poll(async () => (await visibleLines(grid)).some((line) => Math.abs(line - 500_001) < 50)).toBe(true);
  await grid.evaluate((box) => (box.scrollTop = box.scrollHeight));
  await expect.poll(async () => (await visibleLines(grid)).includes(1_000_001)).toBe(true);
  await screenshot(page, 'review-grid-million-end');

  // Keyboard: Ctrl+Home, Page Down, Ctrl+End.
  await grid.evaluate((box) => (box.scrollTop = 0));
  await grid.getByRole('button', { name: /^tracking_number, line 2:/ }).focus();
  await page.keyboard.press('Control+Home');
  await expect(grid.getByRole('button', { name: 'Line 2: show its issues' })).toBeFocused();
  await page.keyboard.press('PageDown');
  const afterPage = await page.evaluate(() => Number(document.activeElement?.textContent?.replace(/\D/g, '')));
  expect(afterPage).toBeGreaterThan(2);
  await page.keyboard.press('Control+End');
  const lastExclude = grid.getByRole('button', { name: 'Exclude line 1000001' });
  await expect(lastExclude).toBeFocused();
  await expect(lastExclude).toBeInViewport();
  await page.keyboard.press('Control+Home');
  await expect(grid.getByRole('button', { name: 'Line 2: show its issues' })).toBeFocused();

  // F8: the only error is in the last row's assignees, a column out of sight to the right.
  await page.keyboard.press('F8');
  const errorCell = grid.getByRole('button', { name: /^assignees, line 1000001: not-an-email\. Error: / });
  await expect(errorCell).toBeFocused();
  await expect(errorCell).toBeInViewport();
  // Its reason is in words below the grid too, without hovering.
  await expect(page.getByRole('region', { name: /^Line 1000001/ })).toContainText('not-an-email');
  await screenshot(page, 'review-grid-next-error');
});

test('a large file’s first rows are shown while the rest are checked; an edit applies, what needs every row waits for them, and the counts come whole', async ({ page, expectAccessible }) => {
  test.setTimeout(300_000);
  await connectToSandbox(page);
  await dropGeneratedCsv(page, 1_000_000, 'not-an-email');
  await expect(page.getByRole('heading', { name: 'Columns' })).toBeVisible({ timeout: 180_000 });
  // What the page showed, recorded in it as it happened: Playwright's polls could miss a second.
  await page.evaluate(() => {
    const seen: string[] = ((window as unknown as { seen: string[] }).seen = []);
    new MutationObserver(() => {
      const grid = document.querySelector('[aria-label^="tracking_number, line 2:"]');
      const counts = document.querySelector('p[aria-busy]')?.textContent ?? '';
      if (grid && counts && seen.at(-1) !== counts) seen.push(counts);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  await page.getByRole('button', { name: 'Continue to review' }).click();
  const grid = page.getByRole('region', { name: 'Rows to review' });
  await expect(grid.getByRole('button', { name: /^tracking_number, line 2:/ })).toBeVisible();
  const checking = page.getByRole('button', { name: 'Checking rows…' });
  // An edit asked while the rows are checked applies at once; Next error, which needs every row, waits for the check.
  await grid.getByRole('button', { name: /^name, line 2:/ }).click();
  await page.getByLabel('Edit name, line 2').fill('Edited while checking');
  await page.getByLabel('Edit name, line 2').press('Enter');
  await grid.getByRole('button', { name: /^tracking_number, line 2:/ }).focus();
  await page.keyboard.press('F8');
  await expectAccessible(page);
  await expect(page.getByRole('button', { name: 'Continue with 999,999 ready rows' })).toBeVisible({ timeout: 120_000 });
  await expect(checking).toHaveCount(0);
  await expect(grid.getByRole('button', { name: /^assignees, line 1000001: not-an-email\. Error: / })).toBeFocused();
  await page.keyboard.press('Control+Home');
  await expect(grid.getByRole('button', { name: /^name, line 2: Edited while checking\./ })).toBeVisible();
  await expect(page.getByText('1,000,000 rows:', { exact: true }).locator('..')).toContainText('999,999 ready, 1 with errors');
  await expect(page.getByRole('alert')).toHaveCount(0);
  const seen = await page.evaluate(() => (window as unknown as { seen: string[] }).seen);
  expect(seen[0]).toMatch(/^1,000,000 rows: checking them… [\d,]+ checked so far\.$/);
  expect(seen.at(-1)).toMatch(/^1,000,000 rows: 999,999 ready, 1 with errors/);
});

test('the Ready step with many skipped rows and long lines can be scrolled by keyboard and passes axe', async ({ page, expectAccessible }) => {
  test.slow(); // axe on a page with 70 rows listed: over a minute on a busy machine
  await connectToSandbox(page);
  const lines = ['tracking_number,tracking_type,reference,carrier,name'];
  const longName = 'A very long shipment name that runs well past the width of the preview box '.repeat(3).trim();
  for (let r = 0; r < 40; r++) lines.push(`MAEU${100_000_000 + r},bill_of_lading,REF-${r + 1},MAEU,${longName}`);
  for (let r = 0; r < 30; r++) lines.push(`,bill_of_lading,BAD-${r + 1},MAEU,No number`);
  await page.getByLabel('Spreadsheet file').setInputFiles({ name: 'skips.csv', mimeType: 'text/csv', buffer: Buffer.from(lines.join('\r\n')) });
  await page.getByRole('button', { name: 'Continue to review' }).click();
  await page.getByRole('button', { name: 'Continue with 40 ready rows' }).click();
  await expect(page.getByRole('heading', { name: 'Ready to submit' })).toBeVisible();

  // Both lists overflow, so axe's scrollable-region-focusable applies to both.
  expect(await page.locator('pre').evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
  expect(await page.locator('table:has(th:text-is("Reason"))').evaluate((el) => el.parentElement!.scrollHeight > el.parentElement!.clientHeight)).toBe(true);
  await expectAccessible(page);

  // Named regions a keyboard reaches and scrolls.
  const preview = page.getByRole('region', { name: 'First lines of the CSV as it would be sent' });
  const skipped = page.getByRole('region', { name: 'Skipped rows and why' });
  await expect(preview).toHaveAttribute('tabindex', '0');
  await expect(skipped.getByRole('columnheader', { name: 'Line' })).toBeVisible();
  // The list comes a few rows with the step, the rest a frame at a time: every skipped row, in the end.
  await expect(skipped.getByRole('row')).toHaveCount(31);
  await expect(skipped.getByRole('row').last()).toContainText('71');
  await skipped.focus();
  await expect(skipped).toBeFocused();
  // Arrow keys scroll the focused region (a few presses: one may land before the focus is settled).
  await expect
    .poll(async () => {
      await page.keyboard.press('ArrowDown');
      return skipped.evaluate((el) => el.scrollTop);
    })
    .toBeGreaterThan(0);
  await screenshot(page, 'import-ready-skipped');
});

test('a large file changed on disk after the drop: the grid says so in a sentence when it needs rows it has not read yet', async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  await connectToSandbox(page);
  // Over 32 MiB: kept in its file and read back as the grid scrolls (spreadsheet/file-rows.ts).
  const path = testInfo.outputPath('large.csv');
  const lines = ['tracking_number,tracking_type,reference,carrier,name'];
  for (let r = 0; r < 360_000; r++) lines.push(`MAEU${100_000_000 + r},bill_of_lading,REF-${r + 1},MAEU,Shipment ${r + 1} of the spring order for the Rotterdam warehouse`);
  writeFileSync(path, lines.join('\r\n'));
  expect(statSync(path).size).toBeGreaterThan(32 * 2 ** 20);
  await page.getByLabel('Spreadsheet file').setInputFiles(path);
  await page.getByRole('button', { name: 'Continue to review' }).click({ timeout: 60_000 });
  const grid = page.getByRole('region', { name: 'Rows to review' });
  await expect(page.getByText('360,000 rows:', { exact: true }).locator('..')).toContainText('360,000 ready', { timeout: 60_000 });
  await expect(grid.getByRole('button', { name: /^tracking_number, line 2:/ })).toBeVisible();

  appendFileSync(path, '\r\nMAEU999999999,bill_of_lading,REF-LATE,MAEU,Added after the drop');
  await grid.evaluate((box) => (box.scrollTop = box.scrollHeight / 2));
  await expect(page.getByRole('alert')).toContainText('The file changed or moved on your disk since it was dropped; drop it again.');
  await screenshot(page, 'review-grid-file-changed');
});
