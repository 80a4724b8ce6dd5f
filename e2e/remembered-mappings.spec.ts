// Remembered mappings (DESIGN §1 journey 14): a file whose headers mean nothing to the rules is
// mapped by hand and sent; next week's file, its headers in another order and case, is mapped from
// memory and says from which file; a colleague's browser, sharing no storage, maps it the same way
// through the console's server, and names a remembered column a later file lacks; Forget forgets it
// for the team.
import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { expect, screenshot, test } from './support/fixtures';
import { connectToSandbox, continueToReady, continueToReview, send } from './support/journey';

const KEY = 'sandbox-demo-key-4173';
const RUN = Date.now().toString(36).toUpperCase();
// Seven headers: the console's server is shared by every spec, and a memory of these shares too
// little with import.spec's five (Equipment … Cargo) to be applied to its file.
const HEADER = ['Equipment', 'Basis', 'Order', 'Operator', 'Cargo', 'Vessel', 'Voyage'];
const ROWS = [
  ['MSKU1234565', 'container', `REM-${RUN}-1`, 'MAEU', 'Toys', 'Maersk Essen', '046W'],
  ['MEDU7654325', 'container', `REM-${RUN}-2`, 'MSCU', 'Shoes', 'MSC Anna', '046W'],
];
const fileName = (week: number) => `weekly-${RUN}-${week}.csv`;

/** The file of a week: the columns in the order `order` gives (indexes into HEADER), the headers through `spell`. */
function weekFile(week: number, order: number[], spell: (header: string) => string) {
  const lines = [order.map((i) => spell(HEADER[i] ?? '')), ...ROWS.map((row) => order.map((i) => row[i] ?? ''))];
  return { name: fileName(week), mimeType: 'text/csv', buffer: Buffer.from(lines.map((line) => line.join(',')).join('\r\n')) };
}

/** Forgets, through the console's server, any remembered mapping of these headers (a run stopped half-way leaves one). */
async function forgetOnServer(request: APIRequestContext): Promise<void> {
  const headers = { Authorization: `Bearer ${KEY}` };
  const same = (columns: { header: string }[]) =>
    columns.map((c) => c.header.toLowerCase().replace(/\s+/g, '')).sort().join() === HEADER.map((h) => h.toLowerCase()).sort().join();
  const list = (await (await request.get('/console/api/mappings', { headers })).json()) as { data: { fingerprint: string; columns: { header: string }[] }[] };
  for (const mapping of list.data.filter((m) => same(m.columns))) await request.delete(`/console/api/mappings/${mapping.fingerprint}`, { headers });
}

async function newPerson(browser: Browser, baseURL: string): Promise<Page> {
  const context = await browser.newContext({ baseURL });
  return context.newPage();
}

/** A column's target select; its label holds the header as written, stray spaces included. */
const select = (page: Page, letter: string, header: string) => page.getByLabel(new RegExp(`^Import column ${letter} \\(\\s*${header}\\s*\\) as$`));

test.beforeAll(async ({ request }) => forgetOnServer(request));
test.afterAll(async ({ request }) => forgetOnServer(request));

