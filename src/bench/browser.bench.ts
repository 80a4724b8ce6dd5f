// The importer in headless Chromium, as a person uses it: drop a generated 100,000-row file,
// continue past the mapping, and use the grid. Measures (DESIGN §6): drop → columns shown,
// continue → grid usable, the longest main-thread task (PerformanceObserver 'longtask'), rows in
// the DOM while scrolling, and edit → row revalidated on screen. Two files of each format: the
// narrow one (7 columns) and the kind a user has (the template's columns and two custom fields,
// lists quoted with commas). Every figure is the median (range) of `--runs N` (BENCH_RUNS,
// default 5); the machine's load at the start is printed with them. Writes
// bench-results/browser.json. `--rows N` changes the size; `--only csv|xlsx` runs one format.
import { mkdirSync, writeFileSync } from 'node:fs';
import { chromium, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium, NO_BROWSER_MESSAGE } from '../tooling/browser';
import { startServerProcess } from '../tooling/server-process';
import { containerCheckDigit } from '../spreadsheet/iso6346';
import { machineLoad, medianWithRange, runCount } from './stats';
import { userRows } from './user-rows';

const at = process.argv.indexOf('--rows');
const ROWS = at >= 0 ? Number(process.argv[at + 1]) : 100_000;
const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : null;
const RUNS = runCount(5);

const HEADER = ['tracking_number', 'tracking_type', 'reference', 'carrier', 'name', 'tags', 'cf_po_number'];

/** Deterministic rows: valid container numbers and bills of lading, ~2% with a wrong check digit. */
function generateRows(count: number): string[][] {
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const rows: string[][] = [HEADER];
  for (let r = 0; r < count; r++) {
    const serial = String(r % 1_000_000).padStart(6, '0');
    const prefix = `MSKU${serial}`;
    let digit = containerCheckDigit(prefix) ?? 0;
    if (next() < 0.02) digit = (digit + 1) % 10;
    const container = next() < 0.8;
    rows.push([
      container ? `${prefix}${digit}` : `MAEU${String(100_000_000 + r)}`,
      container ? 'container' : 'bill_of_lading',
      `REF-${r + 1}`,
      container ? 'MAEU' : 'MAEU',
      `Shipment ${r + 1}, lot ${Math.floor(next() * 90) + 10}`,
      next() < 0.3 ? 'urgent,reefer' : '',
      `PO-${Math.floor(next() * 1e6)}`,
    ]);
  }
  return rows;
}

