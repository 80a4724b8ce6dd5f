// XLSX reading in Node: the console's own reader (src/spreadsheet/xlsx) against SheetJS
// (`read` with `dense: true` + `sheet_to_json(header: 1)`), on two generated 100,000-row
// workbooks. Each measured run is a fresh child process, so memory figures do not mix: the child
// loads its reader and the file, collects garbage, notes its RSS, reads once, and reports the
// wall-clock time, its CPU time (user + system: less sensitive to other processes on a shared
// machine) and its peak RSS (`process.resourceUsage().maxRSS`). Memory is that peak minus the RSS
// before the read. Prints a markdown table and writes bench-results/xlsx.json.
import type { CellObject, WorkSheet } from '@e965/xlsx';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROWS = 100_000;
const RUNS = 3;
const READERS = ['reader', 'sheetjs'] as const;
type ReaderName = (typeof READERS)[number];

interface ChildResult {
  ms: number;
  cpuMs: number;
  rssBefore: number;
  peakRss: number;
  rows: number;
  cells: number;
}

async function child(reader: ReaderName, file: string): Promise<void> {
  const bytes = new Uint8Array(readFileSync(file));
  let read: () => Promise<string[][]>;
  if (reader === 'reader') {
    const { readXlsx } = await import('../spreadsheet/xlsx/read-xlsx');
    read = async () => (await readXlsx(bytes)).rows;
  } else {
    const XLSX = await import('@e965/xlsx');
    read = () => {
      const workbook = XLSX.read(bytes, { type: 'array', dense: true });
      const sheet = workbook.Sheets[workbook.SheetNames[0] ?? ''];
      if (!sheet) throw new Error('no sheet');
      return Promise.resolve(XLSX.utils.sheet_to_json<string[]>(sheet, { header: 1, raw: false, blankrows: false }));
    };
  }
  globalThis.gc?.();
  const rssBefore = process.memoryUsage().rss;
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  const rows = await read();
  const ms = performance.now() - start;
  const cpu = process.cpuUsage(cpuStart);
  const result: ChildResult = {
    ms,
    cpuMs: (cpu.user + cpu.system) / 1000,
    rssBefore,
    peakRss: process.resourceUsage().maxRSS * 1024,
    rows: rows.length,
    cells: rows.reduce((sum, row) => sum + row.length, 0),
  };
  process.stdout.write(JSON.stringify(result));
}

