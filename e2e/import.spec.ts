import { connectToSandbox, expect, screenshot, test } from './fixtures';

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

    await page.getByRole('button', { name: 'Show ignored columns' }).click();
    await page.getByLabel(/Import column D \(Notes\) as/).selectOption('tracking_type');
    await expect(page.getByRole('button', { name: 'Continue to review' })).toBeEnabled();
  });

  test('refuses a PNG named .csv with a sentence that says so', async ({ page }) => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 1, 2, 3, 4]);
    await page.getByLabel('Spreadsheet file').setInputFiles({ name: 'shipments.csv', mimeType: 'text/csv', buffer: png });
    await expect(page.getByRole('alert')).toContainText('PNG');
    await screenshot(page, 'import-refused-png');
  });
});
