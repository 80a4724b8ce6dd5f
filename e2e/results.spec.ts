// Results of a job, failed-row downloads and fix & retry, end to end against the sandbox
// (issue #12, DESIGN §1 journey 8). Every row passes the console's own checks; the sandbox's test
// numbers give the service's other outcomes: MAEU240000404 fails tracking (not_found), a
// non-member assignee is a warning, a name starting with `=` is exported escaped, and
// CMDU240000500 fails the batch at its row (it is last, so the rows before it stand).
// Rows are named as the importer names them: a CSV's by line (header line 1), kept by the retry.
import { readFile } from 'node:fs/promises';
import * as XLSX from '@e965/xlsx';
import Papa from 'papaparse';
import { expect, screenshot, test } from './support/fixtures';
import { connectToSandbox, dropAndSend } from './support/journey';

const HEADER = 'tracking_number,tracking_type,reference,carrier,name,assignees';
// The columns as sent: the importer writes every spec header, in the spec's order.
const SENT = ['tracking_number', 'tracking_type', 'reference', 'carrier', 'name', 'viewers', 'tags', 'assignees'];
const LINES = [
  HEADER,
  'MSCU1234566,container,RES-1,MSCU,Tracked fine,',
  'MSCU1234566,container,RES-2,MSCU,"=HYPERLINK(""http://example.com"")",nobody@example.com',
  'MAEU240000404,bill_of_lading,RES-3,MAEU,Tracking fails,',
  'CMDU240000500,bill_of_lading,RES-4,CMDU,=1+1,',
];

