// The import pipeline in Node (src/spreadsheet: read → header row → column mapping → normalize
// and validate into a review table) against the bare libraries on the same generated file:
// papaparse alone (TextDecoder + Papa.parse, its default parse) for CSV, SheetJS alone (read,
// dense) for XLSX. Our CSV reader parses well-formed text in one pass of its own and leaves the
// rest to papaparse (src/spreadsheet/read-csv.ts), so on this file it does not call papaparse's
// full parse at all: the figure is the product's cost against the library's.
// Runs alternate between the two sides (so a busy machine slows both alike); the figure is the
// median of each side after a warm-up. Prints a markdown table, writes
// bench-results/pipeline.json. `--rows 1000000` changes the size (XLSX is skipped above 100k:
// SheetJS needs several GB there, or with `--no-xlsx`); `--runs N` the number of runs.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { suggestColumnMapping } from '../spreadsheet/column-mapping';
import { toCsvChunks } from '../spreadsheet/csv-output';
import { detectHeaderRow } from '../spreadsheet/header-row';
import { containerCheckDigit } from '../spreadsheet/iso6346';
import { readTable } from '../spreadsheet/read-table';
import { createReviewTable } from '../spreadsheet/review-table';
import type { ReviewTable } from '../spreadsheet/review-table';

