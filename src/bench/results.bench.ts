// A job's results at 100,000 result items in headless Chromium, as support staff use them: the
// job page opens the results (IndexedDB → joined rows), the filters switch, the grid scrolls and
// moves by keyboard. The job, its payloads and outcomes are written into the console's IndexedDB
// as the job store keeps them (20 finished batches of 5,000 rows), so no service is asked.
// Measures: open → grid shown, each filter click → its first row shown, the longest main-thread
// task while filtering, downloading the failed rows as CSV and scrolling (PerformanceObserver
// 'longtask'), rows in the DOM, and
// Ctrl+End → last row focused. Median (range) of `--runs N` (BENCH_RUNS, default 3). Writes
// bench-results/results.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { chromium, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium, NO_BROWSER_MESSAGE } from '../tooling/browser';
import { startServerProcess } from '../tooling/server-process';
import { machineLoad, medianWithRange, runCount } from './stats';

const BATCHES = 20;
const BATCH_ROWS = 5000;
const ITEMS = BATCHES * BATCH_ROWS;
const RUNS = runCount(3);
// The results open on Failed: it comes last, so each click switches the filter.
const FILTERS = ['With warnings', 'Created', 'Updated', 'Tracking failed', 'All', 'Failed'] as const;

interface Figures {
  openToGridMs: number;
  /** Click → the filter's first row shown, per filter. */
  filterMs: Record<string, number>;
  longestFilterTaskMs: number;
  longestScrollTaskMs: number;
  /** "Download failed rows as CSV" click → the page says it downloaded the file. */
  exportMs: number;
  longestExportTaskMs: number;
  maxDomRows: number;
  ctrlEndMs: number;
}

/** Writes one finished job of ITEMS result items into the job store's database; returns its id. */
async function seedJob(page: Page): Promise<string> {
  return page.evaluate(
    async ({ batches, batchRows }) => {
      // At the version the console made it; or, not made yet, at version 1 as src/jobs/storage/indexeddb-schema.ts
      // lays it out (the console migrates it on its next open).
      const open = indexedDB.open('import-console-jobs');
      open.onupgradeneeded = () => {
        const db = open.result;
        db.createObjectStore('jobs', { keyPath: 'id' }).createIndex('createdAt', 'createdAt');
        db.createObjectStore('payloads', { keyPath: ['jobId', 'chunkId'] }).createIndex('jobId', 'jobId');
        db.createObjectStore('outcomes', { keyPath: ['jobId', 'batchId'] }).createIndex('jobId', 'jobId');
      };
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(new Error(`IndexedDB: ${String(open.error)}`));
      });
      const jobId = crypto.randomUUID();
      const now = Date.now();
      const header = 'tracking_number,tracking_type,reference,carrier,name,viewers,tags,assignees';
      const chunks = [];
      const progress: Record<string, unknown> = {};
      const tx = db.transaction(['jobs', 'payloads', 'outcomes'], 'readwrite');
      for (let b = 0; b < batches; b++) {
        const batchId = crypto.randomUUID();
        const lines = [header];
        const rowNumbers: number[] = [];
        const items = [];
        const counts = { created: 0, updated: 0, failed: 0, withWarnings: 0, trackingFailed: 0 };
        for (let i = 0; i < batchRows; i++) {
          const r = b * batchRows + i;
          const line = r + 2;
          rowNumbers.push(line);
          lines.push(`MAEU${100_000_000 + r},bill_of_lading,REF-${r},MAEU,"Shipment ${r}, lot ${r % 90}",,urgent,${r % 10 === 0 ? 'nobody@example.com' : ''}`);
          const failed = r % 4 === 0;
          const problems = [];
          if (failed) problems.push({ level: 'error', code: 'invalid_input', column: 'tracking_number', message: `The carrier does not know MAEU${100_000_000 + r}.` });
          if (r % 10 === 0) problems.push({ level: 'warning', code: 'invalid_input', column: 'assignees', message: 'nobody@example.com is not a member of this workspace.' });
          const creationStatus = failed ? 'failed' : r % 3 === 0 ? 'updated' : 'created';
          const trackingStatus = failed ? 'failed' : r % 20 === 1 ? 'failed' : 'succeeded';
          counts[creationStatus]++;
          if (trackingStatus === 'failed') counts.trackingFailed++;
          if (r % 10 === 0) counts.withWarnings++;
          items.push({ rowNumber: line, creationStatus, trackingStatus, shipmentId: failed ? null : crypto.randomUUID(), reference: `REF-${r}`, problems });
        }
        tx.objectStore('payloads').put({ jobId, chunkId: b, rowNumbers, body: { format: 'csv', csv: lines.join('\r\n') } });
        tx.objectStore('outcomes').put({ jobId, batchId, chunkId: b, status: 'completed', failureReason: null, items });
        chunks.push({ id: b, firstPosition: b * batchRows, rowCount: batchRows, firstRow: rowNumbers[0], lastRow: rowNumbers.at(-1), withoutReference: 0, state: { status: 'accepted', batchId, at: now }, attempts: 1 });
        progress[batchId] = { batchId, chunkId: b, status: 'completed', total: batchRows, completed: batchRows, counts, problems: [], problemCount: 0, acceptedAt: now, lastPolledAt: now, lastMovedAt: now, finishedAt: now, failureReason: null, unmatchedItems: 0 };
      }
      tx.objectStore('jobs').put({
        id: jobId,
        createdAt: now,
        updatedAt: now,
        finishedAt: now,
        source: { kind: 'file', fileName: 'bench-results.csv', size: null, contentHash: null },
        endpoint: 'file',
        headers: header.split(','),
        chunkRows: batchRows,
        serviceUrl: '',
        rowsRead: batches * batchRows,
        numbering: 'Line',
        skippedBeforeSend: [],
        chunks,
        nextChunkId: batches,
        batches: progress,
        runState: 'finished',
        pausedReason: null,
        notify: false,
      });
      await new Promise<void>((resolve, reject) => {
        tx.oncomplete = () => resolve();
        tx.onerror = () => reject(new Error(`IndexedDB: ${String(tx.error)}`));
      });
      db.close();
      return jobId;
    },
    { batches: BATCHES, batchRows: BATCH_ROWS },
  );
}

