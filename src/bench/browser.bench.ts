// The importer in headless Chromium, as a person uses it: drop a generated file, continue past
// the mapping, and use the grid; beside it, in the same run and page, the libraries alone in a
// dedicated worker on the same file (papaparse for CSV, SheetJS for XLSX: the bench worker,
// xlsx-bench-worker.ts). Measures (DESIGN §6): drop → columns shown, continue → grid usable
// (both timed inside the page: the clock from the drop event to the Columns heading, and from
// the Continue click to the grid's first cell, so Playwright's round trips are not in them),
// usable = their sum, the console ÷ the library alone, the longest main-thread task
// (PerformanceObserver 'longtask') and the phase it fell in, the page's renderer's resident
// memory (VmRSS from /proc of the page's renderer process, its workers being threads of it:
// before the drop, the peak until usable, at usable, when every row is checked, and then once
// the page and its workers have collected their garbage — Chromium runs with --expose-gc for
// that), rows in the DOM while scrolling, and edit → row revalidated on screen. Two files of each
// format: the narrow one (7 columns) and the kind a user has (src/spreadsheet/sample-rows.ts: the
// template's columns and two custom fields, lists quoted with commas). The console and the
// library alternate (their order swapped every run), each measurement in a tab of its own. Every figure is the median (range) of
// `--runs N` (BENCH_RUNS, default 5); the machine's load is printed with them. Writes
// bench-results/browser.json. `--rows N` changes the size (above 200,000 rows CSV only);
// `--only csv|xlsx` runs one format; `--kind narrow|user` one file. `--look MS` waits MS on the
// Columns step before Continue, as a person reading it does (default 0: Continue at once, the
// worst case); the console builds the review meanwhile, so continue → grid is what is left of it.
import { mkdirSync, writeFileSync } from 'node:fs';
import { chromium, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium, NO_BROWSER_MESSAGE } from '../tooling/browser';
import { startServerProcess } from '../tooling/server-process';
import { containerCheckDigit } from '../spreadsheet/iso6346';
import { bundleBenchWorker, processRss, rendererPids } from './bench-browser';
import { machineLoad, median, medianWithRange, runCount } from './stats';
import type { BenchAnswer } from './xlsx-bench-worker';
import { userRows } from '../spreadsheet/sample-rows';

const option = (name: string) => (process.argv.includes(`--${name}`) ? process.argv[process.argv.indexOf(`--${name}`) + 1] : null);
const ROWS = Number(option('rows') ?? 100_000);
const only = option('only');
const onlyKind = option('kind');
const RUNS = runCount(5);
const LOOK_MS = Number(option('look') ?? 0);

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
  format: 'csv' | 'xlsx';
  /** Which file: 'narrow' or 'user'. */
  kind: string;
  columns: number;
  rows: number;
  fileMB: number;
  dropToColumnsMs: number;
  /** From the drop until the file reader's answer reached the page (the rest: the Columns step rendered). */
  readAnsweredMs: number;
  continueToGridMs: number;
  /** From Continue until the review's answer reached the page: 0 when it was built ahead, while the Columns step was shown. */
  reviewAnsweredMs: number;
  /** dropToColumnsMs + continueToGridMs: the console's own time until the grid is usable. */
  usableMs: number;
  /** The library alone in a worker, on the same file, in the same run. */
  libraryMs: number;
  longestTaskMs: number;
  /** Where the longest task fell (PHASES): its phase, or the two phases it spans when a phase's mark was set inside it. */
  longestTaskIn: string;
  longTasksOver100: number;
  maxDomRows: number;
  editToRevalidatedMs: number;
  /** Renderer resident memory (MB): before the drop, the peak until usable, and at usable. */
  rssBeforeMb: number;
  rssPeakMb: number;
  rssUsableMb: number;
  /** From Continue until every row is checked (the review's whole counts shown), and the renderer's peak and resident memory then. */
  checkedMs: number;
  rssCheckedPeakMb: number;
  rssCheckedMb: number;
  /** Then, once the page and its workers have collected their garbage. */
  rssLiveMb: number;
}