function toCsv(rows: string[][]): Buffer {
  return Buffer.from(rows.map((row) => row.map((cell) => (/[",\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell)).join(',')).join('\r\n'));
}

/** A workbook as Excel writes one: text in the shared-string table, parts deflated at zlib's usual level. */
async function toXlsx(rows: string[][]): Promise<Buffer> {
  const XLSX = await import('@e965/xlsx');
  const { unzipSync, zipSync } = await import('fflate');
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), 'Shipments');
  const written = XLSX.write(book, { type: 'buffer', bookType: 'xlsx', bookSST: true }) as Buffer;
  return Buffer.from(zipSync(unzipSync(written), { level: 6 }));
}

interface Figures {
  format: string;
  /** Which file: 'narrow' or 'user'. */
  kind: string;
  columns: number;
  rows: number;
  fileMB: number;
  dropToColumnsMs: number;
  continueToGridMs: number;
  totalMs: number;
  longestTaskMs: number;
  longTasksOver100: number;
  maxDomRows: number;
  editToRevalidatedMs: number;
}

const TYPES = { csv: 'text/csv', xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' } as const;

/** Above this many rows the CSV is written inside the page: a body that large through Playwright's route closes the page. */
const IN_PAGE_ROWS = 200_000;

async function measure(page: Page, format: 'csv' | 'xlsx', kind: string, columns: number, file: Buffer | null): Promise<Figures> {
  // The file is put in the page before the clock starts, as it is on a user's disk: handing it
  // over through Playwright would run the DevTools transfer on the renderer's main thread.
  if (file) await page.route('**/bench-file', (route) => route.fulfill({ body: file, contentType: TYPES[format] }));
  await page.goto('/');
  await page.getByRole('heading', { name: 'Import shipments' }).waitFor();
  await page.evaluate(
    async ({ name, type, rows }) => {
      const w = window as unknown as { benchFile: File; longTasks: number[] };
      if (rows === 0) {
        w.benchFile = new File([await (await fetch('/bench-file')).blob()], name, { type });
      } else {
        // Bills of lading (no check digit to compute here), unique references, a quoted name.
        const parts = ['tracking_number,tracking_type,reference,carrier,name,tags,cf_po_number'];
        for (let r = 0; r < rows; r++) parts.push(`MAEU${100_000_000 + r},bill_of_lading,REF-${r + 1},MAEU,"Shipment ${r + 1}, lot ${r % 90}",,PO-${r % 1_000_000}`);
        w.benchFile = new File([parts.join('\r\n')], name, { type });
      }
      w.longTasks = [];
      new PerformanceObserver((list) => w.longTasks.push(...list.getEntries().map((e) => e.duration))).observe({ type: 'longtask' });
    },
    { name: `shipments.${format}`, type: TYPES[format], rows: file ? 0 : ROWS },
  );
  const t0 = Date.now();
  await page.getByRole('button', { name: /Choose a spreadsheet to import/ }).evaluate((zone) => {
    const data = new DataTransfer();
    data.items.add((window as unknown as { benchFile: File }).benchFile);
    zone.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
  });
  await page.getByRole('heading', { name: 'Columns' }).waitFor({ timeout: 120_000 });
  const t1 = Date.now();
  await page.getByRole('button', { name: 'Continue to review' }).click();
  const grid = page.getByRole('region', { name: 'Rows to review' });
  await grid.getByRole('button', { name: /^tracking_number, (line|row) 2:/ }).waitFor({ timeout: 120_000 });
  const t2 = Date.now();

  // Scroll through the grid and count the table rows in the DOM at each stop.
  let maxDomRows = 0;
  for (const fraction of [0.1, 0.25, 0.5, 0.75, 1]) {
    await grid.evaluate((el, f) => el.scrollTo({ top: el.scrollHeight * f }), fraction);
    await page.waitForTimeout(150);
    maxDomRows = Math.max(maxDomRows, await grid.locator('tr').count());
  }
  await grid.evaluate((el) => el.scrollTo({ top: 0 }));
  await grid.getByRole('button', { name: /^tracking_number, (line|row) 2:/ }).waitFor();

  // Edit → the cell shows the new value, timed inside the page from the Enter key.
  await grid.getByRole('button', { name: /^name, (line|row) 2:/ }).click();
  await page.getByLabel(/^Edit name, (line|row) 2$/).fill('Edited for the bench');
  const editToRevalidatedMs = await grid.evaluate(
    (region) =>
      new Promise<number>((resolve) => {
        const input = region.querySelector<HTMLInputElement>('input[aria-label="Edit name, line 2"], input[aria-label="Edit name, row 2"]');
        const start = performance.now();
        const observer = new MutationObserver(() => {
          if (region.querySelector('[aria-label^="name, line 2: Edited for the bench."], [aria-label^="name, row 2: Edited for the bench."]')) {
            observer.disconnect();
            resolve(Math.round(performance.now() - start));
          }
        });
        observer.observe(region, { subtree: true, childList: true, attributes: true });
        input?.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
      }),
  );

  const longTasks = await page.evaluate(() => (window as unknown as { longTasks: number[] }).longTasks);
  return {
    format,
    kind,
    columns,
    rows: ROWS,
    fileMB: Math.round(((file?.length ?? (await page.evaluate(() => (window as unknown as { benchFile: File }).benchFile.size))) / 2 ** 20) * 10) / 10,
    dropToColumnsMs: t1 - t0,
    continueToGridMs: t2 - t1,
    totalMs: t2 - t0,
    longestTaskMs: Math.round(Math.max(0, ...longTasks)),
    longTasksOver100: longTasks.filter((d) => d > 100).length,
    maxDomRows,
    editToRevalidatedMs,
  };
}

const executablePath = findChromium();
if (!executablePath) {
  console.error(NO_BROWSER_MESSAGE);
  process.exit(1);
}
const server = await startServerProcess({ env: { SANDBOX_ROW_DELAY_MS: '0' }, echoStderr: true });
const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
const load = machineLoad();
const results: Figures[] = [];
try {
  const files: { kind: string; columns: number; rows: string[][] }[] = [];
  if (ROWS <= IN_PAGE_ROWS) {
    files.push({ kind: 'narrow', columns: HEADER.length, rows: generateRows(ROWS) });
    const user = userRows(ROWS);
    files.push({ kind: 'user', columns: user[0]?.length ?? 0, rows: user });
  }
  const built: { kind: string; columns: number; format: 'csv' | 'xlsx'; file: Buffer | null }[] = [];
  for (const format of ['csv', 'xlsx'] as const) {
    if (only && only !== format) continue;
    if (ROWS > IN_PAGE_ROWS) {
      if (format === 'csv') built.push({ kind: 'narrow', columns: HEADER.length, format, file: null }); // a workbook that size is not written in a page
      continue;
    }
    for (const { kind, columns, rows } of files) built.push({ kind, columns, format, file: format === 'csv' ? toCsv(rows) : await toXlsx(rows) });
  }
  const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1366, height: 900 } });
  const page = await context.newPage();
  await page.goto('/connect');
  await page.getByRole('button', { name: 'Use local sandbox' }).click();
  await page.getByRole('heading', { name: 'Import shipments' }).waitFor();
  // Runs alternate between the files, so a busy spell of the machine slows each alike.
  for (let run = 0; run < RUNS; run++) {
    for (const { kind, columns, format, file } of built) {
      const figures = await measure(page, format, kind, columns, file);
      console.error(`run ${run + 1}: ${format} ${kind}: total ${figures.totalMs} ms, longest task ${figures.longestTaskMs} ms, edit ${figures.editToRevalidatedMs} ms`);
      results.push(figures);
    }
  }
} finally {
  await browser.close();
  await server.stop();
}

console.log(`Headless Chromium, ${ROWS.toLocaleString('en')} rows; median (range) of ${RUNS} run(s) each; ${load} at the start, ${machineLoad()} at the end.\n`);
console.log('| file | columns | size | drop → columns | continue → grid | total | longest task | tasks > 100 ms | DOM rows | edit → revalidated |');
console.log('|---|---|---|---|---|---|---|---|---|---|');
const groups = new Map<string, Figures[]>();
for (const r of results) groups.set(`${r.format} ${r.kind}`, [...(groups.get(`${r.format} ${r.kind}`) ?? []), r]);
for (const [name, runs] of groups) {
  const of = (pick: (r: Figures) => number, unit = 'ms') => medianWithRange(runs.map(pick), unit);
  console.log(
    `| ${name} | ${runs[0]?.columns} | ${runs[0]?.fileMB} MB | ${of((r) => r.dropToColumnsMs)} | ${of((r) => r.continueToGridMs)} | ${of((r) => r.totalMs)} | ${of((r) => r.longestTaskMs)} | ${of((r) => r.longTasksOver100, '')} | ${of((r) => r.maxDomRows, '')} | ${of((r) => r.editToRevalidatedMs)} |`,
  );
}
mkdirSync('bench-results', { recursive: true });
writeFileSync('bench-results/browser.json', JSON.stringify({ rows: ROWS, runs: RUNS, load, results }, null, 2));
