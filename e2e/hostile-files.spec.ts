// Issue #10 in the browser: each hostile file, built here in memory (the sandbox tests' builders,
// src/server/sandbox/hostile-uploads.ts), dropped on the import page. The reader's worker refuses it with
// a sentence, or reads it as data; the page stays usable, and a good file dropped afterwards
// reaches review. The browser's caps are DEFAULT_TABLE_LIMITS (256 MB per zip part, 16 Mi
// characters of XML per row), wider than the sandbox's, so the sentences name those. The bombs
// inflate to 1,000 MB (2–3 MB files; the 4,000 MB ones are refused the same way by their declared
// size, and sending 10 MB files through the browser protocol costs seconds each on a busy machine).
import type { Page } from '@playwright/test';
import * as hostile from '../src/server/sandbox/hostile-uploads';
import { expect, screenshot, test } from './support/fixtures';
import { connectToSandbox } from './support/journey';

const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const MIB = 2 ** 20;

const xlsx = (bytes: Uint8Array, name = 'hostile.xlsx') => ({ name, mimeType: XLSX_MIME, buffer: Buffer.from(bytes) });
const csv = (text: string | Uint8Array, name = 'hostile.csv') => ({ name, mimeType: 'text/csv', buffer: Buffer.from(text) });

async function drop(page: Page, file: { name: string; mimeType: string; buffer: Buffer }): Promise<void> {
  await page.getByLabel('Spreadsheet file').setInputFiles(file);
}

/** The refusal on the drop step, with the drop zone still there to try another file. */
async function expectRefusal(page: Page, sentence: string): Promise<void> {
  const alert = page.getByRole('alert').filter({ hasText: 'This file cannot be imported' });
  await expect(alert.getByText(sentence, { exact: true })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole('button', { name: /Choose a spreadsheet to import/ })).toBeVisible();
}

/** The longest gap between animation frames over `frames` frames: the main thread's longest hold. */
function longestFrameGap(page: Page, frames = 30): Promise<number> {
  return page.evaluate(
    (count) =>
      new Promise<number>((resolve) => {
        let last = performance.now();
        let longest = 0;
        let left = count;
        const tick = () => {
          const now = performance.now();
          longest = Math.max(longest, now - last);
          last = now;
          if (--left === 0) resolve(longest);
          else requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      }),
    frames,
  );
}

/** From the mapping step to the grid. */
async function review(page: Page) {
  await expect(page.getByRole('heading', { name: 'Columns' })).toBeVisible({ timeout: 20_000 });
  await page.getByRole('button', { name: 'Continue to review' }).click();
  const grid = page.getByRole('region', { name: 'Rows to review' });
  await expect(grid).toBeVisible();
  return grid;
}

test.describe('import: hostile files', () => {
  test.beforeEach(async ({ page }) => {
    await connectToSandbox(page);
  });

  test('zip bombs, an unclosed row, empty rows and NUL bytes are refused with a sentence; the page stays usable', async ({ page }) => {
    test.setTimeout(90_000);
    const refused: [string, { name: string; mimeType: string; buffer: Buffer }, string][] = [
      ['zip bomb in the shared strings', xlsx(hostile.sharedStringsBomb({ inflatedMiB: 1000 })), "The workbook's part xl/sharedStrings.xml inflates to 1,000 MB; the limit is 256 MB per part."],
      ['zip bomb in the sheet', xlsx(hostile.sheetBomb({ inflatedMiB: 1000 })), "The workbook's part xl/worksheets/sheet1.xml inflates to 1,000 MB; the limit is 256 MB per part."],
      ['unclosed row', xlsx(hostile.unclosedRow({ inflatedMiB: 1000 })), "The workbook's part xl/worksheets/sheet1.xml inflates to 1,000 MB; the limit is 256 MB per part."],
      ['empty rows', xlsx(hostile.emptyRows({ inflatedMiB: 1000 })), "The workbook's part xl/worksheets/sheet1.xml inflates to 1,000 MB; the limit is 256 MB per part."],
      ['NUL bytes', csv(hostile.csvWithNuls()), 'This file holds binary data, not a spreadsheet or CSV text.'],
    ];
    for (const [, file, sentence] of refused) {
      await drop(page, file);
      await expectRefusal(page, sentence);
    }
    await screenshot(page, 'hostile-refused');

    // A good file after them all is read and reaches review.
    await drop(page, csv('tracking_number,tracking_type,name\r\nCSQU3054383,container,Good\r\n', 'good.csv'));
    const grid = await review(page);
    await expect(grid.getByRole('button', { name: /^name, line 2: Good\. / })).toBeVisible();
  });

  test('an unclosed row that claims a plausible 60 MB is scanned in the worker while the page keeps painting, then refused', async ({ page }) => {
    test.setTimeout(90_000);
    await drop(page, xlsx(hostile.unclosedRow({ declaredSize: 60 * MIB })));
    // The worker scans up to 16 Mi characters of one row meanwhile; frames keep coming.
    expect(await longestFrameGap(page)).toBeLessThan(1_000);
    await expectRefusal(page, 'Row 1 of the sheet spans more than 16,777,216 characters of XML without ending; the file is damaged or not a real spreadsheet.');
    await drop(page, csv('tracking_number,tracking_type\r\nCSQU3054383,container\r\n', 'good.csv'));
    await review(page);
  });

  test('billion laughs, a 5,000-column header and a 2 MiB cell are read as data, one file after another', async ({ page }) => {
    test.setTimeout(90_000);
    // Entities are not expanded: the cell holds the text as written.
    await drop(page, xlsx(hostile.billionLaughs()));
    let grid = await review(page);
    await expect(grid.getByRole('button', { name: /^tracking_number, row 2: &lol9;\. / })).toBeVisible();
    await page.getByRole('button', { name: 'Choose another file' }).click();

    await drop(page, csv(hostile.wideCsv()));
    grid = await review(page);
    await expect(grid.getByRole('button', { name: /^tracking_number, line 2: CSQU3054383\. / })).toBeVisible();
    expect(await longestFrameGap(page, 10)).toBeLessThan(1_000);
    await page.getByRole('button', { name: 'Choose another file' }).click();

    // The over-long cell is its row's error, shown shortened; the other rows are read.
    await drop(page, csv(hostile.csvWithLongCell()));
    grid = await review(page);
    await expect(page.getByText('3 rows:', { exact: true })).toBeVisible();
    const long = grid.getByRole('button', { name: /^name, line 3: n+…/ });
    await expect(long).toBeVisible();
    expect(await long.getAttribute('aria-label')).toMatch(/2,097,152 characters; the limit is 255/);
    await expect(grid.getByRole('button', { name: /^name, line 2: first\. / })).toBeVisible();
    await expect(grid.getByRole('button', { name: /^name, line 4: last\. / })).toBeVisible();
    await screenshot(page, 'hostile-2mib-cell');
  });
});
