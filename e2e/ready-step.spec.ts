// The Ready step with a file whose preview and skipped-rows list overflow: both scrolling regions
// are reached by Tab, carry a name, scroll from the keyboard, and axe finds no serious or critical
// violation (scrollable-region-focusable among them).
import { expect, screenshot, test } from './support/fixtures';
import { connectToSandbox } from './support/journey';

test.describe.configure({ timeout: 120_000 });

/** 200 rows, every fourth with a container number that is not one, and names long enough to overflow the preview. */
function overflowingCsv(): Buffer {
  const lines = ['tracking_number,tracking_type,reference,carrier,name'];
  for (let r = 0; r < 200; r++) {
    const wrong = r % 4 === 0;
    // 200 characters: longer than the preview is wide, shorter than the name's limit.
    const name = `Shipment ${r}: machine parts and spare bicycle frames, Shanghai to Rotterdam to Duisburg, by rail for the last leg. `.repeat(2).slice(0, 200);
    lines.push([wrong ? `NOTACONTAINER${r}` : `MAEU${300_000_000 + r}`, wrong ? 'container' : 'bill_of_lading', `READY-${r}`, 'MAEU', `"${name}"`].join(','));
  }
  return Buffer.from(lines.join('\r\n'));
}

test('the Ready step’s preview and skipped rows scroll by keyboard, and axe finds nothing serious', async ({ page, expectAccessible }) => {
  await connectToSandbox(page);
  await page.getByLabel('Spreadsheet file').setInputFiles({ name: 'ready-overflow.csv', mimeType: 'text/csv', buffer: overflowingCsv() });
  await page.getByRole('button', { name: 'Continue to review' }).click();
  await page.getByRole('button', { name: /Continue with 150 ready rows/ }).click();
  await expect(page.getByRole('heading', { name: 'Ready to submit' })).toBeVisible();

  const preview = page.getByRole('region', { name: 'First lines of the CSV as it would be sent' });
  const skipped = page.getByRole('region', { name: 'Skipped rows and why' });
  await expect(skipped).toContainText('NOTACONTAINER196');
  // Both really overflow: otherwise this test would prove nothing.
  expect(await preview.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(true);
  expect(await skipped.evaluate((element) => element.scrollHeight > element.clientHeight)).toBe(true);

  // Reached by Tab, in page order, and scrolled by the arrow keys.
  await preview.focus();
  await expect(preview).toBeFocused();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Shift+Tab');
  await expect(preview).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => preview.evaluate((element) => element.scrollLeft)).toBeGreaterThan(0);
  let tabs = 0;
  while (!(await skipped.evaluate((element) => element === document.activeElement)) && tabs++ < 20) await page.keyboard.press('Tab');
  await expect(skipped).toBeFocused();
  await page.keyboard.press('PageDown');
  await expect.poll(() => skipped.evaluate((element) => element.scrollTop)).toBeGreaterThan(0);
  await screenshot(page, 'ready-step-overflow');

  await expectAccessible(page);
});

test('the Ready step lists every skipped row in the end: twenty with the step, fifty more each frame', async ({ page }) => {
  await connectToSandbox(page);
  const lines = ['tracking_number,tracking_type,reference,carrier'];
  for (let r = 0; r < 10; r++) lines.push(`MAEU${300_000_000 + r},bill_of_lading,LIST-${r},MAEU`);
  for (let r = 0; r < 260; r++) lines.push(`,bill_of_lading,GAP-${r},MAEU`);
  await page.getByLabel('Spreadsheet file').setInputFiles({ name: 'many-skipped.csv', mimeType: 'text/csv', buffer: Buffer.from(lines.join('\r\n')) });
  await page.getByRole('button', { name: 'Continue to review' }).click();
  await page.getByRole('button', { name: /Continue with 10 ready rows/ }).click();
  const skipped = page.getByRole('region', { name: 'Skipped rows and why' });
  // The header row and 260 skipped rows; the last is line 271 of the file.
  await expect(skipped.getByRole('row')).toHaveCount(261);
  await expect(skipped.getByRole('row').last()).toContainText('271');
});