/** The workbooks, written by SheetJS once and cached in the temp folder. */
async function generate(dir: string): Promise<Record<string, string>> {
  const XLSX = await import('@e965/xlsx');
  mkdirSync(dir, { recursive: true });
  const write = (name: string, rows: CellObject[][]) => {
    const sheet: WorkSheet = {};
    // Dense storage keeps the generator's own memory down.
    (sheet as unknown as { '!data': CellObject[][] })['!data'] = rows;
    sheet['!ref'] = XLSX.utils.encode_range({ r: 0, c: 0 }, { r: rows.length - 1, c: (rows[0]?.length ?? 1) - 1 });
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(book, sheet, 'Shipments');
    const path = join(dir, `${name}.xlsx`);
    writeFileSync(path, XLSX.write(book, { type: 'buffer', bookType: 'xlsx', bookSST: true, compression: true }) as Buffer);
    return path;
  };
  const text = (value: string): CellObject => ({ t: 's', v: value });
  const carriers = ['MAEU', 'MSCU', 'HLCU', 'CMDU', 'ONEY', 'EGLV', 'COSU'];
  const textRows = Array.from({ length: ROWS }, (_, r) => [
    text(`MSKU${String(1_000_000 + r).padStart(7, '0')}`),
    text(r % 3 === 0 ? 'container' : 'bill_of_lading'),
    text(`PO-${2024_000_000 + r}`),
    text(carriers[r % carriers.length] ?? ''),
    text(`Shipment ${r} to Rotterdam`),
    text(`ops${r % 50}@example.com, lead@example.com`),
    text(`tag${r % 17}; priority`),
    text(`user${r % 9}@example.com`),
    text(`Zürich → 上海 ${r % 1000}`),
    text(`note ${r}`),
  ]);
  const textPath = write('text-100k', textRows);
  const mixedRows = Array.from({ length: ROWS }, (_, r): CellObject[] => [
    text(`MSKU${String(1_000_000 + r).padStart(7, '0')}`),
    { t: 'n', v: r },
    { t: 'n', v: 142_300_000_000 + r },
    { t: 'n', v: (r * 37) / 100 },
    { t: 'n', v: 45_000 + (r % 700), z: 'yyyy-mm-dd' },
    { t: 'b', v: r % 2 === 0 },
    text(carriers[r % carriers.length] ?? ''),
    { t: 'n', v: 0.1 * (r % 10) + 0.2 },
    { t: 'n', v: 45_000 + (r % 700) + 0.5, z: 'dd/mm/yyyy hh:mm' },
    text(`ref ${r}`),
  ]);
  const mixedPath = write('mixed-100k', mixedRows);
  return { 'text-100k': textPath, 'mixed-100k': mixedPath };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

function runChild(reader: ReaderName, file: string): ChildResult {
  const self = fileURLToPath(import.meta.url);
  const result = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', self, '--child', reader, file], {
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  if (result.status !== 0) throw new Error(`${reader} failed on ${file}: ${result.stderr}`);
  return JSON.parse(result.stdout) as ChildResult;
}

async function main(): Promise<void> {
  const dir = join(tmpdir(), 'xlsx-bench');
  const files = await generate(dir);
  const results: Record<string, Record<ReaderName, { ms: number; cpuMs: number; memoryMb: number; peakRssMb: number; rows: number; cells: number; runs: ChildResult[] }>> = {};
  for (const [name, file] of Object.entries(files)) {
    const entry = {} as (typeof results)[string];
    // Runs alternate between the readers, so a change in machine load hits both alike.
    const runsOf: Record<ReaderName, ChildResult[]> = { reader: [], sheetjs: [] };
    for (let run = 0; run < RUNS; run++) for (const reader of READERS) runsOf[reader].push(runChild(reader, file));
    for (const reader of READERS) {
      const runs = runsOf[reader];
      const first = runs[0];
      entry[reader] = {
        ms: Math.round(median(runs.map((run) => run.ms))),
        cpuMs: Math.round(median(runs.map((run) => run.cpuMs))),
        memoryMb: Math.round(median(runs.map((run) => run.peakRss - run.rssBefore)) / 2 ** 20),
        peakRssMb: Math.round(median(runs.map((run) => run.peakRss)) / 2 ** 20),
        rows: first?.rows ?? 0,
        cells: first?.cells ?? 0,
        runs,
      };
    }
    results[name] = entry;
  }

  const lines = [
    `Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB; median of ${RUNS} runs, each in a fresh process.`,
    '',
    '| workbook | size | reader | time | CPU time | memory (peak RSS − RSS before) | peak RSS | rows | speed-up (time) | memory ratio |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const [name, entry] of Object.entries(results)) {
    const size = `${(readFileSync(files[name] ?? '').length / 2 ** 20).toFixed(1)} MB`;
    const ours = entry.reader;
    const theirs = entry.sheetjs;
    for (const reader of READERS) {
      const row = entry[reader];
      const speedUp = reader === 'reader' ? `${(theirs.ms / ours.ms).toFixed(1)}×` : '';
      const memoryRatio = reader === 'reader' ? `${(ours.memoryMb / theirs.memoryMb).toFixed(2)}×` : '';
      const label = reader === 'reader' ? 'src/spreadsheet/xlsx' : 'SheetJS 0.20.3 dense + sheet_to_json';
      lines.push(`| ${name} | ${size} | ${label} | ${row.ms} ms | ${row.cpuMs} ms | ${row.memoryMb} MB | ${row.peakRssMb} MB | ${row.rows} | ${speedUp} | ${memoryRatio} |`);
    }
  }
  console.log(lines.join('\n'));
  mkdirSync('bench-results', { recursive: true });
  writeFileSync(
    join('bench-results', 'xlsx.json'),
    `${JSON.stringify({ node: process.version, cpus: cpus().length, runs: RUNS, method: 'fresh child process per run; memory = maxRSS - RSS after load and gc', results }, null, 2)}\n`,
  );
}

if (process.argv[2] === '--child') {
  await child(process.argv[3] as ReaderName, process.argv[4] ?? '');
} else {
  await main();
}
