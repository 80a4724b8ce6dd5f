// Issue #14 item 3, for what exists today: axe on Connect (empty, connected, error), Shipments and
// its panel with data that overflows, every import step with a file wide and long enough that
// its regions scroll, and the finished job page with more row problems than its table shows at
// once (the other specs' small files never overflow, so axe never saw a scrolling region). And
// `prefers-reduced-motion`: no transitions or animations when asked.
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, screenshot, test } from './support/fixtures';
import { connectToSandbox, dropAndSend, jobFinishedBadge } from './support/journey';
import { tabTo } from './support/keyboard';

test.describe.configure({ timeout: 120_000 });


const demoKey = async (request: APIRequestContext) => ((await (await request.get('/sandbox.json')).json()) as { api_key: string }).api_key;

test('Connect: empty, refused key, connected', async ({ page, expectAccessible }) => {
  await page.goto('/connect');
  await expect(page.getByRole('heading', { name: 'Connect', exact: true })).toBeVisible();
  await expectAccessible(page);

  await page.getByRole('textbox', { name: 'API key' }).fill('not-a-key-of-this-sandbox');
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Could not connect' })).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, 'a11y-connect-error');

  await connectToSandbox(page);
  await page.goto('/connect');
  await expect(page.getByText('Connected to Local sandbox')).toBeVisible();
  await expectAccessible(page);
});

test('Shipments and the panel with long names, many tags and long references', async ({ page, request, expectAccessible }) => {
  const run = Date.now().toString(36).toUpperCase();
  const key = await demoKey(request);
  const long = 'Machine parts and spare bicycle frames, Shanghai → Rotterdam → Duisburg, '.repeat(3).slice(0, 250);
  const created = await request.post('/api/v1/shipments/imports', {
    headers: { Authorization: `Bearer ${key}` },
    data: [
      {
        reference: `${run}-A-VERY-LONG-REFERENCE-WITHOUT-ANY-SPACES-${'X'.repeat(40)}`,
        tracking_number: 'MAEU240000408',
        tracking_type: 'bill_of_lading',
        carrier_scac: 'MAEU',
        name: long,
      },
    ],
  });
  expect(created.status()).toBe(202);
  const batch = (await created.json()) as { id: string };
  await expect
    .poll(async () => ((await (await request.get(`/api/v1/shipments/imports/${batch.id}`, { headers: { Authorization: `Bearer ${key}` } })).json()) as { status: string }).status, { timeout: 30_000 })
    .toBe('completed');
  // Tags and viewers are set as the service sets them: by PATCH.
  const patched = await request.patch(`/api/v1/shipments/reference/${encodeURIComponent(`${run}-A-VERY-LONG-REFERENCE-WITHOUT-ANY-SPACES-${'X'.repeat(40)}`)}`, {
    headers: { Authorization: `Bearer ${key}` },
    data: { tags: Array.from({ length: 25 }, (_, i) => `tag-number-${i}`), viewers: ['ana.lopez@example.com', 'ben.okafor@example.com', 'chen.wei@example.com'] },
  });
  expect(patched.status(), await patched.text()).toBe(200);
  await connectToSandbox(page);
  await page.goto(`/shipments?batch_id=${batch.id}`);
  const table = page.getByRole('table', { name: 'Shipments' });
  await expect(table).toContainText('tag-number-24');
  await expectAccessible(page);
  await screenshot(page, 'a11y-shipments-long');

  await table.getByRole('button', { name: new RegExp(`^${run}-A-VERY-LONG`) }).click();
  const panel = page.getByRole('dialog');
  await expect(panel.getByRole('heading', { name: /^Containers \(\d\)$/ })).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, 'a11y-shipment-panel-long');
});

/** A file 40 columns wide (the template's and 32 more, long headers) with 300 rows, 60 of them wrong. */
function overflowingCsv(): Buffer {
  const extra = Array.from({ length: 32 }, (_, i) => `an extra column with a long header number ${i + 1}`);
  const lines = [['tracking_number', 'tracking_type', 'reference', 'carrier', 'name', 'viewers', 'tags', 'assignees', ...extra].join(',')];
  for (let r = 0; r < 300; r++) {
    const wrong = r % 5 === 0;
    lines.push(
      [
        wrong ? `NOTACONTAINER${r}` : `MAEU${String(300_000_000 + r)}`,
        wrong ? 'container' : 'bill_of_lading',
        `REF-${r}`,
        'MAEU',
        `"Shipment ${r}, a name long enough to be cut off in its column, Shanghai → Rotterdam"`,
        '"ana.lopez@example.com, ben.okafor@example.com"',
        '"urgent, reefer, q3, eu"',
        'chen.wei@example.com',
        ...extra.map((_, i) => `value ${r}-${i} that is fairly long`),
      ].join(','),
    );
  }
  return Buffer.from(lines.join('\r\n'));
}

