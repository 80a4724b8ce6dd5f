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
import { SANDBOX_DEFAULT_CHUNK_ROWS } from '../jobs/job-settings';
import { toCsvChunks } from '../spreadsheet/csv-output';
import { detectHeaderRow } from '../spreadsheet/header-row';
import { readTable } from '../spreadsheet/read-table';
import { createReviewTable } from '../spreadsheet/review-table';
import type { ReviewTable } from '../spreadsheet/review-table';
import { machineLoad, median, medianWithRange, runCount } from './stats';
import { userRows } from '../spreadsheet/sample-rows';

function argument(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  const value = at >= 0 ? Number(process.argv[at + 1]) : fallback;
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

const ROWS = argument('rows', 100_000);
const RUNS = runCount(ROWS > 200_000 ? 1 : 5);

/** The user's kind of file, its headers as people write them (the mapping step suggests the rest). */
const HEADER = ['Tracking Number', 'Type', 'Reference', 'Carrier', 'Name', 'Viewers', 'Tags', 'Assignees', 'cf_po_number', 'cf_eta'];

/**
 * Median milliseconds of each side, wall clock and CPU (this process, all threads: garbage
 * collection included), measured in alternation after one warm-up of each. CPU time is the
 * steadier figure when other processes share the machine.
 */
interface Side {
  wall: number;
  cpu: number;
  /** Every run's milliseconds, for the range. */
  walls: number[];
  cpus: number[];
}

async function compare(runs: number, sides: Record<string, () => Promise<unknown>>): Promise<Record<string, Side>> {
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
  const medians: Record<string, Side> = {};
  for (const [label, values] of Object.entries(times)) {
    const cpu = cpuTimes[label] ?? [];
    medians[label] = { wall: median(values), cpu: median(cpu), walls: values.map(Math.round), cpus: cpu.map(Math.round) };
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

const NO_SIDE: Side = { wall: NaN, cpu: NaN, walls: [], cpus: [] };
const mb = (bytes: number) => Math.round(bytes / 2 ** 20);

async function main(): Promise<void> {
  const load = machineLoad();
  const rows = userRows(ROWS, HEADER);
  const csvBytes = new TextEncoder().encode(Papa.unparse(rows, { newline: '\r\n' }));
  const csvMb = +(csvBytes.length / 2 ** 20).toFixed(1);
  let xlsxMb: number | undefined;
  const results: Record<string, unknown> = { rows: ROWS, columns: HEADER.length, runs: RUNS, csvMb, load };
  const ratio = (a: number, b: number) => +(a / b).toFixed(2);
  /** The medians' ratio, and each alternating pair's for the range. */
  const ratios = (ours: Side, library: Side) => ({
    wall: ratio(ours.wall, library.wall),
    cpu: ratio(ours.cpu, library.cpu),
    walls: library.walls.map((wall, i) => ratio(ours.walls[i] ?? NaN, wall)),
  });

  const csv = await compare(RUNS, {
    'papaparse alone': () => Promise.resolve(Papa.parse<string[]>(new TextDecoder().decode(csvBytes)).data.length),
    'pipeline on CSV': () => pipeline(csvBytes, 'shipments.csv'),
  });
  const papa = csv['papaparse alone'] ?? NO_SIDE;
  const csvPipeline = csv['pipeline on CSV'] ?? NO_SIDE;
  results.papaparseMs = papa;
  results.csvPipelineMs = csvPipeline;
  results.csvRatio = ratios(csvPipeline, papa);

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
  results.chunksMs = (await compare(Math.min(RUNS, 3), { 'CSV chunks for submission': () => Promise.resolve(toCsvChunks(table, SANDBOX_DEFAULT_CHUNK_ROWS)) }))['CSV chunks for submission'];

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
    const sheetjs = xlsx['SheetJS read alone'] ?? NO_SIDE;
    const xlsxPipeline = xlsx['pipeline on XLSX'] ?? NO_SIDE;
    results.sheetjsMs = sheetjs;
    results.xlsxPipelineMs = xlsxPipeline;
    results.xlsxRatio = ratios(xlsxPipeline, sheetjs);
  }

  const ms = (key: string) => {
    const value = results[key] as Side | undefined;
    return value ? `${medianWithRange(value.walls, 'ms')}, CPU ${medianWithRange(value.cpus, 'ms')}` : '—';
  };
  const times = (key: string) => {
    const value = results[key] as { wall: number; cpu: number; walls: number[] };
    return `${value.wall}× (runs ${Math.min(...value.walls)}–${Math.max(...value.walls)}×; CPU ${value.cpu}×)`;
  };
  const lines = [
    `Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, ${load} at the start; ${ROWS.toLocaleString('en-US')} rows × ${HEADER.length} columns (quoted lists), median (range) of ${RUNS} alternating runs (XLSX: ${Math.min(RUNS, 3)}) after a warm-up.`,
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
