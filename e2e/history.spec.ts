// History (DESIGN journey 10): the empty page; a Send whose key was refused (the console's server
// makes no job of it); and, where the browser sends its own jobs, such a job paused, then
// cancelled and deleted from History.
import { expect, screenshot, test } from './support/fixtures';
import { connectToSandbox, revokeStoredKey } from './support/journey';

test('history: an empty History leads to Import and Quick add', async ({ page, expectAccessible }) => {
  await page.goto('/history');
  const empty = page.getByRole('region', { name: 'No import jobs yet' });
  await expect(empty).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, 'history-empty');
  await empty.getByRole('link', { name: 'Quick add shipments' }).click();
  await expect(page.getByRole('heading', { name: 'Quick add', level: 1 })).toBeVisible();
});

test('history: a Send with a refused key is not sent, and the page says why', async ({ page }) => {
  await connectToSandbox(page);
  await revokeStoredKey(page);
  await page.goto('/quick-add');
  await page.getByRole('textbox', { name: 'Reference, row 1' }).fill('H-REFUSED');
  await page.getByRole('textbox', { name: 'Tracking number, row 1' }).fill('MSKU1234565');
  await page.getByRole('combobox', { name: 'Tracking type, row 1' }).fill('container');
  await page.getByRole('textbox', { name: 'Carrier SCAC, row 1' }).fill('MAEU');
  await page.getByRole('button', { name: 'Send 1 shipment' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Not sent' })).toContainText('The service refused the API key, or API access is not enabled for this account (401).');
  await expect(page).toHaveURL(/\/quick-add$/);
  await screenshot(page, 'history-refused-not-sent');
});

test.describe('sent by the browser (CONSOLE_RUNS_JOBS off)', () => {
  // Tests the runner a browser uses in direct mode: it makes the job, then pauses it when the service refuses the key.
  test.use({ consoleRunsJobs: 'off' });
  test('history: a paused job is listed with its reason, cancelled, then deleted after confirmations', async ({ page, expectAccessible }) => {
    // Several axe runs on a machine whose cores are shared.
    test.setTimeout(150_000);
    await connectToSandbox(page);
    await revokeStoredKey(page);
    await page.goto('/quick-add');
    await page.getByRole('textbox', { name: 'Reference, row 1' }).fill('H-1');
    await page.getByRole('textbox', { name: 'Tracking number, row 1' }).fill('MSKU1234565');
    await page.getByRole('combobox', { name: 'Tracking type, row 1' }).fill('container');
    await page.getByRole('textbox', { name: 'Carrier SCAC, row 1' }).fill('MAEU');
    await page.getByRole('button', { name: 'Send 1 shipment' }).click();
    await expect(page).toHaveURL(/\/imports\//);
    await expect(page.getByRole('alert').filter({ hasText: 'Paused' })).toContainText('The service refused the API key, or API access is not enabled for this account (401).');

    await page.goto('/history');
    const row = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Quick add' }) });
    await expect(row.getByRole('cell').first()).toContainText('Paused');
    await expect(row).toContainText('The service refused the API key, or API access is not enabled for this account (401).');
    await expect(row.getByRole('button', { name: /^Resume Quick add/ })).toBeVisible();
    await expectAccessible(page);
    await screenshot(page, 'history-paused');

    await row.getByRole('button', { name: /^Cancel Quick add/ }).click();
    const cancel = page.getByRole('alertdialog', { name: 'Cancel this import?' });
    await expect(cancel).toContainText('1 row that has not been sent will be skipped');
    await expect(cancel).toContainText('Batches the service has already accepted still finish');
    await expect(cancel.getByRole('button', { name: 'Keep sending' })).toBeFocused();
    await expectAccessible(page);
    await screenshot(page, 'history-cancel-dialog');
    await cancel.getByRole('button', { name: 'Cancel import' }).click();
    await expect(row.getByRole('cell').first()).toContainText('Cancelled');
    await expect(row.getByRole('cell')).toHaveText([/Cancelled/, '1', '0', '1', '0', '0', '0', /\d{4}/, /\d{4}/, 'This browser', /Open/]);
    await expect(row.getByRole('button', { name: /^Resume/ })).toHaveCount(0);

    await row.getByRole('button', { name: /^Delete Quick add/ }).click();
    const remove = page.getByRole('alertdialog', { name: 'Delete this job from History?' });
    await expect(remove).toContainText("This deletes only this browser's record of the job");
    await expect(remove).toContainText('The shipments already imported stay in the tracking service.');
    await expectAccessible(page);
    await screenshot(page, 'history-delete-dialog');
    await page.keyboard.press('Escape');
    await expect(remove).toBeHidden();
    await expect(row).toBeVisible();

    await row.getByRole('button', { name: /^Delete Quick add/ }).click();
    await remove.getByRole('button', { name: 'Delete job' }).click();
    await expect(page.getByRole('region', { name: 'No import jobs yet' })).toBeVisible();
  });
});