const longTasks = (page: Page) => page.evaluate(() => (window as unknown as { longTasks: number[] }).longTasks.splice(0));

async function measure(page: Page, jobId: string): Promise<Figures> {
  const t0 = Date.now();
  await page.goto(`/imports/${jobId}`);
  const results = page.getByRole('region', { name: 'Results' });
  await results.getByRole('button', { name: `All ${ITEMS.toLocaleString('en')}` }).waitFor({ timeout: 120_000 });
  const grid = results.getByRole('region', { name: 'Result rows' });
  await grid.getByRole('button', { name: /^Line \d+: / }).first().waitFor({ timeout: 120_000 });
  const openToGridMs = Date.now() - t0;

  await longTasks(page);
  const filterMs: Record<string, number> = {};
  for (const name of FILTERS) {
    const button = results.getByRole('group', { name: 'Show rows' }).getByRole('button', { name: new RegExp(`^${name} `) });
    // Timed in the page, from the click to the first row of the filter in the DOM.
    filterMs[name] = await button.evaluate(
      (element, expected) =>
        new Promise<number>((resolve) => {
          const region = document.querySelector('[role="region"][aria-label="Result rows"]')!;
          const start = performance.now();
          // No named function in here: tsx would wrap it in a helper the page does not have.
          const observer = new MutationObserver(() => {
            if (element.getAttribute('aria-pressed') !== 'true' || !region.querySelector(`[aria-label*="${expected}"]`)) return;
            observer.disconnect();
            resolve(Math.round(performance.now() - start));
          });
          observer.observe(document.body, { subtree: true, childList: true, attributes: true });
          (element as HTMLButtonElement).click();
          // A filter that never shows its row is a failure of the page, not a hang of the bench.
          setTimeout(() => {
            observer.disconnect();
            resolve(Number.NaN);
          }, 30_000);
        }),
      { Failed: 'Failed', 'With warnings': 'Line 2:', Created: 'Created', Updated: 'Updated', 'Tracking failed': 'Line ', All: 'Line 2:' }[name],
    );
  }
  const longestFilterTaskMs = Math.round(Math.max(0, ...(await longTasks(page))));

  const t2 = Date.now();
  await results.getByRole('button', { name: 'Download failed rows as CSV' }).click();
  await results.getByText(/^Downloaded bench-results-failed-rows\.csv/).waitFor({ timeout: 120_000 });
  const exportMs = Date.now() - t2;
  const longestExportTaskMs = Math.round(Math.max(0, ...(await longTasks(page))));

  let maxDomRows = 0;
  for (const fraction of [0.1, 0.33, 0.5, 0.8, 1, 0]) {
    await grid.evaluate((element, f) => element.scrollTo({ top: element.scrollHeight * f }), fraction);
    await page.waitForTimeout(120);
    maxDomRows = Math.max(maxDomRows, await grid.locator('tr').count());
  }
  const longestScrollTaskMs = Math.round(Math.max(0, ...(await longTasks(page))));

  await results.getByRole('group', { name: 'Show rows' }).getByRole('button', { name: /^All / }).click();
  await grid.getByRole('button', { name: /^Line 2: / }).focus();
  const t1 = Date.now();
  await page.keyboard.press('Control+End');
  await grid.getByRole('button', { name: new RegExp(`^Line ${ITEMS + 1}: `) }).waitFor();
  const ctrlEndMs = Date.now() - t1;
  return { openToGridMs, filterMs, longestFilterTaskMs, longestScrollTaskMs, exportMs, longestExportTaskMs, maxDomRows, ctrlEndMs };
}

