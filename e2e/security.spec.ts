// Issue #14 item 2, the parts of the console that exist today: hostile cell text renders as text
// in the review grid, the issues panel and the Ready step's CSV preview; the import feature's
// downloads hold no formula; the CSP header is on every kind of response; and the API key is in
// no URL, no console message, and only in the storage the user chose.
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { connectToSandbox, expect, screenshot, test } from './fixtures';

const PAYLOADS = ['<img src=x onerror=alert(1)>', '<script>alert(2)</script>', '"><svg onload=alert(3)>'];
const FORMULA = '=HYPERLINK("http://example.com","click")';

/** Elements or handlers a payload would have created had it been parsed as HTML. */
async function injectedElements(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('img[src="x"], [onerror], [onload], script:not([src])')].map((element) => element.outerHTML.slice(0, 120)),
  );
}

test('HTML, script and formula cells render as text in the grid, the issues panel and the CSV preview', async ({ page }) => {
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await connectToSandbox(page);
  const rows = [
    'tracking_number,tracking_type,reference,carrier,name,tags',
    `MSKU1234565,container,PO-1,MAEU,"${PAYLOADS[0]}","${PAYLOADS[1]}"`,
    `MAEU123456780,bill_of_lading,PO-2,MAEU,"""><svg onload=alert(3)>",x`,
    `MAEU123456781,bill_of_lading,PO-3,MAEU,"${FORMULA.replace(/"/g, '""')}",@SUM(A1)`,
    `"${PAYLOADS[0]}",container,PO-4,MAEU,bad number,`,
  ];
  await page.getByLabel('Spreadsheet file').setInputFiles({ name: 'hostile.csv', mimeType: 'text/csv', buffer: Buffer.from(rows.join('\r\n')) });
  await page.getByRole('button', { name: 'Continue to review' }).click();
  const grid = page.getByRole('region', { name: 'Rows to review' });
  for (const text of [...PAYLOADS, FORMULA, '@SUM(A1)']) await expect(grid).toContainText(text);
  expect(await injectedElements(page)).toEqual([]);

  // The issues panel of the row whose tracking number is the payload quotes it as text.
  await grid.getByRole('button', { name: 'Line 5: show its issues' }).click();
  const panel = page.getByRole('region', { name: /Line 5/ });
  await expect(panel).toContainText(PAYLOADS[0] ?? '');
  // And the formula-like name is named as such, as text.
  await grid.getByRole('button', { name: 'Line 4: show its issues' }).click();
  await expect(page.getByRole('region', { name: /Line 4/ })).toContainText('starts with “=”');
  expect(await injectedElements(page)).toEqual([]);
  await screenshot(page, 'security-review');

  await page.getByRole('button', { name: /Continue with \d+ ready rows?/ }).click();
  await expect(page.getByRole('heading', { name: 'Ready to submit' })).toBeVisible();
  const preview = page.locator('pre').first();
  await expect(preview).toContainText(`MAEU,${PAYLOADS[0]},,${PAYLOADS[1]},`);
  await expect(preview).toContainText('"""><svg onload=alert(3)>"');
  await expect(preview).toContainText(FORMULA.replace(/"/g, '""'));
  // The skipped row (its tracking number is the payload) is listed with its reason, as text.
  await expect(page.getByRole('table').filter({ hasText: 'Reason' })).toContainText(`“${PAYLOADS[0]}” is not a container number`);
  expect(await injectedElements(page)).toEqual([]);
  await screenshot(page, 'security-ready');
  expect(dialogs).toEqual([]);
});

test('the import feature’s downloads (CSV and XLSX template) hold no formula', async ({ page }) => {
  await connectToSandbox(page);
  const [csvDownload] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'CSV template' }).click()]);
  const csv = await readFile(await csvDownload.path(), 'utf8');
  const cells = csv.split('\r\n').flatMap((line) => line.split(','));
  expect(cells.length).toBeGreaterThan(10);
  expect(cells.filter((cell) => /^"?[=+\-@\t\r]/.test(cell))).toEqual([]);

  const [xlsxDownload] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'XLSX template' }).click()]);
  const XLSX = await import('@e965/xlsx');
  const book = XLSX.read(await readFile(await xlsxDownload.path()), { type: 'buffer', cellFormula: true });
  const sheet = book.Sheets[book.SheetNames[0] ?? ''] ?? {};
  const values = Object.entries(sheet).filter(([address]) => !address.startsWith('!')) as [string, { f?: string; v?: unknown }][];
  expect(values.length).toBeGreaterThan(10);
  expect(values.filter(([, cell]) => cell.f !== undefined || /^[=+\-@]/.test(String(cell.v)))).toEqual([]);
});

test('the Content-Security-Policy header is on every kind of response', async ({ page, request }) => {
  await page.goto('/');
  const script = await page.locator('script[src]').first().getAttribute('src');
  expect(script).toBeTruthy();
  const key = ((await (await request.get('/sandbox.json')).json()) as { api_key: string }).api_key;
  const responses = {
    'console HTML': await request.get('/'),
    'client route (SPA fallback)': await request.get('/shipments?batch_id=x'),
    'script asset': await request.get(script ?? ''),
    'API JSON': await request.get('/api/v1/shipments', { headers: { Authorization: `Bearer ${key}` } }),
    'API error (401)': await request.get('/api/v1/shipments'),
    'sandbox.json': await request.get('/sandbox.json'),
    'unknown API path (404)': await request.get('/api/v1/nothing-here', { headers: { Authorization: `Bearer ${key}` } }),
    'missing asset (404)': await request.get('/assets/missing-file.js'),
  };
  const missing = Object.entries(responses)
    .filter(([, response]) => !/default-src 'self'/.test(response.headers()['content-security-policy'] ?? ''))
    .map(([name, response]) => `${name} (${response.status()})`);
  expect(missing).toEqual([]);
  expect(responses['unknown API path (404)'].status()).toBe(404);
  expect(responses['missing asset (404)'].status()).toBe(404);
});

for (const remember of [false, true]) {
  test(`after connecting ${remember ? 'with' : 'without'} “Remember”, the key is only in ${remember ? 'localStorage' : 'sessionStorage'}`, async ({ page, request }) => {
    const key = ((await (await request.get('/sandbox.json')).json()) as { api_key: string }).api_key;
    const urls: string[] = [];
    const messages: string[] = [];
    page.on('request', (sent) => urls.push(sent.url()));
    page.on('console', (message) => messages.push(message.text()));
    await page.goto('/connect');
    await page.getByRole('textbox', { name: 'API key' }).fill(key);
    if (remember) await page.getByLabel('Remember on this device').check();
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Import shipments' })).toBeVisible();
    await page.goto('/shipments');
    await expect(page.getByRole('heading', { name: 'Shipments', exact: true })).toBeVisible();

    expect(urls.length).toBeGreaterThan(2);
    expect(urls.filter((url) => url.includes(key) || decodeURIComponent(url).includes(key))).toEqual([]);
    expect(messages.filter((text) => text.includes(key))).toEqual([]);
    const storage = await page.evaluate(() => ({
      local: Object.keys(localStorage).map((name) => localStorage.getItem(name) ?? ''),
      session: Object.keys(sessionStorage).map((name) => sessionStorage.getItem(name) ?? ''),
    }));
    const holds = (values: string[]) => values.some((value) => value.includes(key));
    expect({ local: holds(storage.local), session: holds(storage.session) }).toEqual({ local: remember, session: !remember });
  });
}
