// Issue #14 item 3: axe on every page in every state a user meets, with real data of every shape
// from a sandbox of its own (slow tracking held 20 s, so the progress state is seen):
// the import steps with errors, warnings, auto-fixes and skipped rows; the job page while it
// processes and finished (sent by the console's server), and with a lost answer offered (the
// browser's own runner, CONSOLE_RUNS_JOBS off); results under each filter and the row
// details; quick add empty and with errors; History with several jobs; Shipments with data, empty,
// its panel with containers, and the sandbox stopped. Statuses are words, not colour alone.
// No serious or critical violation anywhere.
import type { Page } from '@playwright/test';
import { expect, screenshot, seriousViolations, test } from './support/fixtures';
import { pasteIntoFocused } from './support/keyboard';
import { connectToSandbox } from './support/journey';
import { DEMO_KEY } from './support/sandbox-api';
import { startSandbox } from './support/servers';

let sandbox: Awaited<ReturnType<typeof startSandbox>> | null = null;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  sandbox = await startSandbox({ SANDBOX_ROW_DELAY_MS: '20', SANDBOX_SLOW_TRACKING_MS: '20000' });
});
test.afterAll(async () => {
  await sandbox?.stop();
});

const HEADER = 'tracking_number,tracking_type,reference,carrier,name,assignees';
/** Every shape of row: fine, slow, tracking fails, refused by the service, warnings, auto-fixes, errors. */
const SHAPES = [
  HEADER,
  'MSCU1234566,container,A11Y-1,MSCU,Tracked fine,',
  'HLCU240000408,bill_of_lading,A11Y-2,HLCU,Slow tracking,',
  'MAEU240000404,bill_of_lading,A11Y-3,MAEU,Tracking fails,',
  'MSCU1234566,container,A11Y-4,QQQQ,Carrier the service does not support,',
  'MSCU1234566,container,A11Y-5,MSCU,=1+1,nobody@example.com',
  ' msku 123456 5 ,Container,A11Y-6,maeu,Auto-fixed,',
  'MSCU1234560,container,A11Y-7,MSCU,Wrong check digit,',
  ',container,A11Y-8,MSCU,No number,',
].join('\r\n');

/** Axe finds no serious or critical violation; a failure names the state, the rule and the elements. */
async function accessible(page: Page, state: string): Promise<void> {
  expect.soft(await seriousViolations(page), `axe on ${state}`).toEqual([]);
}

/** Every status badge says its status in words; the mark beside it is decoration only. */
async function badgesHaveWords(page: Page, where: string): Promise<number> {
  const badges = await page.locator('[data-status-badge]').evaluateAll((elements) =>
    elements.map((element) => ({
      text: [...element.childNodes].filter((node) => !(node instanceof HTMLElement && node.getAttribute('aria-hidden') === 'true')).map((node) => node.textContent ?? '').join('').trim(),
      visible: element.getClientRects().length > 0,
    })),
  );
  const shown = badges.filter((badge) => badge.visible);
  expect(shown.filter((badge) => !/[A-Za-z]{3,}/.test(badge.text)), `badges without words on ${where}`).toEqual([]);
  return shown.length;
}

