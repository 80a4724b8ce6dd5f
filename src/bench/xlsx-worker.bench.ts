// The XLSX readers in headless Chromium, in a dedicated Web Worker as the console reads files:
// the console's reader (src/spreadsheet/xlsx) against SheetJS (`read` with `dense: true` +
// `sheet_to_json`), on two generated 100,000-row × 10 text-cell workbooks:
//   - excel: text in the shared-string table and zip deflate at the usual level, as Excel
//     writes every workbook (the kind the issue's own measurements used);
//   - sheetjs-str: text in the cells as formula strings (`t="str"`) with SheetJS's weaker
//     deflate, as SheetJS writes by default: three times the XML to scan and nothing shared.
// Each run gets a fresh browser; the renderer's memory is its resident set, sampled every 50 ms
// from /proc while the worker reads, minus the resident set just before. Median of RUNS runs
// per reader, rotating the readers' order. The console's reader runs as shipped (the browser's
// native inflater) and forced onto fflate, its fallback.
//   XLSX_BENCH_RUNS=n             runs per reader (default 5)
//   XLSX_BENCH_READERS=a,b        which readers (default reader,reader-fflate,sheetjs); add
//                                 inflate,decode to see how much of the read is inflating/decoding
//   XLSX_BENCH_WORKBOOKS=excel    which workbooks (default both)
// Writes bench-results/xlsx-worker.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium, NO_BROWSER_MESSAGE } from '../tooling/browser';
import { startServerProcess } from '../tooling/server-process';
import { bundleBenchWorker, rendererRss } from './bench-browser';
import type { BenchAnswer, BenchReader } from './xlsx-bench-worker';
import { machineLoad, medianWithRange, runCount } from './stats';

const ROWS = 100_000;
const RUNS = runCount(Number(process.env.XLSX_BENCH_RUNS ?? 5));
const load = machineLoad();

const LABELS: Record<BenchReader, string> = {
  reader: "console's reader (native inflate)",
  'reader-fflate': "console's reader, fflate forced",
  sheetjs: 'SheetJS 0.20.3 dense + sheet_to_json',
  papaparse: 'papaparse (CSV only)',
  inflate: '(only inflating the shared strings and the sheet)',
  decode: '(only inflating and decoding them to text)',
};
const chosen = (variable: string | undefined, fallback: string) => (variable ?? fallback).split(',');
const READERS = (Object.keys(LABELS) as BenchReader[]).filter((name) => chosen(process.env.XLSX_BENCH_READERS, 'reader,reader-fflate,sheetjs').includes(name));

interface Workbook {
  name: 'excel' | 'sheetjs-str';
  description: string;
  bytes: Buffer;
}

async function workbooks(): Promise<Workbook[]> {
  const XLSX = await import('@e965/xlsx');
  const { unzipSync, zipSync } = await import('fflate');
  const rows: string[][] = [Array.from({ length: 10 }, (_, c) => `column_${c + 1}`)];
  for (let r = 0; r < ROWS; r++) rows.push(Array.from({ length: 10 }, (_, c) => `R${r + 1}C${c + 1}-${(r * 7919 + c * 104729) % 100000}`));
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), 'Data');
  // SheetJS writes the shared-string table on request; its parts are deflated again at zlib's
  // default level, as Excel's own writer does.
  const sharedStrings = XLSX.write(book, { type: 'buffer', bookType: 'xlsx', bookSST: true }) as Buffer;
  const all: Workbook[] = [
    { name: 'excel', description: 'shared strings, deflated as Excel does', bytes: Buffer.from(zipSync(unzipSync(sharedStrings), { level: 6 })) },
    {
      name: 'sheetjs-str',
      description: 'text in the cells (t="str"), as SheetJS writes by default',
      bytes: XLSX.write(book, { type: 'buffer', bookType: 'xlsx', compression: true }) as Buffer,
    },
  ];
  return all.filter((workbook) => chosen(process.env.XLSX_BENCH_WORKBOOKS, 'excel,sheetjs-str').includes(workbook.name));
}

interface Figure {
  ms: number;
  memoryMb: number;
}