/** The measurement's phases, each from its mark (the page's clock, set in the page) to the next one's. */
const PHASES = [
  ['drop', 'drop → columns'],
  ['columns', 'columns shown'],
  ['continue', 'continue → grid'],
  ['grid', 'grid → every row checked'],
  ['checked', 'after every row is checked (the bench collects garbage, then waits 1 s)'],
  ['scroll', 'scroll'],
  ['edit', 'edit'],
] as const;

const TYPES = { csv: 'text/csv', xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' } as const;
const LIBRARY = { csv: 'papaparse', xlsx: 'SheetJS' } as const;

/** Bodies handed to the page through Playwright's route stay under this: a larger one closes the page. */
const PIECE = 8 * 2 ** 20;
const MB = (bytes: number) => Math.round(bytes / 2 ** 20);

interface BenchFile {
  kind: string;
  columns: number;
  format: 'csv' | 'xlsx';
  bytes: Buffer;
}

/** Routes the file in pieces; the page joins them into `window.benchFile`, as a file on a user's disk. */
async function putFile(page: Page, file: BenchFile): Promise<void> {
  const pieces = Math.ceil(file.bytes.length / PIECE);
  await page.route('**/bench-file/*', (route) => {
    const index = Number(new URL(route.request().url()).pathname.split('/').pop());
    return route.fulfill({ body: file.bytes.subarray(index * PIECE, (index + 1) * PIECE), contentType: 'application/octet-stream' });
  });
  await page.evaluate(
    async ({ name, type, pieces }) => {
      const parts: Blob[] = [];
      for (let i = 0; i < pieces; i++) parts.push(await (await fetch(`/bench-file/${i}`)).blob());
      (window as unknown as { benchFile: File }).benchFile = new File(parts, name, { type });
    },
    { name: `shipments.${file.format}`, type: TYPES[file.format], pieces },
  );
  await page.unroute('**/bench-file/*');
}

/**
 * The page's renderer's resident memory sampled every 100 ms until stopped: before, the peak and
 * the last. The browser keeps other renderers (a spare one, one per other site); the page's is
 * the one that grows with the file, so each renderer is sampled and the largest at the end is
 * taken as the page's.
 */
function sampleMemory(marker: string) {
  const pids = rendererPids(marker);
  const before = new Map(pids.map((pid) => [pid, processRss(pid)]));
  const peak = new Map(before);
  const last = new Map(before);
  const sample = () => {
    for (const pid of pids) {
      const rss = processRss(pid);
      last.set(pid, rss);
      peak.set(pid, Math.max(peak.get(pid) ?? 0, rss));
    }
  };
  const timer = setInterval(sample, 100);
  const now = () => {
    sample();
    const page = pids.reduce((best, pid) => ((last.get(pid) ?? 0) > (last.get(best) ?? 0) ? pid : best), pids[0] ?? 0);
    return { before: before.get(page) ?? 0, peak: peak.get(page) ?? 0, last: last.get(page) ?? 0 };
  };
  return {
    /** The figures so far, sampling on. */
    now,
    stop: () => {
      clearInterval(timer);
      return now();
    },
  };
}

async function collectGarbage(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.detach();
}

/** The library alone in a fresh dedicated worker of this page, on the file the page holds; ms from posting the file to the answer. */
async function measureLibrary(page: Page, workerCode: string, file: BenchFile): Promise<number> {
  await page.route('**/bench/worker.js', (route) => route.fulfill({ body: workerCode, contentType: 'text/javascript' }));
  await page.goto('/');
  await page.getByRole('heading', { name: 'Import shipments' }).waitFor();
  await putFile(page, file);
  await collectGarbage(page);
  const answer = await page.evaluate(
    (reader) =>
      new Promise<BenchAnswer & { pageMs: number }>((resolve, reject) => {
        const worker = new Worker('/bench/worker.js', { type: 'module' });
        // The worker's code is loaded and run before the clock starts: the figure is the library's work.
        worker.onerror = (event) => reject(new Error(event.message));
        worker.onmessage = () => {
          const start = performance.now();
          worker.onmessage = (event: MessageEvent<BenchAnswer>) => {
            worker.terminate();
            resolve({ ...event.data, pageMs: performance.now() - start });
          };
          worker.postMessage({ reader, file: (window as unknown as { benchFile: File }).benchFile });
        };
        worker.postMessage({ reader: 'ping' });
      }),
    file.format === 'csv' ? 'papaparse' : 'sheetjs',
  );
  if (answer.rows < ROWS) throw new Error(`${LIBRARY[file.format]} read ${answer.rows} rows, not ${ROWS + 1}`);
  return Math.round(answer.pageMs);
}

/**
 * Before the page's scripts: when the file reader's answers to `read` and `build-review` reach the
 * page (window.readerMarks), so each wait splits into the worker's part and the page's render.
 */
function markReaderAnswers(): void {
  const marks: Record<string, number> = {};
  (window as unknown as { readerMarks: Record<string, number> }).readerMarks = marks;
  const Original = window.Worker;
  window.Worker = class extends Original {
    constructor(url: string | URL, options?: WorkerOptions) {
      super(url, options);
      // Added before the page's own handler: it runs first, at the answer's arrival.
      this.addEventListener('message', (event: MessageEvent<{ type?: string; kind?: string }>) => {
        if (event.data?.type === 'done' && (event.data.kind === 'read' || event.data.kind === 'build-review')) marks[event.data.kind] = performance.now();
      });
    }
  };
}

async function measure(page: Page, marker: string, file: BenchFile, libraryMs: number): Promise<Figures> {
  await page.addInitScript(markReaderAnswers);
  await page.goto('/');
  await page.getByRole('heading', { name: 'Import shipments' }).waitFor();
  await putFile(page, file);
  await page.evaluate(() => {
    const w = window as unknown as { longTasks: { start: number; duration: number }[]; marks: Record<string, number> };
    w.longTasks = [];
    new PerformanceObserver((list) => w.longTasks.push(...list.getEntries().map((e) => ({ start: e.startTime, duration: e.duration })))).observe({ type: 'longtask' });
    // The clock is read in the page: when the Columns heading appears, when Continue is clicked,
    // and when the grid's first cell appears.
    const marks: Record<string, number> = (w.marks = {});
    // No named functions in here: the bench's TypeScript runner would wrap them in a helper the page lacks.
    const reached = new Map<string, () => void>();
    (w as unknown as { marked: (name: string) => Promise<void> }).marked = (name) =>
      marks[name] !== undefined ? Promise.resolve() : new Promise((resolve) => reached.set(name, resolve));
    const observer = new MutationObserver(() => {
      const now = performance.now();
      if (marks.columns === undefined && document.getElementById('mapping-heading')) {
        marks.columns = now;
        reached.get('columns')?.();
      }
      if (marks.grid === undefined && document.querySelector('[aria-label^="tracking_number, line 2:"], [aria-label^="tracking_number, row 2:"]')) {
        marks.grid = now;
        reached.get('grid')?.();
        observer.disconnect();
      }
    });
    observer.observe(document.body, { subtree: true, childList: true });
    document.addEventListener(
      'click',
      (event) => {
        if (marks.continue === undefined && (event.target as Element | null)?.closest('button')?.textContent?.includes('Continue to review')) marks.continue = performance.now();
      },
      true,
    );
  });
  await collectGarbage(page);
  const memory = sampleMemory(marker);
  await page.getByRole('button', { name: /Choose a spreadsheet to import/ }).evaluate((zone) => {
    const data = new DataTransfer();
    data.items.add((window as unknown as { benchFile: File }).benchFile);
    (window as unknown as { marks: Record<string, number> }).marks.drop = performance.now();
    zone.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
  });
  // Waited for through the page's own marks, a promise each, not a locator: a locator's wait runs
  // Playwright's role queries in the page's main thread each frame (~10 ms of it between Continue
  // and the grid), and polling each frame keeps the page drawing frames while the worker reads.
  const marked = (mark: 'columns' | 'grid') =>
    page.evaluate((name) => (window as unknown as { marked: (name: string) => Promise<void> }).marked(name), mark);
  await marked('columns');
  if (LOOK_MS > 0) await page.waitForTimeout(LOOK_MS);
  await page.getByRole('button', { name: 'Continue to review' }).click();
  const grid = page.getByRole('region', { name: 'Rows to review' });
  await marked('grid');
  await grid.getByRole('button', { name: /^tracking_number, (line|row) 2:/ }).waitFor({ timeout: 300_000 });
  const rss = memory.now();
  // The rest of the rows are checked after the grid shows its first ones: until the counts line is
  // no longer busy, seen in the page as it changes (the counts come whole in the same render).
  const checkedAt = await page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        // No named functions in here (see the marks above).
        const busy = 'p[aria-live][aria-busy="false"]';
        const marks = (window as unknown as { marks: Record<string, number> }).marks;
        if (document.querySelector(busy)) return resolve((marks.checked = performance.now()));
        const observer = new MutationObserver(() => {
          if (!document.querySelector(busy)) return;
          observer.disconnect();
          resolve((marks.checked = performance.now()));
        });
        observer.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
      }),
  );
  const rssChecked = memory.stop();
  // And what it holds once garbage is collected, in the page and in every worker (gc() is exposed
  // in this browser), a second later: what the rows take, not the garbage of reading them.
  await collectGarbage(page);
  for (const worker of page.workers()) await worker.evaluate(() => (globalThis as unknown as { gc: () => void }).gc());
  await page.waitForTimeout(1000);
  const rssLive = memory.now().last;
  const marks = await page.evaluate(() => (window as unknown as { marks: Record<string, number> }).marks);
  const reader = await page.evaluate(() => (window as unknown as { readerMarks: Record<string, number> }).readerMarks);
  const dropToColumnsMs = Math.round((marks.columns ?? NaN) - (marks.drop ?? NaN));
  const continueToGridMs = Math.round((marks.grid ?? NaN) - (marks.continue ?? NaN));
  // The review answered before Continue (built ahead): none of the wait after Continue is the worker's.
  const reviewAnsweredMs = Math.max(0, Math.round((reader['build-review'] ?? NaN) - (marks.continue ?? NaN)));

  const mark = (name: 'scroll' | 'edit') => page.evaluate((at) => ((window as unknown as { marks: Record<string, number> }).marks[at] = performance.now()), name);
  // Scroll through the grid and count the table rows in the DOM at each stop.
  await mark('scroll');
  let maxDomRows = 0;
  for (const fraction of [0.1, 0.25, 0.5, 0.75, 1]) {
    await grid.evaluate((el, f) => el.scrollTo({ top: el.scrollHeight * f }), fraction);
    await page.waitForTimeout(150);
    maxDomRows = Math.max(maxDomRows, await grid.locator('tr').count());
  }
  await grid.evaluate((el) => el.scrollTo({ top: 0 }));
  await grid.getByRole('button', { name: /^tracking_number, (line|row) 2:/ }).waitFor();

  // Edit → the cell shows the new value, timed inside the page from the Enter key.
  await mark('edit');
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

  const tasks = await page.evaluate(() => (window as unknown as { longTasks: { start: number; duration: number }[] }).longTasks);
  const longTasks = tasks.map((task) => task.duration);
  const longest = tasks.reduce<{ start: number; duration: number } | null>((a, b) => (a && a.duration >= b.duration ? a : b), null);
  const endMarks = await page.evaluate(() => (window as unknown as { marks: Record<string, number> }).marks);
  // A mark can be set inside the task that begins its phase (the drop's dispatch, Continue's click, the
  // Columns step's commit): such a task is named by both phases.
  const phaseAt = (time: number) => [...PHASES].reverse().find(([at]) => (endMarks[at] ?? Infinity) <= time)?.[1] ?? 'before the drop';
  const [from, to] = longest ? [phaseAt(longest.start), phaseAt(longest.start + longest.duration)] : ['', ''];
  const longestTaskIn = from === to ? from : `${from}, into ${to}`;
  return {
    format: file.format,
    kind: file.kind,
    columns: file.columns,
    rows: ROWS,
    fileMB: Math.round((file.bytes.length / 2 ** 20) * 10) / 10,
    dropToColumnsMs,
    readAnsweredMs: Math.round((reader.read ?? NaN) - (marks.drop ?? NaN)),
    continueToGridMs,
    reviewAnsweredMs,
    usableMs: dropToColumnsMs + continueToGridMs,
    libraryMs,
    longestTaskMs: Math.round(Math.max(0, ...longTasks)),
    longestTaskIn,
    longTasksOver100: longTasks.filter((d) => d > 100).length,
    maxDomRows,
    editToRevalidatedMs,
    rssBeforeMb: MB(rss.before),
    rssPeakMb: MB(rss.peak),
    rssUsableMb: MB(rss.last),
    checkedMs: Math.round(checkedAt - (marks.continue ?? NaN)),
    rssCheckedPeakMb: MB(rssChecked.peak),
    rssCheckedMb: MB(rssChecked.last),
    rssLiveMb: MB(rssLive),
  };
}

