// Issue #14 item 3, for what exists today: axe on Connect (empty, connected, error), Shipments and
// its panel with data that overflows, and every import step with a file wide and long enough
// that its regions scroll (the other specs' small files never overflow, so axe never saw a
// scrolling region). And `prefers-reduced-motion`: no transitions or animations when asked.
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, screenshot, test } from './support/fixtures';
import { connectToSandbox } from './support/journey';

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