test('import steps, the job page processing and finished, results, quick add and History', async ({ page }) => {
  // About twenty axe runs, two jobs and a 20-second slow tracking: 4.6 min in a CI run on 2 cores
  // beside the other spec files, against 5 min allowed. Its time is no performance claim.
  test.setTimeout(480_000);
  const url = sandbox!.url;
  await connectToSandbox(page, url);
  await accessible(page, 'the drop step');

  await page.getByLabel('Spreadsheet file').setInputFiles({ name: 'every-shape.csv', mimeType: 'text/csv', buffer: Buffer.from(SHAPES) });
  await expect(page.getByRole('heading', { name: 'Columns' })).toBeVisible();
  await accessible(page, 'the mapping step');

  await page.getByRole('button', { name: 'Continue to review' }).click();
  const grid = page.getByRole('region', { name: 'Rows to review' });
  await expect(grid).toContainText('MSCU1234560');
  await accessible(page, 'review, all rows');
  const filters = page.getByRole('group', { name: 'Show rows' });
  for (const name of [/^Errors/, /^Warnings/, /^Auto-fixed/]) {
    await filters.getByRole('button', { name }).click();
    await expect(filters.getByRole('button', { name })).toHaveAttribute('aria-pressed', 'true');
    await accessible(page, `review, filter ${name.source}`);
  }
  await filters.getByRole('button', { name: /^All/ }).click();
  await grid.getByRole('button', { name: 'Line 8: show its issues' }).click();
  await expect(page.getByRole('region', { name: /^Line 8/ })).toContainText('check digit');
  await accessible(page, 'review with the issues panel open');
  await screenshot(page, 'a11y-states-review');

  await page.getByRole('button', { name: /Continue with 6 ready rows/ }).click();
  await expect(page.getByRole('heading', { name: 'Ready to submit' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Skipped rows and why' })).toContainText('tracking_number: empty');
  await accessible(page, 'Ready with 2 skipped rows');
  await screenshot(page, 'a11y-states-ready');

  await page.getByRole('button', { name: 'Send 6 rows' }).click();
  await expect(page).toHaveURL(/\/imports\/[0-9a-f-]{36}$/);
  const jobUrl = page.url();
  // The slow-tracking row holds the batch for 20 s, and a batch is polled every 10–15 s: processing.
  const batches = page.getByRole('table').filter({ has: page.getByRole('columnheader', { name: 'Batch' }) });
  await expect(batches).toContainText('Processing');
  await accessible(page, 'the job page while processing');
  expect(await badgesHaveWords(page, 'the job page while processing')).toBeGreaterThanOrEqual(2);
  expect(await batches.textContent(), 'still processing when axe ran').toContain('Processing');
  await screenshot(page, 'a11y-states-job-processing');

  const results = page.getByRole('region', { name: 'Results' });
  await expect(results.getByRole('button', { name: 'All 6' })).toBeVisible({ timeout: 90_000 });
  await accessible(page, 'the job page finished');
  expect(await badgesHaveWords(page, 'the finished job page')).toBeGreaterThanOrEqual(2);
  const filterNames = (await results.getByRole('group', { name: 'Show rows' }).getByRole('button').allTextContents()).map((text) => text.replace(/\s*[\d,]+$/, ''));
  expect(filterNames).toEqual(expect.arrayContaining(['All', 'Failed', 'With warnings', 'Created', 'Tracking failed']));
  for (const name of filterNames) {
    const button = results.getByRole('group', { name: 'Show rows' }).getByRole('button', { name: new RegExp(`^${name} \\d`) });
    await button.click();
    await expect(button).toHaveAttribute('aria-pressed', 'true');
    await accessible(page, `results, filter ${name}`);
    expect(await badgesHaveWords(page, `results, filter ${name}`)).toBeGreaterThan(0);
  }
  // The failed row's details.
  await results.getByRole('group', { name: 'Show rows' }).getByRole('button', { name: /^Failed \d/ }).click();
  await results.getByRole('button', { name: /^Line 5: Failed\. Show its details$/ }).click();
  await expect(page.getByRole('region', { name: 'Line 5 details' })).toContainText('QQQQ');
  await accessible(page, 'results, a failed row’s details');
  expect(await badgesHaveWords(page, 'a failed row’s details')).toBeGreaterThanOrEqual(4);
  await screenshot(page, 'a11y-states-results-failed');

  // Quick add: empty, then rows with errors and warnings.
  await page.goto(`${url}/quick-add`);
  await expect(page.getByRole('heading', { name: 'Quick add' })).toBeVisible();
  await accessible(page, 'quick add, empty');
  await page.getByRole('textbox', { name: 'Reference, row 1' }).click();
  await pasteIntoFocused(page, 'QA-1\tMSCU1234560\tcontainer\tMSCU\tWrong check digit\nQA-2\tMAEU123456789\tbl\t\t=SUM(A1)\nQA-1\tmscu1234566\tContainer\tmaeu\tDuplicate reference');
  await expect(page.getByRole('status').filter({ hasText: /with errors/ })).toContainText('3 shipments');
  await accessible(page, 'quick add with rows with errors');
  await screenshot(page, 'a11y-states-quick-add-errors');

  // History with the job, finished with failures, that the console's server sent.
  await page.goto(`${url}/history`);
  const jobs = page.getByRole('table');
  await expect(jobs.getByRole('row')).toHaveCount(2); // header + 1 job
  await expect(jobs.getByRole('cell', { name: 'The console’s server' })).toBeVisible();
  await accessible(page, 'History with a job');
  expect(await badgesHaveWords(page, 'History')).toBe(1);
  await screenshot(page, 'a11y-states-history');
  await page.goto(jobUrl);
  await expect(results.getByRole('button', { name: 'All 6' })).toBeVisible();
});

// A job whose only answer is lost on the way back (the sandbox took it; the connection dropped):
// the job page offers Resend or Skip; then History with that job and its skipped rows.
test('the job page with a lost answer offered, and History with skipped rows', async ({ page }) => {
  // Tests the runner a browser uses in direct mode: the answer is dropped on the browser's own request.
  test.setTimeout(180_000);
  const own = await startSandbox({ CONSOLE_RUNS_JOBS: 'off', SANDBOX_ROW_DELAY_MS: '20' });
  try {
    const url = own.url;
    await connectToSandbox(page, url);
    let dropped = false;
    await page.route('**/api/v1/shipments/imports/file', async (route) => {
      if (dropped) return route.continue();
      dropped = true;
      await route.fetch();
      await route.abort('connectionreset');
    });
    await page.goto(`${url}/`);
    await page.getByLabel('Spreadsheet file').setInputFiles({ name: 'lost-answer.csv', mimeType: 'text/csv', buffer: Buffer.from(`${HEADER}\r\nMSCU1234566,container,A11Y-LOST-1,MSCU,Lost answer,\r\nMSCU1234566,container,,MSCU,No reference,`) });
    await page.getByRole('button', { name: 'Continue to review' }).click();
    await page.getByRole('button', { name: /Continue with 2 ready rows/ }).click();
    await page.getByRole('button', { name: 'Send 2 rows' }).click();
    const lost = page.getByRole('region', { name: 'Requests whose answer was lost' });
    await expect(lost).toContainText('1 without a reference', { timeout: 60_000 });
    await accessible(page, 'the job page with a lost answer offered');
    expect(await badgesHaveWords(page, 'the job page needing a decision')).toBeGreaterThan(0);
    await screenshot(page, 'a11y-states-job-lost-answer');
    await lost.getByRole('button', { name: /^Skip rows/ }).click();
    await expect(lost).toBeHidden();
    await page.unroute('**/api/v1/shipments/imports/file');

    await page.goto(`${url}/history`);
    await expect(page.getByRole('table').getByRole('row')).toHaveCount(2); // header + 1 job
    await accessible(page, 'History with a job with skipped rows');
    expect(await badgesHaveWords(page, 'History')).toBe(1);
  } finally {
    await own.stop();
  }
});

// A selected row (bg-brand-50) once showed "none" in text-slate-500, 4.36:1 against the row, under
// the 4.5:1 axe asks for; the row with no problems is the one that shows it.
test('results: a selected row with no problems keeps its “none” readable (color-contrast)', async ({ page }) => {
  test.setTimeout(180_000);
  await connectToSandbox(page, sandbox!.url);
  await page.getByLabel('Spreadsheet file').setInputFiles({ name: 'one-row.csv', mimeType: 'text/csv', buffer: Buffer.from(`${HEADER}\r\nMSCU1234566,container,A11Y-NONE,MSCU,Fine,`) });
  await page.getByRole('button', { name: 'Continue to review' }).click();
  await page.getByRole('button', { name: /Continue with 1 ready row/ }).click();
  await page.getByRole('button', { name: 'Send 1 row' }).click();
  const results = page.getByRole('region', { name: 'Results' });
  await results.getByRole('button', { name: /^Line 2: .* Show its details$/ }).click({ timeout: 120_000 });
  await expect(page.getByRole('region', { name: 'Line 2 details' })).toBeVisible();
  await accessible(page, 'results, a selected row with no problems');
});

test('Shipments: a batch’s list, its panel with containers, an empty batch, and the sandbox stopped', async ({ page, request }) => {
  test.setTimeout(180_000);
  const url = sandbox!.url;
  const headers = { Authorization: `Bearer ${DEMO_KEY}` };
  const importList = async (rows: object[]) => {
    const created = await request.post(`${url}/api/v1/shipments/imports`, { headers, data: rows });
    expect(created.status()).toBe(202);
    const batch = (await created.json()) as { id: string };
    await expect
      .poll(async () => ((await (await request.get(`${url}/api/v1/shipments/imports/${batch.id}`, { headers })).json()) as { status: string }).status, { timeout: 30_000 })
      .toBe('completed');
    return batch.id;
  };
  const withData = await importList([
    { reference: 'A11Y-S-1', tracking_number: 'MAEU240000408', tracking_type: 'bill_of_lading', carrier_scac: 'MAEU', name: 'Three containers maybe' },
    { reference: 'A11Y-S-2', tracking_number: 'MAEU240000404', tracking_type: 'bill_of_lading', carrier_scac: 'MAEU', name: 'Tracking fails' },
    { reference: 'A11Y-S-3', tracking_number: 'MSCU1234566', tracking_type: 'container', carrier_scac: 'MSCU', name: 'One container' },
  ]);
  const empty = await importList([{ reference: 'A11Y-S-4', tracking_number: 'MSCU1234566', tracking_type: 'container', carrier_scac: 'QQQQ' }]);

  await connectToSandbox(page, url);
  await page.goto(`${url}/shipments?batch_id=${withData}`);
  const table = page.getByRole('table', { name: 'Shipments' });
  await expect(table).toContainText('A11Y-S-3');
  await accessible(page, 'Shipments of a batch');
  expect(await badgesHaveWords(page, 'Shipments')).toBe(3);
  await table.getByRole('button', { name: /^A11Y-S-1/ }).click();
  const panel = page.getByRole('dialog');
  await expect(panel.getByRole('heading', { name: /^Containers \(\d\)$/ })).toBeVisible();
  await accessible(page, 'the shipment panel with containers');
  await screenshot(page, 'a11y-states-shipment-panel');

  await page.goto(`${url}/shipments?batch_id=${empty}`);
  await expect(page.getByRole('heading', { name: 'No shipments from this batch' })).toBeVisible();
  await accessible(page, 'Shipments, empty');

  // The sandbox stops: the next list asked for cannot load, and the page says so.
  await sandbox!.stop();
  sandbox = null;
  await page.getByRole('textbox', { name: 'Import batch' }).fill(withData.replace(/.$/, '0'));
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Could not load shipments' })).toBeVisible({ timeout: 60_000 });
  await accessible(page, 'Shipments with the sandbox stopped');
  await screenshot(page, 'a11y-states-shipments-error');
});