const executablePath = findChromium();
if (!executablePath) {
  console.error(NO_BROWSER_MESSAGE);
  process.exit(1);
}
const files: BenchFile[] = [];
for (const format of ['csv', 'xlsx'] as const) {
  if ((only && only !== format) || (format === 'xlsx' && ROWS > 200_000)) continue; // a workbook that size is not written here
  for (const [kind, make] of [['narrow', () => generateRows(ROWS)], ['user', () => userRows(ROWS)]] as const) {
    if (onlyKind && onlyKind !== kind) continue;
    const rows = make();
    files.push({ kind, columns: rows[0]?.length ?? 0, format, bytes: format === 'csv' ? toCsv(rows) : await toXlsx(rows) });
  }
}
const workerCode = await bundleBenchWorker();
const server = await startServerProcess({ env: { SANDBOX_ROW_DELAY_MS: '0' }, echoStderr: true });
const marker = `--bench-marker=browser-${process.pid}`;
const browser = await chromium.launch({ executablePath, args: [...CHROMIUM_ARGS, marker, '--js-flags=--expose-gc'] });
const load = machineLoad();
const loads: string[] = [];
const results: Figures[] = [];
try {
  const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1366, height: 900 } });
  const setup = await context.newPage();
  await setup.goto('/connect');
  await setup.getByRole('button', { name: 'Use local sandbox' }).click();
  await setup.getByRole('heading', { name: 'Import shipments' }).waitFor();
  /** Each measurement in a tab of its own, closed after, so no renderer carries one import's memory into the next. */
  const inNewTab = async <T>(measurement: (page: Page) => Promise<T>): Promise<T> => {
    const page = await context.newPage();
    try {
      return await measurement(page);
    } finally {
      await page.close();
    }
  };
  await setup.close();
  // Runs alternate between the files, and between the console and the library alone (which goes
  // first swaps every run), so a busy spell of the machine slows each alike.
  for (let run = 0; run < RUNS; run++) {
    for (const file of files) {
      let libraryMs = run % 2 === 1 ? await inNewTab((page) => measureLibrary(page, workerCode, file)) : NaN;
      const figures = await inNewTab((page) => measure(page, marker, file, libraryMs));
      if (run % 2 === 0) figures.libraryMs = libraryMs = await inNewTab((page) => measureLibrary(page, workerCode, file));
      loads.push(machineLoad());
      console.error(
        `run ${run + 1}: ${file.format} ${file.kind}: usable ${figures.usableMs} ms, ${LIBRARY[file.format]} alone ${libraryMs} ms (${(figures.usableMs / libraryMs).toFixed(2)}×), longest task ${figures.longestTaskMs} ms${figures.longestTaskIn ? ` (${figures.longestTaskIn})` : ''}, renderer ${figures.rssUsableMb} MB at usable (peak ${figures.rssPeakMb}, before ${figures.rssBeforeMb}), every row checked ${figures.checkedMs} ms after Continue (renderer ${figures.rssCheckedMb} MB, peak ${figures.rssCheckedPeakMb}, ${figures.rssLiveMb} MB once garbage is collected), edit ${figures.editToRevalidatedMs} ms; ${loads.at(-1)}`,
      );
      results.push(figures);
    }
  }
} finally {
  await browser.close();
  await server.stop();
}

