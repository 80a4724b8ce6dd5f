// Issue #14 item 2, the parts of the console that exist today: hostile cell text renders as text
// in the review grid, the issues panel and the Ready step's CSV preview; the import feature's
// downloads hold no formula; the CSP header is on every kind of response; and the API key is in
// no URL, no console message, and only in the storage the user chose.
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expect, screenshot, test } from './support/fixtures';
import { connectToSandbox, dropAndSend } from './support/journey';
import { startKeyHoldingProxy } from './support/servers';

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

/** Every record of every IndexedDB database of the page, as JSON text (Blobs and buffers by size). */
async function dumpIndexedDb(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const request = <T,>(r: IDBRequest<T>) => new Promise<T>((resolve, reject) => { r.onsuccess = () => resolve(r.result); r.onerror = () => reject(new Error(r.error?.message ?? 'IndexedDB request failed')); });
    const out: Record<string, Record<string, unknown[]>> = {};
    const texts: string[] = [];
    for (const info of await indexedDB.databases()) {
      if (!info.name) continue;
      const open = indexedDB.open(info.name);
      const db = await request(open);
      const stores: Record<string, unknown[]> = {};
      out[info.name] = stores;
      for (const store of [...db.objectStoreNames]) {
        const records = await request(db.transaction(store).objectStore(store).getAll());
        stores[store] = records;
        // Blobs hold text too (a chunk's CSV): read them, so a key inside one is found.
        const visit = async (value: unknown): Promise<void> => {
          if (value instanceof Blob) texts.push(await value.text());
          else if (value instanceof ArrayBuffer || ArrayBuffer.isView(value)) texts.push(new TextDecoder().decode(value));
          else if (value && typeof value === 'object') for (const inner of Object.values(value)) await visit(inner);
        };
        await visit(records);
      }
      db.close();
    }
    return JSON.stringify(out) + texts.join('\n');
  });
}

const HOSTILE_NAME = '<img src=x onerror=alert(4)>.csv';