test('a mapping made by hand maps next week’s file from memory, in any browser of the team, until it is forgotten', async ({ browser, baseURL, expectAccessible }) => {
  test.slow();
  // Ana maps week 46 by hand and sends it.
  const ana = await newPerson(browser, baseURL!);
  await connectToSandbox(ana);
  await ana.evaluate(() => localStorage.setItem('import-console.your-name', 'Ana'));
  await expect(ana.getByRole('heading', { name: 'Remembered mappings' })).toHaveCount(0);
  await ana.getByLabel('Spreadsheet file').setInputFiles(weekFile(46, [0, 1, 2, 3, 4, 5, 6], (h) => h));
  await expect(ana.getByText('0 of 7 columns imported.', { exact: false })).toBeVisible();
  await select(ana, 'A', 'Equipment').selectOption('tracking_number');
  await select(ana, 'B', 'Basis').selectOption('tracking_type');
  await select(ana, 'C', 'Order').selectOption('reference');
  await select(ana, 'D', 'Operator').selectOption('carrier');
  await continueToReview(ana, 2);
  await continueToReady(ana, 2);
  await send(ana, 2);

  // The Import page lists what it remembers.
  await ana.goto('/');
  const list = ana.getByRole('region', { name: 'Remembered mappings' });
  const row = list.getByRole('row', { name: new RegExp(fileName(46)) });
  await expect(row).toContainText('Ana');
  await expect(row).toContainText('4 of 7 columns imported');
  await expect(row).toContainText('For the team');
  await expectAccessible(ana);
  await screenshot(ana, 'remembered-mappings-list');

  // Week 47: the same headers in another order and case, with stray spaces.
  await ana.getByLabel('Spreadsheet file').setInputFiles(weekFile(47, [6, 5, 4, 3, 2, 1, 0], (h) => (h.length % 2 ? h.toUpperCase() : ` ${h.toLowerCase()} `)));
  const note = ana.getByRole('status').filter({ hasText: 'Mapped from memory' });
  await expect(note).toContainText(new RegExp(`The columns are set as mapped for ${fileName(46).replace(/\./g, '\\.')} on \\d{1,2} \\w{3}, by Ana`));
  await expect(select(ana, 'G', 'EQUIPMENT')).toHaveValue('tracking_number');
  await expect(select(ana, 'F', 'BASIS')).toHaveValue('tracking_type');
  await expect(select(ana, 'E', 'ORDER')).toHaveValue('reference');
  await expect(select(ana, 'D', 'operator')).toHaveValue('carrier');
  // Each remembered column says why.
  await expect(ana.getByText(new RegExp(`^As mapped for ${fileName(46).replace(/\./g, '\\.')} on \\d{1,2} \\w{3}, by Ana\\.$`))).toHaveCount(4);
  await expect(ana.getByRole('button', { name: 'Continue to review' })).toBeEnabled();
  await expectAccessible(ana);
  await screenshot(ana, 'remembered-mappings-columns');

  // Bea, in another browser with nothing shared but the console's address, gets the team's memory.
  const bea = await newPerson(browser, baseURL!);
  await connectToSandbox(bea);
  await expect(bea.getByRole('region', { name: 'Remembered mappings' }).getByRole('row', { name: new RegExp(fileName(46)) })).toBeVisible();
  await bea.getByLabel('Spreadsheet file').setInputFiles(weekFile(48, [2, 0, 3, 1, 6, 4, 5], (h) => h.toLowerCase()));
  await expect(bea.getByRole('status').filter({ hasText: 'Mapped from memory' })).toContainText(`as mapped for ${fileName(46)}`);
  await expect(select(bea, 'A', 'order')).toHaveValue('reference');
  await expect(select(bea, 'B', 'equipment')).toHaveValue('tracking_number');
  await screenshot(bea, 'remembered-mappings-other-browser');

  // A week without the Operator column: mapped from memory all the same, and the missing column named.
  await bea.getByRole('button', { name: 'Choose another file' }).click();
  await bea.getByLabel('Spreadsheet file').setInputFiles(weekFile(49, [0, 1, 2, 4, 5, 6], (h) => h));
  await expect(bea.getByRole('status').filter({ hasText: 'Mapped from memory' })).toContainText(
    `“Operator” (carrier), remembered from ${fileName(46)}, is not in this file.`,
  );
  await expect(select(bea, 'A', 'Equipment')).toHaveValue('tracking_number');
  await expect(select(bea, 'C', 'Order')).toHaveValue('reference');

  // Forget: gone from the list, for the team, and the next file is mapped by the rules again.
  await bea.getByRole('button', { name: 'Choose another file' }).click();
  await bea.getByRole('button', { name: `Forget the mapping of ${fileName(46)}` }).click();
  await expect(bea.getByRole('heading', { name: 'Remembered mappings' })).toHaveCount(0);
  await bea.reload();
  await expect(bea.getByRole('button', { name: /Choose a spreadsheet to import/ })).toBeVisible();
  await expect(bea.getByRole('heading', { name: 'Remembered mappings' })).toHaveCount(0);
  await bea.getByLabel('Spreadsheet file').setInputFiles(weekFile(50, [0, 1, 2, 3, 4, 5, 6], (h) => h));
  await expect(bea.getByText('0 of 7 columns imported.', { exact: false })).toBeVisible();
  await expect(bea.getByText('Mapped from memory')).toHaveCount(0);
});