async function measure(baseURL: string, executablePath: string, workerCode: string, workbook: Workbook, reader: BenchReader, tag: string): Promise<Figure> {
  const marker = `--bench-marker=${process.pid}-${tag}`;
  const browser = await chromium.launch({ executablePath, args: [...CHROMIUM_ARGS, marker] });
  try {
    const page = await browser.newPage({ baseURL });
    await page.route('**/bench/worker.js', (route) => route.fulfill({ body: workerCode, contentType: 'text/javascript' }));
    await page.route('**/bench/file.xlsx', (route) => route.fulfill({ body: workbook.bytes }));
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
        new Promise<BenchAnswer>((resolve) => {
          const w = window as unknown as { bytes: Uint8Array; worker: Worker };
          w.worker.onmessage = (event: MessageEvent<BenchAnswer>) => resolve(event.data);
          w.worker.postMessage({ reader: which, bytes: w.bytes });
        }),
      reader,
    );
    clearInterval(sampler);
    if (reader !== 'inflate' && reader !== 'decode' && answer.rows !== ROWS + 1) throw new Error(`${reader} read ${answer.rows} rows, not ${ROWS + 1}`);
    return { ms: Math.round(answer.ms), memoryMb: Math.round((peak - before) / 2 ** 20) };
  } finally {
    await browser.close();
  }
}

const executablePath = findChromium();
if (!executablePath) {
  console.error(NO_BROWSER_MESSAGE);
  process.exit(1);
}
const [books, workerCode] = await Promise.all([workbooks(), bundleBenchWorker()]);
const server = await startServerProcess({ echoStderr: true });
const results: Record<string, Partial<Record<BenchReader, Figure[]>>> = {};
try {
  for (const workbook of books) {
    const runs: Partial<Record<BenchReader, Figure[]>> = (results[workbook.name] = {});
    for (let run = 0; run < RUNS; run++) {
      const shift = run % READERS.length;
      for (const reader of [...READERS.slice(shift), ...READERS.slice(0, shift)]) {
        const figure = await measure(server.url, executablePath, workerCode, workbook, reader, `${workbook.name}-${run}-${reader}`);
        (runs[reader] ??= []).push(figure);
      }
    }
  }
} finally {
  await server.stop();
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const medians: Record<string, Partial<Record<BenchReader, Figure>>> = {};
console.log(`Headless Chromium, dedicated worker, ${ROWS.toLocaleString('en')} rows × 10 text cells, median (range) of ${RUNS} (a fresh browser each run); ${load} at the start, ${machineLoad()} at the end`);
for (const workbook of books) {
  const summary: Partial<Record<BenchReader, Figure>> = (medians[workbook.name] = {});
  for (const [reader, figures] of Object.entries(results[workbook.name] ?? {}) as [BenchReader, Figure[]][]) {
    summary[reader] = { ms: median(figures.map((f) => f.ms)), memoryMb: median(figures.map((f) => f.memoryMb)) };
  }
  console.log(`\n### ${workbook.name}: ${workbook.description}, ${(workbook.bytes.length / 2 ** 20).toFixed(1)} MB\n`);
  console.log('| reader | time | renderer memory (peak − before) |');
  console.log('|---|---|---|');
  for (const reader of READERS) {
    const figures = results[workbook.name]?.[reader];
    if (figures) console.log(`| ${LABELS[reader]} | ${medianWithRange(figures.map((f) => f.ms), 'ms')} | ${medianWithRange(figures.map((f) => f.memoryMb), 'MB')} |`);
  }
  const theirs = summary.sheetjs;
  for (const reader of ['reader', 'reader-fflate'] as const) {
    const ours = summary[reader];
    const ourRuns = results[workbook.name]?.[reader] ?? [];
    const theirRuns = results[workbook.name]?.sheetjs ?? [];
    // Each run's ratio, ours against SheetJS's in the same rotation, for the range.
    const speedUps = ourRuns.map((f, i) => (theirRuns[i]?.ms ?? NaN) / f.ms);
    if (ours && theirs) console.log(`${reader}: ${(theirs.ms / ours.ms).toFixed(1)}× as fast as SheetJS (runs ${Math.min(...speedUps).toFixed(1)}–${Math.max(...speedUps).toFixed(1)}×), ${(ours.memoryMb / Math.max(1, theirs.memoryMb)).toFixed(2)}× its memory.`);
  }
}
mkdirSync('bench-results', { recursive: true });
writeFileSync(
  'bench-results/xlsx-worker.json',
  JSON.stringify({ rows: ROWS, workbooks: books.map(({ name, description, bytes }) => ({ name, description, bytes: bytes.length })), runs: results, median: medians }, null, 2),
);