test('results show each outcome with its reason and column, export CSV and XLSX, and fix & retry completes', async ({ page, expectAccessible }) => {
  test.setTimeout(300_000);
  await connectToSandbox(page);
  await dropAndSend(page, 'outcomes.csv', LINES.join('\r\n'), 4);
  const results = page.getByRole('region', { name: 'Results' });
  await expect(results.getByRole('button', { name: 'All 4' })).toBeVisible({ timeout: 120_000 });

  // Each outcome with its reason and column.
  await expect(results.getByRole('button', { name: 'Failed 1', exact: true })).toHaveAttribute('aria-pressed', 'true');
  await results.getByRole('button', { name: /^Line 5: Failed/ }).click();
  const failedDetails = page.getByRole('region', { name: 'Line 5 details' });
  await expect(failedDetails).toContainText('CMDU240000500');
  // The sandbox numbers the rows of the file it got (row_number 4 here); the file's line is put beside it.
  await expect(failedDetails).toContainText('Line 5 of the file is row 4 of its batch as the service counts them (row_number).');
  await screenshot(page, 'results-failed');
  await results.getByRole('button', { name: 'With warnings 1' }).click();
  await results.getByRole('button', { name: /^Line 3: / }).click();
  await expect(page.getByRole('region', { name: 'Line 3 details' })).toContainText(/Warning in assignees: .*nobody@example\.com/);
  await results.getByRole('button', { name: /^Tracking failed/ }).click();
  await expect(results.getByRole('button', { name: /^Line 4: / })).toBeVisible();
  await screenshot(page, 'results-tracking-failed');
  await expectAccessible(page);

  // Downloads, read back: the sent columns, the error column, the `=` cell escaped.
  const [csvDownload] = await Promise.all([page.waitForEvent('download'), results.getByRole('button', { name: 'Download failed rows as CSV' }).click()]);
  expect(csvDownload.suggestedFilename()).toBe('outcomes-failed-rows.csv');
  const csvRows = Papa.parse<string[]>(await readFile(await csvDownload.path(), 'utf8'), { newline: '\r\n' }).data;
  expect(csvRows[0]).toEqual([...SENT, 'error']);
  expect(csvRows[1]?.slice(0, 6)).toEqual(['CMDU240000500', 'bill_of_lading', 'RES-4', 'CMDU', "'=1+1", '']);
  expect(csvRows[1]?.[SENT.length]).not.toBe('');

  await results.getByRole('checkbox', { name: 'Add a warning column' }).check();
  const [xlsxDownload] = await Promise.all([page.waitForEvent('download'), results.getByRole('button', { name: 'Download rows with warnings as XLSX' }).click()]);
  expect(xlsxDownload.suggestedFilename()).toBe('outcomes-rows-with-warnings.xlsx');
  const book = XLSX.read(await readFile(await xlsxDownload.path()));
  const xlsxRows = XLSX.utils.sheet_to_json<string[]>(book.Sheets[book.SheetNames[0]!]!, { header: 1, defval: '' });
  expect(xlsxRows[0]).toEqual([...SENT, 'error', 'warning']);
  const warned = xlsxRows.find((row) => row[2] === 'RES-2');
  expect(warned?.[4]).toBe('\'=HYPERLINK("http://example.com")');
  expect(warned?.[SENT.length + 1]).toMatch(/^assignees: /);

  const [trackingDownload] = await Promise.all([page.waitForEvent('download'), results.getByRole('button', { name: 'Download rows whose tracking failed as CSV' }).click()]);
  expect(trackingDownload.suggestedFilename()).toBe('outcomes-tracking-failed.csv');
  const trackingRows = Papa.parse<string[]>(await readFile(await trackingDownload.path(), 'utf8'), { newline: '\r\n' }).data;
  expect(trackingRows.find((row) => row[2] === 'RES-3')?.[SENT.length]).toMatch(/^Tracking failed/);

  // Fix & retry: the failed row opens in the review grid with the service's message; sent as a retry job.
  await results.getByRole('button', { name: 'Fix and retry 1 row', exact: true }).click();
  // The rows come back as a dropped CSV file: read, columns mapped by their exact headers, review.
  await expect(page.getByText('outcomes-failed-rows.csv')).toBeVisible();
  await page.getByRole('button', { name: 'Continue to review' }).click();
  // The row keeps its line in the original file and shows what the service said, in words.
  const grid = page.getByRole('region', { name: 'Rows to review' });
  await expect(grid.getByRole('cell', { name: /^Service: / })).toContainText('holds the sandbox test number');
  const rowButton = grid.getByRole('button', { name: /^Line 5: the service said: .*CMDU240000500.*show its issues$/ });
  await rowButton.focus();
  await page.keyboard.press('Enter');
  const issues = page.getByRole('region', { name: 'Line 5' });
  await expect(issues.getByRole('list', { name: 'What the service said' })).toContainText(/Service error.*Service: .*CMDU240000500/);
  await screenshot(page, 'results-retry-review');
  await expectAccessible(page);
  const editCell = grid.getByRole('button', { name: /^tracking_number, line 5: CMDU240000500/ });
  await editCell.click();
  await page.getByRole('textbox', { name: /Edit tracking_number/ }).fill('MSCU1234566');
  await page.keyboard.press('Enter');
  await page.getByRole('button', { name: /Continue/ }).click();
  await page.getByRole('button', { name: /^Send 1 row/ }).click();
  await expect(page.getByRole('heading', { name: 'retry of outcomes.csv', level: 1 })).toBeVisible();
  await expect(page.getByRole('button', { name: 'All 1' })).toBeVisible({ timeout: 120_000 });
  await expect(page.getByRole('button', { name: 'Created 1' }).or(page.getByRole('button', { name: 'Updated 1' }))).toBeVisible();
  // The retry's row keeps its line in the original file.
  await page.getByRole('button', { name: 'All 1' }).click();
  await expect(page.getByRole('region', { name: 'Result rows' }).getByRole('button', { name: /^Line 5: / })).toBeVisible();
  await screenshot(page, 'results-retry-done');

  // The shipments of both jobs, one click from each job page, with counts matching the jobs.
  await page.getByRole('link', { name: 'Shipments of this job' }).click();
  await expect(page).toHaveURL(/\/shipments\?job=/);
  const retryBatches = page.getByRole('region', { name: /^Batches of retry of outcomes\.csv/ });
  await expect(retryBatches).toContainText(/The service lists 1 shipment for these batches, as the job counted\./, { timeout: 30_000 });
  await expect(page.getByRole('table', { name: 'Shipments' }).getByRole('row')).toHaveCount(2);
  await screenshot(page, 'shipments-retry-job');
  const picker = page.getByRole('combobox', { name: 'Import job' });
  const original = await picker.locator('option', { hasText: /^outcomes\.csv/ }).getAttribute('value');
  expect(original).toBeTruthy();
  await picker.selectOption(original ?? '');
  const originalBatches = page.getByRole('region', { name: /^Batches of outcomes\.csv/ });
  await expect(originalBatches).toContainText(/The service lists \d+ shipments? for these batches, as the job counted\./, { timeout: 30_000 });
  await screenshot(page, 'shipments-job-picker');
  await expectAccessible(page);
});