const executablePath = findChromium();
if (!executablePath) {
  console.error(NO_BROWSER_MESSAGE);
  process.exit(1);
}
const server = await startServerProcess({ echoStderr: true });
const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
const load = machineLoad();
const runs: Figures[] = [];
try {
  const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1366, height: 900 } });
  await context.addInitScript(() => {
    const w = window as unknown as { longTasks: number[] };
    w.longTasks = [];
    new PerformanceObserver((list) => w.longTasks.push(...list.getEntries().map((entry) => entry.duration))).observe({ type: 'longtask' });
  });
  const page = await context.newPage();
  await page.goto('/connect');
  await page.getByRole('button', { name: 'Use local sandbox' }).click();
  await page.getByRole('heading', { name: 'Import shipments' }).waitFor();
  const jobId = await seedJob(page);
  for (let run = 0; run < RUNS; run++) {
    const figures = await measure(page, jobId);
    console.error(`run ${run + 1}: open ${figures.openToGridMs} ms, longest filter task ${figures.longestFilterTaskMs} ms, DOM rows ${figures.maxDomRows}`);
    runs.push(figures);
  }
} finally {
  await browser.close();
  await server.stop();
}

const of = (pick: (figures: Figures) => number, unit = 'ms') => medianWithRange(runs.map(pick), unit);
console.log(`Headless Chromium, ${ITEMS.toLocaleString('en')} result items (${BATCHES} batches), 8 sent columns; median (range) of ${RUNS} run(s); ${load} at the start, ${machineLoad()} at the end.\n`);
console.log('| figure | value |');
console.log('|---|---|');
console.log(`| job page → results grid shown (read + join) | ${of((f) => f.openToGridMs)} |`);
for (const name of FILTERS) console.log(`| filter “${name}” click → first row shown | ${of((f) => f.filterMs[name] ?? NaN)} |`);
console.log(`| longest main-thread task while filtering | ${of((f) => f.longestFilterTaskMs)} |`);
console.log(`| download failed rows as CSV (${(ITEMS / 4).toLocaleString('en')} rows): click → downloaded | ${of((f) => f.exportMs)} |`);
console.log(`| longest main-thread task while downloading | ${of((f) => f.longestExportTaskMs)} |`);
console.log(`| longest main-thread task while scrolling | ${of((f) => f.longestScrollTaskMs)} |`);
console.log(`| table rows in the DOM (most seen) | ${of((f) => f.maxDomRows, '')} |`);
console.log(`| Ctrl+End → last row shown | ${of((f) => f.ctrlEndMs)} |`);
mkdirSync('bench-results', { recursive: true });
writeFileSync('bench-results/results.json', JSON.stringify({ items: ITEMS, runs: RUNS, load, figures: runs }, null, 2));