console.log(`Headless Chromium, ${ROWS.toLocaleString('en')} rows; median (range) of ${RUNS} run(s) each; ${LOOK_MS > 0 ? `${LOOK_MS} ms on the Columns step before Continue` : "Continue as soon as the Columns step shows"}; ${load} at the start, ${machineLoad()} at the end.\n`);
console.log('| file | columns | size | drop → columns | continue → grid | usable | library alone in a worker | console ÷ library (target) | longest task | tasks > 100 ms | renderer at usable (peak); growth from the drop | at usable ÷ file (peak ÷ file) | DOM rows | edit → revalidated |');
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
const groups = new Map<string, Figures[]>();
for (const r of results) groups.set(`${r.format} ${r.kind}`, [...(groups.get(`${r.format} ${r.kind}`) ?? []), r]);
const ratios: Record<string, { median: number; runs: number[] }> = {};
for (const [name, runs] of groups) {
  const of = (pick: (r: Figures) => number, unit = 'ms', digits = 0) => medianWithRange(runs.map(pick), unit, digits);
  const first = runs[0];
  if (!first) continue;
  const each = runs.map((r) => r.usableMs / r.libraryMs);
  ratios[name] = { median: median(each), runs: each };
  const target = first.format === 'csv' ? '≤ 1.5×' : '≤ 0.2×';
  console.log(
    `| ${name} | ${first.columns} | ${first.fileMB} MB | ${of((r) => r.dropToColumnsMs)}; read answered at ${of((r) => r.readAnsweredMs)} | ${of((r) => r.continueToGridMs)}; review answered at ${of((r) => r.reviewAnsweredMs)} | ${of((r) => r.usableMs)} | ${LIBRARY[first.format]} ${of((r) => r.libraryMs)} | **${of((r) => r.usableMs / r.libraryMs, '×', 2)}** (${target}) | ${of((r) => r.longestTaskMs)} | ${of((r) => r.longTasksOver100, '')} | ${of((r) => r.rssUsableMb, 'MB')} (${of((r) => r.rssPeakMb, 'MB')}); +${of((r) => r.rssUsableMb - r.rssBeforeMb, 'MB')} over before | ${of((r) => r.rssUsableMb / (r.fileMB || 1), '×', 1)} (${of((r) => r.rssPeakMb / (r.fileMB || 1), '×', 1)}) | ${of((r) => r.maxDomRows, '')} | ${of((r) => r.editToRevalidatedMs)} |`,
  );
}
for (const [name, runs] of groups) {
  const of = (pick: (r: Figures) => number, unit = 'ms', digits = 0) => medianWithRange(runs.map(pick), unit, digits);
  const fileMB = runs[0]?.fileMB || 1;
  console.log(`\n${name}: every row checked ${of((r) => r.checkedMs)} after Continue; renderer then ${of((r) => r.rssCheckedMb, 'MB')} (${of((r) => r.rssCheckedMb / fileMB, '×', 1)} the file), peak until then ${of((r) => r.rssCheckedPeakMb, 'MB')} (${of((r) => r.rssCheckedPeakMb / fileMB, '×', 1)}); once the page and its workers have collected their garbage ${of((r) => r.rssLiveMb, 'MB')} (${of((r) => r.rssLiveMb / fileMB, '×', 1)}).`);
}
console.log(`\nRenderer memory: VmRSS (/proc/<pid>/status) of the page's renderer process (the page and its workers, which are threads of it), sampled every 100 ms from the drop; before the drop: ${medianWithRange(results.map((r) => r.rssBeforeMb), 'MB')}. Load after each measurement: ${loads.join('; ')}.`);
mkdirSync('bench-results', { recursive: true });
writeFileSync(`bench-results/browser${ROWS === 100_000 ? '' : `-${ROWS}`}.json`, JSON.stringify({ rows: ROWS, runs: RUNS, load, loads, ratios, results }, null, 2));
