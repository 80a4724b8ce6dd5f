// The XLSX readers in headless Chromium, in a dedicated Web Worker as the console reads files:
// the console's reader (src/spreadsheet/xlsx) against SheetJS (`read` with `dense: true` +
// `sheet_to_json`), on a generated 100,000-row × 10 text-cell workbook (deflated, as Excel
// writes it). Each run gets a fresh browser; the renderer's memory is its resident set, sampled
// every 50 ms from /proc while the worker reads, minus the resident set just before. Median of
// RUNS runs per reader, rotating the readers' order. The console's reader runs as shipped (the
// browser's native inflater) and forced onto fflate, its fallback. Writes
// bench-results/xlsx-worker.json.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { build } from 'vite';
import globalSetup from '../../e2e/global-setup';
import { CHROMIUM_ARGS, findChromium, NO_BROWSER_MESSAGE } from '../../e2e/find-browser';

const ROWS = 100_000;
const RUNS = Number(process.env.XLSX_BENCH_RUNS ?? 3);
const root = fileURLToPath(new URL('../..', import.meta.url));

async function workbook(): Promise<Buffer> {
  const XLSX = await import('@e965/xlsx');
  const rows: string[][] = [Array.from({ length: 10 }, (_, c) => `column_${c + 1}`)];
  for (let r = 0; r < ROWS; r++) rows.push(Array.from({ length: 10 }, (_, c) => `R${r + 1}C${c + 1}-${(r * 7919 + c * 104729) % 100000}`));
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), 'Data');
  return Buffer.from(XLSX.write(book, { type: 'buffer', bookType: 'xlsx', compression: true }) as Buffer);
}

async function bundleWorker(): Promise<string> {
  const outDir = mkdtempSync(join(tmpdir(), 'xlsx-bench-'));
  await build({
    configFile: false,
    logLevel: 'warn',
    root,
    build: {
      outDir,
      minify: true,
      lib: { entry: join(root, 'src/bench/xlsx-bench-worker.ts'), formats: ['es'], fileName: () => 'worker.js' },
    },
  });
  return readFileSync(join(outDir, 'worker.js'), 'utf8');
}

/** Resident memory (bytes) of the renderer processes started by the browser with this marker. */
function rendererRss(marker: string): number {
  const table = execFileSync('ps', ['-eo', 'pid=,ppid=,rss=,args='], { encoding: 'utf8' });
  const processes = table
    .trim()
    .split('\n')
    .map((line) => {
      const [pid, ppid, rss, ...args] = line.trim().split(/\s+/);
      return { pid: Number(pid), ppid: Number(ppid), rss: Number(rss) * 1024, args: args.join(' ') };
    });
  const browser = processes.find((p) => p.args.includes(marker) && !p.args.includes('--type='));
  if (!browser) return 0;
  const family = new Set([browser.pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of processes) {
      if (family.has(p.ppid) && !family.has(p.pid)) {
        family.add(p.pid);
        grew = true;
      }
    }
  }
  return processes.filter((p) => family.has(p.pid) && p.args.includes('--type=renderer')).reduce((sum, p) => sum + p.rss, 0);
}

const executablePath = findChromium();
if (!executablePath) {
  console.error(NO_BROWSER_MESSAGE);
  process.exit(1);
}
const [file, workerCode] = await Promise.all([workbook(), bundleWorker()]);
const teardown = await globalSetup();
const READERS = ['reader', 'reader-fflate', 'sheetjs'] as const;
type ReaderName = (typeof READERS)[number];
const results: Record<ReaderName, { ms: number; memoryMb: number }[]> = { reader: [], 'reader-fflate': [], sheetjs: [] };
try {
  for (let run = 0; run < RUNS; run++) {
    for (const reader of [...READERS.slice(run % READERS.length), ...READERS.slice(0, run % READERS.length)]) {
      const marker = `--bench-marker=${process.pid}-${run}-${reader}`;
      const browser = await chromium.launch({ executablePath, args: [...CHROMIUM_ARGS, marker] });
      try {
        const page = await browser.newPage({ baseURL: process.env.E2E_BASE_URL });
        await page.route('**/bench/worker.js', (route) => route.fulfill({ body: workerCode, contentType: 'text/javascript' }));
        await page.route('**/bench/file.xlsx', (route) => route.fulfill({ body: file }));
        await page.goto('/');
        await page.evaluate(async () => {
          const w = window as unknown as { bytes: Uint8Array; worker: Worker };
          w.bytes = new Uint8Array(await (await fetch('/bench/file.xlsx')).arrayBuffer());
          w.worker = new Worker('/bench/worker.js', { type: 'module' });
        });
        await page.waitForTimeout(300);
        const before = rendererRss(marker);
        let peak = before;
        const sampler = setInterval(() => (peak = Math.max(peak, rendererRss(marker))), 50);
        const answer = await page.evaluate(
          (which) =>
            new Promise<{ ms: number; rows: number }>((resolve) => {
              const w = window as unknown as { bytes: Uint8Array; worker: Worker };
              w.worker.onmessage = (event: MessageEvent<{ ms: number; rows: number }>) => resolve(event.data);
              w.worker.postMessage({ reader: which, bytes: w.bytes });
            }),
          reader,
        );
        clearInterval(sampler);
        if (answer.rows !== ROWS + 1) throw new Error(`${reader} read ${answer.rows} rows, not ${ROWS + 1}`);
        results[reader].push({ ms: Math.round(answer.ms), memoryMb: Math.round((peak - before) / 2 ** 20) });
      } finally {
        await browser.close();
      }
    }
  }
} finally {
  await teardown();
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const summary = Object.fromEntries(
  READERS.map((name) => [name, { ms: median(results[name].map((r) => r.ms)), memoryMb: median(results[name].map((r) => r.memoryMb)) }]),
) as Record<ReaderName, { ms: number; memoryMb: number }>;
console.log(`Headless Chromium, dedicated worker, ${ROWS.toLocaleString('en')} rows × 10 text cells, ${(file.length / 2 ** 20).toFixed(1)} MB .xlsx, median of ${RUNS}\n`);
console.log('| reader | time | renderer memory (peak − before) |');
console.log('|---|---|---|');
console.log(`| console's reader (native inflate) | ${summary.reader.ms} ms | ${summary.reader.memoryMb} MB |`);
console.log(`| console's reader, fflate forced | ${summary['reader-fflate'].ms} ms | ${summary['reader-fflate'].memoryMb} MB |`);
console.log(`| SheetJS 0.20.3 dense + sheet_to_json | ${summary.sheetjs.ms} ms | ${summary.sheetjs.memoryMb} MB |`);
for (const name of ['reader', 'reader-fflate'] as const) {
  console.log(`${name}: speed-up ${(summary.sheetjs.ms / summary[name].ms).toFixed(1)}×, memory ${(summary[name].memoryMb / Math.max(1, summary.sheetjs.memoryMb)).toFixed(2)}× SheetJS's.`);
}
mkdirSync('bench-results', { recursive: true });
writeFileSync('bench-results/xlsx-worker.json', JSON.stringify({ rows: ROWS, bytes: file.length, runs: results, median: summary }, null, 2));
