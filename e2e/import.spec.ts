import { expect, screenshot, test } from './support/fixtures';
import { connectToSandbox } from './support/journey';

const csv = (lines: string[]) => ({ name: 'shipments.csv', mimeType: 'text/csv', buffer: Buffer.from(lines.join('\r\n')) });

test.describe('import: drop and map', () => {
  test.beforeEach(async ({ page }) => {
    await connectToSandbox(page);
  });

  test('suggests near-miss headers, blocks on a missing required column, and goes on once mapped', async ({ page, expectAccessible }) => {
    await page.getByLabel('Spreadsheet file').setInputFiles(
      csv(['Container No,Ref,Carrier SCAC,Notes', 'MSKU1234565,PO-1,MAEU,first', 'MEDU7654321,PO-2,MSCU,second']),
    );
    await expect(page.getByRole('heading', { name: 'Columns' })).toBeVisible();
    await expect(page.getByText('shipments.csv')).toBeVisible();
    await expect(page.getByLabel(/Import column A \(Container No\) as/)).toHaveValue('tracking_number');
    await expect(page.getByLabel(/Import column B \(Ref\) as/)).toHaveValue('reference');
    await expect(page.getByLabel(/Import column C \(Carrier SCAC\) as/)).toHaveValue('carrier');
    await expect(page.getByRole('alert')).toHaveText('Map a column to tracking_type to go on.');
    await expect(page.getByRole('button', { name: 'Continue to review' })).toBeDisabled();
    await expect(page.getByText('1 unknown column ignored.')).toBeVisible();
    await expectAccessible(page);
    await screenshot(page, 'import-map');

    // A required target is missing: the ignored column is shown with its select at once.
    await expect(page.getByRole('button', { name: 'Hide ignored columns' })).toHaveAttribute('aria-expanded', 'true');
    await page.getByLabel(/Import column D \(Notes\) as/).selectOption('tracking_type');
    await expect(page.getByRole('button', { name: 'Continue to review' })).toBeEnabled();
  });

  test('takes the first row of unknown names for the header, not a data row holding a synonym, and shows its selects', async ({ page }) => {
    await page.getByLabel('Spreadsheet file').setInputFiles(
      csv(['Equipment,Basis,Order,Operator,Cargo', 'MSKU1234565,container,PO-1,MAEU,Toys', 'MEDU7654321,container,PO-2,MSCU,Shoes']),
    );
    await expect(page.getByRole('heading', { name: 'Columns' })).toBeVisible();
    await expect(page.getByText('0 of 5 columns imported.', { exact: false })).toBeVisible();
    await screenshot(page, 'import-unknown-headers');
    const select = (letter: string, name: string) => page.getByLabel(`Import column ${letter} (${name}) as`);
    await select('A', 'Equipment').selectOption('tracking_number');
    await select('B', 'Basis').selectOption('tracking_type');
    await select('C', 'Order').selectOption('reference');
    await select('D', 'Operator').selectOption('carrier');
    await expect(page.getByRole('button', { name: 'Continue to review' })).toBeEnabled();
    await page.getByRole('button', { name: 'Continue to review' }).click();
    const grid = page.getByRole('region', { name: 'Rows to review' });
    await expect(grid.getByText('MSKU1234565')).toBeVisible();
    await expect(grid.getByText('MEDU7654321')).toBeVisible();
  });

  test('offers the template with the exact headers and the workspace custom fields', async ({ page }) => {
    const [csvDownload] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'CSV template' }).click()]);
    expect(csvDownload.suggestedFilename()).toBe('shipments-template.csv');
    const text = await import('node:fs/promises').then((fs) => csvDownload.path().then((path) => fs.readFile(path, 'utf8')));
    expect(text.split('\r\n')[0]).toBe('tracking_number,tracking_type,reference,carrier,name,viewers,tags,assignees,cf_eta,cf_incoterm,cf_po_number');
    const [xlsxDownload] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'XLSX template' }).click()]);
    expect(xlsxDownload.suggestedFilename()).toBe('shipments-template.xlsx');
  });

  test('refuses a PNG named .csv with a sentence that says so', async ({ page }) => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 1, 2, 3, 4]);
    await page.getByLabel('Spreadsheet file').setInputFiles({ name: 'shipments.csv', mimeType: 'text/csv', buffer: png });
    await expect(page.getByRole('alert')).toContainText('PNG');
    await screenshot(page, 'import-refused-png');
  });
});

test.describe('import: review and fix', () => {
  test('shows errors in the grid, revalidates an edit at once, and summarises what would be sent', async ({ page, expectAccessible }) => {
    test.slow(); // two axe runs and five screenshots: over a minute on a busy machine
    await connectToSandbox(page);
    await page.getByLabel('Spreadsheet file').setInputFiles(
      csv([
        'tracking_number,tracking_type,reference,carrier,name',
        'MSKU1234565,container,PO-1,maeu,First',
        'MSKU1234566,Container,PO-2,MAEU,Bad check digit',
        'MAEU123456789,BL,PO-3,Maersk,By bill of lading',
        'TGHU9876543,containr,PO-4,,Misspelt type',
        'MEDU7654321,container,PO-1,MSCU,Repeated reference',
      ]),
    );
    await page.getByRole('button', { name: 'Continue to review' }).click();
    const grid = page.getByRole('region', { name: 'Rows to review' });
    await expect(grid).toBeVisible();
    await expect(page.getByText(/5 rows:/)).toBeVisible();
    await screenshot(page, 'import-review');
    await expectAccessible(page);

    // The wrong check digit is named, with the digit it should be.
    const badCell = grid.getByRole('button', { name: /tracking_number, line 3: MSKU1234566\. Error:/ });
    await expect(badCell).toBeVisible();
    await badCell.click();
    const editor = page.getByLabel('Edit tracking_number, line 3');
    await editor.fill('MSKU1234565');
    await editor.press('Enter');
    await expect(grid.getByRole('button', { name: /tracking_number, line 3: MSKU1234565\. Press Enter to edit\./ })).toBeVisible();

    // Errors filter, and a suggested fix applied from the row's issues.
    await page.getByRole('button', { name: /^Errors/ }).click();
    await expect(grid.getByRole('row')).toHaveCount(5); // header + the 4 rows that still have errors
    await grid.getByRole('button', { name: 'Line 5: show its issues' }).click();
    const panel = page.getByRole('region', { name: /Line 5/ });
    await expect(panel).toContainText('containr');
    await panel.getByRole('button', { name: 'Use “container”' }).click();
    await screenshot(page, 'import-review-errors');

    await page.getByRole('button', { name: /^All/ }).click();
    await page.getByRole('button', { name: /Continue with \d+ ready rows?/ }).click();
    await expect(page.getByRole('heading', { name: 'Ready to submit' })).toBeVisible();
    await expect(page.locator('pre')).toContainText('tracking_number,tracking_type,reference,carrier,name,viewers,tags,assignees');
    await screenshot(page, 'import-ready');
    await expectAccessible(page);
  });
});