async function dropOverflowingFile(page: Page): Promise<void> {
  await connectToSandbox(page);
  await page.getByLabel('Spreadsheet file').setInputFiles({ name: 'wide-and-long.csv', mimeType: 'text/csv', buffer: overflowingCsv() });
  await expect(page.getByRole('heading', { name: 'Columns' })).toBeVisible();
}

test('import: columns and review with a file that overflows both ways', async ({ page, expectAccessible }) => {
  await dropOverflowingFile(page);
  await page.getByRole('button', { name: 'Show ignored columns' }).click();
  await expectAccessible(page);
  await screenshot(page, 'a11y-import-columns-wide');

  await page.getByRole('button', { name: 'Continue to review' }).click();
  const grid = page.getByRole('region', { name: 'Rows to review' });
  await expect(grid).toBeVisible();
  await expectAccessible(page);
  await grid.getByRole('button', { name: 'Line 2: show its issues' }).click();
  await expect(page.getByRole('region', { name: /Line 2/ })).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, 'a11y-import-review-wide');
});

test('import: the Ready step of a file with 60 skipped rows', async ({ page, expectAccessible }) => {
  await dropOverflowingFile(page);
  await page.getByRole('button', { name: 'Continue to review' }).click();
  await page.getByRole('button', { name: /Continue with \d+ ready rows?/ }).click();
  await expect(page.getByRole('heading', { name: 'Ready to submit' })).toBeVisible();
  await expect(page.getByText('NOTACONTAINER295')).toBeAttached();
  await screenshot(page, 'a11y-import-ready-overflow');
  // The CSV preview and the skipped-rows list overflow here: both must be reachable by keyboard
  // (axe scrollable-region-focusable), as must everything else.
  await expectAccessible(page);
});

/**
 * 20 rows the sandbox takes with a warning each (an assignee who is not a member of the
 * workspace) and one whose tracking fails: more row problems than the job page's table shows at once.
 */
function warnedCsv(): string {
  const lines = ['tracking_number,tracking_type,reference,carrier,name,assignees'];
  for (let r = 0; r < 20; r++) lines.push(`MSCU1234566,container,WARN-${r},MSCU,Warned ${r},nobody-${r}@example.com`);
  lines.push('MAEU240000404,bill_of_lading,WARN-TRACK,MAEU,Tracking fails,');
  return lines.join('\r\n');
}

test('the finished job page: its row problems overflow, scroll by keyboard, and axe finds nothing serious', async ({ page, expectAccessible }) => {
  await connectToSandbox(page);
  await dropAndSend(page, 'warned.csv', warnedCsv(), 21);
  await expect(jobFinishedBadge(page)).toBeVisible({ timeout: 90_000 });
  const table = page.getByRole('table').filter({ has: page.getByRole('columnheader', { name: 'Message' }) });
  await expect(table).toContainText('nobody-19@example.com');
  await expect(table).toContainText('Reason: not found.', { timeout: 30_000 });
  // It really overflows its scrolling box: otherwise this test would prove nothing.
  expect(await table.evaluate((element) => element.parentElement!.scrollHeight > element.parentElement!.clientHeight)).toBe(true);
  await expectAccessible(page);

  // The box is a region named by its heading, reached by Tab and scrolled by the arrow keys.
  const problems = page.getByRole('region', { name: 'Row warnings and errors' });
  await expect(problems).toContainText('nobody-19@example.com');
  await tabTo(page, problems);
  await page.keyboard.press('ArrowDown');
  await expect.poll(() => problems.evaluate((element) => element.scrollTop)).toBeGreaterThan(0);
  await screenshot(page, 'a11y-job-problems-overflow');
});

test('prefers-reduced-motion: transitions and animations are off when asked, on otherwise', async ({ page }) => {
  const motion = () =>
    page
      .getByRole('button', { name: 'Use local sandbox' })
      .evaluate((button) => Number.parseFloat(getComputedStyle(button).transitionDuration) * 1000);
  await page.emulateMedia({ reducedMotion: 'no-preference' });
  await page.goto('/connect');
  expect(await motion()).toBeGreaterThanOrEqual(100);
  await page.emulateMedia({ reducedMotion: 'reduce' });
  expect(await motion()).toBeLessThan(1);
  const animated = await page.evaluate(() => {
    const probe = document.createElement('div');
    probe.className = 'animate-pulse';
    document.body.append(probe);
    const style = getComputedStyle(probe);
    const figures = { name: style.animationName, ms: Number.parseFloat(style.animationDuration) * 1000 };
    probe.remove();
    return figures;
  });
  expect(animated.ms).toBeLessThan(1);
});