// Sent by the console's server (the default) and, pinned off, by the browser's runner, which keeps the job's rows in IndexedDB.
for (const runsJobs of ['on', 'off'] as const) {
  test.describe(runsJobs === 'on' ? 'sent by the console’s server' : 'sent by the browser (CONSOLE_RUNS_JOBS off)', () => {
    test.use({ consoleRunsJobs: runsJobs });
    test('payloads sent to the service render as text in the job page and its title, results, exports and Shipments; the key is in no URL, log, export or IndexedDB record', async ({ page, request }) => {
      test.setTimeout(240_000);
      const key = ((await (await request.get('/sandbox.json')).json()) as { api_key: string }).api_key;
      const urls: string[] = [];
      const messages: string[] = [];
      const dialogs: string[] = [];
      page.on('request', (sent) => urls.push(sent.url()));
      page.on('console', (message) => messages.push(message.text()));
      page.on('dialog', (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
      await page.goto('/connect');
      await page.getByRole('textbox', { name: 'API key' }).fill(key);
      await page.getByRole('button', { name: 'Connect', exact: true }).click();
      await expect(page.getByRole('heading', { name: 'Import shipments' })).toBeVisible();

      // Every row passes the console's checks; the service refuses the one with carrier QQQQ.
      const csv = [
        'tracking_number,tracking_type,reference,carrier,name,tags',
        `MSCU1234566,container,SEC-1,MSCU,"${PAYLOADS[0]}","${PAYLOADS[1]}"`,
        `MSCU1234566,container,SEC-2,QQQQ,"${FORMULA.replace(/"/g, '""')}",@SUM(A1)`,
        `MSCU1234566,container,SEC-3,QQQQ,"${PAYLOADS[1]}",+1`,
      ].join('\r\n');
      await dropAndSend(page, HOSTILE_NAME, csv, 3);

      // The job page: the file name is its heading and its tab title, as text.
      await expect(page.getByRole('heading', { name: HOSTILE_NAME, level: 1 })).toBeVisible();
      await expect(page).toHaveTitle(new RegExp(`^\\d+% · ${HOSTILE_NAME.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} — `));
      const results = page.getByRole('region', { name: 'Results' });
      await expect(results.getByRole('button', { name: 'All 3' })).toBeVisible({ timeout: 120_000 });
      await results.getByRole('button', { name: /^All 3/ }).click();
      const resultRows = results.getByRole('region', { name: 'Result rows' });
      for (const text of [PAYLOADS[0], PAYLOADS[1], FORMULA, '@SUM(A1)']) await expect(resultRows).toContainText(text ?? '');
      await results.getByRole('button', { name: /^Line 3: Failed/ }).click();
      await expect(page.getByRole('region', { name: 'Line 3 details' })).toContainText(FORMULA);
      expect(await injectedElements(page)).toEqual([]);
      await screenshot(page, 'security-results');

      // Exports, read back: formulas escaped, payloads kept as text, no key.
      const downloaded: string[] = [];
      const [failedCsv] = await Promise.all([page.waitForEvent('download'), results.getByRole('button', { name: 'Download failed rows as CSV' }).click()]);
      const failedText = await readFile(await failedCsv.path(), 'utf8');
      downloaded.push(failedText);
      const Papa = (await import('papaparse')).default;
      const failedRows = Papa.parse<string[]>(failedText, { newline: '\r\n' }).data.slice(1).filter((row) => row.length > 1);
      expect(failedRows.map((row) => [row[2], row[4], row[6]])).toEqual([
        ['SEC-2', `'${FORMULA}`, "'@SUM(A1)"],
        ['SEC-3', PAYLOADS[1], "'+1"],
      ]);
      const [failedXlsx] = await Promise.all([page.waitForEvent('download'), results.getByRole('button', { name: 'Download failed rows as XLSX' }).click()]);
      const XLSX = await import('@e965/xlsx');
      const xlsxBytes = await readFile(await failedXlsx.path());
      const book = XLSX.read(xlsxBytes, { type: 'buffer', cellFormula: true });
      const sheet = book.Sheets[book.SheetNames[0] ?? ''] ?? {};
      const cells = Object.entries(sheet).filter(([address]) => !address.startsWith('!')) as [string, { f?: string; v?: unknown }][];
      expect(cells.filter(([, cell]) => cell.f !== undefined || /^[=+\-@\t\r]/.test(String(cell.v)))).toEqual([]);
      expect(cells.map(([, cell]) => String(cell.v))).toEqual(expect.arrayContaining([`'${FORMULA}`, "'@SUM(A1)", PAYLOADS[1]]));
      downloaded.push(XLSX.utils.sheet_to_csv(sheet));
      expect(downloaded.filter((text) => text.includes(key))).toEqual([]);

      // Shipments of the batch: the list and the panel show the payload names as text.
      const batchId = (await page.getByRole('table').filter({ has: page.getByRole('columnheader', { name: 'Batch' }) }).locator('tbody tr td:first-child').first().textContent())?.trim();
      await page.goto(`/shipments?batch_id=${batchId}`);
      const table = page.getByRole('table', { name: 'Shipments' });
      await expect(table).toContainText(PAYLOADS[0] ?? '');
      await table.getByRole('button', { name: /^SEC-1/ }).click();
      const panel = page.getByRole('dialog');
      // The panel holds the name and tags in its edit form, as the fields' values.
      await expect(panel.getByRole('textbox', { name: 'Name' })).toHaveValue(PAYLOADS[0] ?? '');
      await expect(panel.getByRole('textbox', { name: 'Tags' })).toHaveValue(new RegExp(`^${(PAYLOADS[1] ?? '').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}`));
      expect(await injectedElements(page)).toEqual([]);
      await screenshot(page, 'security-shipment-panel');

      // History names the job by its file, as text.
      await page.goto('/history');
      await expect(page.getByRole('rowheader', { name: new RegExp(HOSTILE_NAME.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) })).toBeVisible();
      expect(await injectedElements(page)).toEqual([]);
      expect(dialogs).toEqual([]);

      // The key: in no request URL, no console message, no IndexedDB record; only in sessionStorage.
      const stored = await dumpIndexedDb(page);
      // The dump did read the console's database: with the browser's runner, the job's rows in it.
      expect(stored).toContain(runsJobs === 'off' ? 'SEC-2' : 'import-console-jobs');
      expect(stored.includes(key), 'the API key in an IndexedDB record').toBe(false);
      expect(urls.length).toBeGreaterThan(10);
      expect(urls.filter((url) => url.includes(key) || decodeURIComponent(url).includes(key))).toEqual([]);
      expect(messages.filter((text) => text.includes(key))).toEqual([]);
      const storage = await page.evaluate(() => ({ local: JSON.stringify({ ...localStorage }), session: JSON.stringify({ ...sessionStorage }) }));
      expect({ local: storage.local.includes(key), session: storage.session.includes(key) }).toEqual({ local: false, session: true });
    });
  });
}

test('with the key held by the server (proxy mode), the browser holds it nowhere and sends none', async ({ page, request }) => {
  test.setTimeout(180_000);
  const key = ((await (await request.get('/sandbox.json')).json()) as { api_key: string }).api_key;
  const upstream = process.env.E2E_BASE_URL ?? '';
  const proxy = await startKeyHoldingProxy(upstream, key);
  try {
    const sent: string[] = [];
    page.on('request', (r) => sent.push(`${r.url()} ${JSON.stringify(r.headers())} ${r.postData() ?? ''}`));
    await page.goto(`${proxy.url}/connect`);
    await page.getByRole('button', { name: 'Connect through this server' }).click();
    await expect(page.getByRole('heading', { name: 'Import shipments' })).toBeVisible();
    await dropAndSend(page, 'proxy.csv', 'tracking_number,tracking_type,reference,carrier\r\nMSCU1234566,container,SEC-PROXY-1,MSCU', 1);
    await expect(page.getByRole('region', { name: 'Results' }).getByRole('button', { name: 'All 1' })).toBeVisible({ timeout: 120_000 });
    // The console's server sends the job: the dump reads the console's database, which holds none of its rows.
    const stored = await dumpIndexedDb(page);
    expect(stored).toContain('import-console-jobs');
    expect(stored).not.toContain('SEC-PROXY-1');
    const storage = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) + document.cookie);
    expect({ indexedDb: stored.includes(key), storage: storage.includes(key), requests: sent.filter((line) => line.includes(key)) }).toEqual({ indexedDb: false, storage: false, requests: [] });
    expect(sent.filter((line) => /authorization/i.test(line))).toEqual([]);
  } finally {
    await proxy.stop();
  }
});