function argument(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  const value = at >= 0 ? Number(process.argv[at + 1]) : fallback;
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

const ROWS = argument('rows', 100_000);
const RUNS = argument('runs', ROWS > 200_000 ? 1 : 7);

/** A deterministic generator, so every run and machine measures the same file. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

const OWNERS = ['MSKU', 'MSCU', 'CMAU', 'HLXU', 'TGHU', 'OOLU', 'TCNU', 'SEGU'];
const CARRIERS = ['MAEU', 'MSCU', 'CMDU', 'HLCU', 'ONEY', 'EGLV', 'COSU', 'ZIMU', 'YMLU', 'HDMU'];
const HEADER = ['Tracking Number', 'Type', 'Reference', 'Carrier', 'Name', 'Viewers', 'Tags', 'Assignees', 'cf_po_number', 'cf_eta'];

/**
 * Rows as an operations team exports them: mostly valid container numbers, bills of lading and
 * bookings, lists of e-mails and tags, names with commas, and about 5% of untidy or wrong cells.
 */
function generateRows(count: number): string[][] {
  const next = random(2024);
  const rows: string[][] = [HEADER];
  for (let r = 0; r < count; r++) {
    const pick = next();
    const carrier = CARRIERS[Math.floor(next() * CARRIERS.length)] ?? 'MAEU';
    let number: string;
    let type: string;
    if (pick < 0.6) {
      const firstTen = `${OWNERS[r % OWNERS.length]}${String(Math.floor(next() * 1e6)).padStart(6, '0')}`;
      const digit = containerCheckDigit(firstTen) ?? 0;
      number = firstTen + String(next() < 0.02 ? (digit + 1) % 10 : digit);
      type = next() < 0.05 ? 'Container' : 'container';
    } else if (pick < 0.85) {
      number = `${carrier}${String(Math.floor(next() * 1e9)).padStart(9, '0')}`;
      type = next() < 0.05 ? 'B/L' : 'bill_of_lading';
    } else {
      number = String(Math.floor(next() * 1e10)).padStart(10, '0');
      type = 'booking';
    }
    rows.push([
      next() < 0.01 ? ` ${number} ` : number,
      type,
      `PO-${2024_000_000 + r}`,
      next() < 0.03 ? carrier.toLowerCase() : carrier,
      next() < 0.5 ? `Shipment ${r}, Shanghai → Rotterdam` : '',
      next() < 0.3 ? `ops${r % 50}@example.com, lead@example.com` : '',
      next() < 0.5 ? (next() < 0.04 ? `tag${r % 17}; priority` : `tag${r % 17}, priority`) : '',
      next() < 0.3 ? `user${r % 9}@example.com` : '',
      `PO${r}`,
      next() < 0.5 ? '2024-09-30' : '',
    ]);
  }
  return rows;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

/**
 * Median milliseconds of each side, wall clock and CPU (this process, all threads: garbage
 * collection included), measured in alternation after one warm-up of each. CPU time is the
 * steadier figure when other processes share the machine.
 */
async function compare(runs: number, sides: Record<string, () => Promise<unknown>>): Promise<Record<string, { wall: number; cpu: number }>> {
  const times: Record<string, number[]> = {};
  const cpuTimes: Record<string, number[]> = {};
  for (const run of Object.values(sides)) await run();
  for (let i = 0; i < runs; i++) {
    for (const [label, run] of Object.entries(sides)) {
      globalThis.gc?.();
      const cpu = process.cpuUsage();
      const start = performance.now();
      await run();
      (times[label] ??= []).push(performance.now() - start);
      const used = process.cpuUsage(cpu);
      (cpuTimes[label] ??= []).push((used.user + used.system) / 1000);
    }
  }
  const medians: Record<string, { wall: number; cpu: number }> = {};
  for (const [label, values] of Object.entries(times)) {
    const cpu = cpuTimes[label] ?? [];
    medians[label] = { wall: median(values), cpu: median(cpu) };
    console.error(`${label}: ${Math.round(median(values))} ms (${values.map(Math.round).join(', ')}); CPU ${Math.round(median(cpu))} ms (${cpu.map(Math.round).join(', ')})`);
  }
  return medians;
}

async function pipeline(bytes: Uint8Array, fileName: string): Promise<ReviewTable> {
  const read = await readTable(bytes, fileName);
  const headerRow = detectHeaderRow(read.rows);
  const mapping = suggestColumnMapping(read.rows[headerRow] ?? []);
  return createReviewTable(read, headerRow, mapping);
}

const mb = (bytes: number) => Math.round(bytes / 2 ** 20);

async function main(): Promise<void> {
  const rows = generateRows(ROWS);
  const csvBytes = new TextEncoder().encode(Papa.unparse(rows, { newline: '\r\n' }));
  const csvMb = +(csvBytes.length / 2 ** 20).toFixed(1);
  let xlsxMb: number | undefined;
  const results: Record<string, unknown> = { rows: ROWS, runs: RUNS, csvMb };
  const ratio = (a: number, b: number) => +(a / b).toFixed(2);

  const csv = await compare(RUNS, {
    'papaparse alone': () => Promise.resolve(Papa.parse<string[]>(new TextDecoder().decode(csvBytes)).data.length),
    'pipeline on CSV': () => pipeline(csvBytes, 'shipments.csv'),
  });
  const papa = csv['papaparse alone'] ?? { wall: NaN, cpu: NaN };
  const csvPipeline = csv['pipeline on CSV'] ?? { wall: NaN, cpu: NaN };
  results.papaparseMs = papa;
  results.csvPipelineMs = csvPipeline;
  results.csvRatio = { wall: ratio(csvPipeline.wall, papa.wall), cpu: ratio(csvPipeline.cpu, papa.cpu) };

  globalThis.gc?.();
  const before = process.memoryUsage();
  const table = await pipeline(csvBytes, 'shipments.csv');
  globalThis.gc?.();
  const after = process.memoryUsage();
  const heapMb = mb(after.heapUsed - before.heapUsed);
  const rssMb = mb(after.rss);
  results.reviewTableHeapMb = heapMb;
  results.rssMb = rssMb;
  results.counts = table.counts;
  results.chunksMs = (await compare(Math.min(RUNS, 3), { 'CSV chunks for submission': () => Promise.resolve(toCsvChunks(table)) }))['CSV chunks for submission'];

  if (ROWS <= 200_000 && !process.argv.includes('--no-xlsx')) {
    const XLSX = await import('@e965/xlsx');
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows, { dense: true }), 'Shipments');
    const xlsxBytes = new Uint8Array(XLSX.write(book, { type: 'array', bookType: 'xlsx', compression: true }) as ArrayBuffer);
    xlsxMb = +(xlsxBytes.length / 2 ** 20).toFixed(1);
    results.xlsxMb = xlsxMb;
    const xlsx = await compare(Math.min(RUNS, 3), {
      'SheetJS read alone': () => Promise.resolve(XLSX.read(xlsxBytes, { type: 'array', dense: true }).SheetNames.length),
      'pipeline on XLSX': () => pipeline(xlsxBytes, 'shipments.xlsx'),
    });
    const sheetjs = xlsx['SheetJS read alone'] ?? { wall: NaN, cpu: NaN };
    const xlsxPipeline = xlsx['pipeline on XLSX'] ?? { wall: NaN, cpu: NaN };
    results.sheetjsMs = sheetjs;
    results.xlsxPipelineMs = xlsxPipeline;
    results.xlsxRatio = { wall: ratio(xlsxPipeline.wall, sheetjs.wall), cpu: ratio(xlsxPipeline.cpu, sheetjs.cpu) };
  }

  const ms = (key: string) => {
    const value = results[key] as { wall: number; cpu: number } | undefined;
    return value ? `${Math.round(value.wall)} ms (CPU ${Math.round(value.cpu)} ms)` : '—';
  };
  const times = (key: string) => {
    const value = results[key] as { wall: number; cpu: number };
    return `${value.wall}× (CPU ${value.cpu}×)`;
  };
  const lines = [
    `Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB; ${ROWS.toLocaleString('en-US')} rows, median of ${RUNS} alternating runs (XLSX: ${Math.min(RUNS, 3)}) after a warm-up.`,
    '',
    '| file | library alone | read + map + validate | ratio | target |',
    '|---|---|---|---|---|',
    `| CSV ${csvMb} MB | papaparse ${ms('papaparseMs')} | ${ms('csvPipelineMs')} | ${times('csvRatio')} | ≤ 1.5× |`,
  ];
  if (xlsxMb !== undefined) {
    lines.push(`| XLSX ${xlsxMb} MB | SheetJS ${ms('sheetjsMs')} | ${ms('xlsxPipelineMs')} | ${times('xlsxRatio')} | ≤ 1.5× |`);
  }
  lines.push('', 'Our reader parses well-formed CSV in one pass of its own (papaparse for anything else); papaparse alone is its default parse of the same text.');
  lines.push('', `Review table: ${heapMb} MB of heap, RSS ${rssMb} MB; CSV chunks for submission: ${ms('chunksMs')}; counts ${JSON.stringify(table.counts)}.`);
  console.log(lines.join('\n'));
  mkdirSync('bench-results', { recursive: true });
  const file = ROWS === 100_000 ? 'pipeline.json' : `pipeline-${ROWS}.json`;
  writeFileSync(join('bench-results', file), `${JSON.stringify({ node: process.version, cpus: cpus().length, ...results }, null, 2)}\n`);
}

await main();
