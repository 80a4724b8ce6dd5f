// XLSX reading in Node: the console's own reader (src/spreadsheet/xlsx) against SheetJS
// (`read` with `dense: true` + `sheet_to_json(header: 1, raw: false)`), on two generated
// 100,000-row workbooks; the reader as shipped (fflate in Node) and forced onto Node's native
// inflater (DecompressionStream), which browsers use. Method: each reader runs in fresh child processes (RUNS of them,
// alternating between the readers so that changes in machine load hit both). A child loads its
// reader and the file, collects garbage, notes its RSS, then reads the workbook once cold (the
// JIT has not seen the code yet, as in a new worker) and WARM_RUNS more times. Memory is the
// peak RSS during the cold read (`process.resourceUsage().maxRSS`) minus the RSS before it.
// Reported: median cold time, median warm time, median memory. Prints a markdown table and
// writes bench-results/xlsx.json.
import type { CellObject, WorkSheet } from '@e965/xlsx';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROWS = 100_000;
const RUNS = 3;
const WARM_RUNS = 2;
const READERS = ['reader', 'reader-native', 'sheetjs'] as const;
type ReaderName = (typeof READERS)[number];

interface ChildResult {
  coldMs: number;
  warmMs: number[];
  rssBefore: number;
  peakRss: number;
  rows: number;
  cells: number;
}

async function child(reader: ReaderName, file: string): Promise<void> {
  const bytes = new Uint8Array(readFileSync(file));
  let read: () => Promise<string[][]>;
  if (reader === 'reader' || reader === 'reader-native') {
    const { readXlsx } = await import('../spreadsheet/xlsx/read-xlsx');
    const options = reader === 'reader' ? {} : { inflate: 'native' as const };
    read = async () => (await readXlsx(bytes, options)).rows;
  } else {
    const XLSX = await import('@e965/xlsx');
    read = () => {
      const workbook = XLSX.read(bytes, { type: 'array', dense: true });
      const sheet = workbook.Sheets[workbook.SheetNames[0] ?? ''];
      if (!sheet) throw new Error('no sheet');
      return Promise.resolve(XLSX.utils.sheet_to_json<string[]>(sheet, { header: 1, raw: false, blankrows: false }));
    };
  }
  const timed = async (): Promise<{ ms: number; rows: string[][] }> => {
    globalThis.gc?.();
    const start = performance.now();
    const rows = await read();
    return { ms: performance.now() - start, rows };
  };
  globalThis.gc?.();
  const rssBefore = process.memoryUsage().rss;
  const cold = await timed();
  const peakRss = process.resourceUsage().maxRSS * 1024;
  const rows = cold.rows.length;
  const cells = cold.rows.reduce((sum, row) => sum + row.length, 0);
  cold.rows = [];
  const warmMs: number[] = [];
  for (let run = 0; run < WARM_RUNS; run++) warmMs.push((await timed()).ms);
  const result: ChildResult = { coldMs: cold.ms, warmMs, rssBefore, peakRss, rows, cells };
  process.stdout.write(JSON.stringify(result));
}

/** The workbooks, written by SheetJS into the temp folder (deterministic content). */
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

interface ReaderFigures {
  coldMs: number;
  warmMs: number;
  memoryMb: number;
  rows: number;
  cells: number;
  runs: ChildResult[];
}

async function main(): Promise<void> {
  const dir = join(tmpdir(), 'xlsx-bench');
  const files = await generate(dir);
  const results: Record<string, Record<ReaderName, ReaderFigures>> = {};
  for (const [name, file] of Object.entries(files)) {
    const runsOf: Record<ReaderName, ChildResult[]> = { reader: [], 'reader-native': [], sheetjs: [] };
    for (let run = 0; run < RUNS; run++) for (const reader of READERS) runsOf[reader].push(runChild(reader, file));
    const figures = (runs: ChildResult[]): ReaderFigures => ({
      coldMs: Math.round(median(runs.map((run) => run.coldMs))),
      warmMs: Math.round(median(runs.flatMap((run) => run.warmMs))),
      memoryMb: Math.round(median(runs.map((run) => run.peakRss - run.rssBefore)) / 2 ** 20),
      rows: runs[0]?.rows ?? 0,
      cells: runs[0]?.cells ?? 0,
      runs,
    });
    results[name] = { reader: figures(runsOf.reader), 'reader-native': figures(runsOf['reader-native']), sheetjs: figures(runsOf.sheetjs) };
  }

  const lines = [
    `Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, load average ${loadavg()[0]?.toFixed(1) ?? '?'} at the end. ` +
      `Medians of ${RUNS} fresh processes per reader; cold = first read in a process, warm = the ${WARM_RUNS} reads after it.`,
    '',
    '| workbook | size | reader | cold | warm | memory (peak RSS − RSS before) | rows × cells | faster (cold / warm) | memory ratio |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const [name, entry] of Object.entries(results)) {
    const size = `${(readFileSync(files[name] ?? '').length / 2 ** 20).toFixed(1)} MB`;
    const theirs = entry.sheetjs;
    const labels: Record<ReaderName, string> = {
      reader: 'src/spreadsheet/xlsx (fflate)',
      'reader-native': 'src/spreadsheet/xlsx, native inflate forced',
      sheetjs: 'SheetJS 0.20.3 dense + sheet_to_json',
    };
    for (const reader of READERS) {
      const row = entry[reader];
      const ours = reader !== 'sheetjs';
      const faster = ours ? `${(theirs.coldMs / row.coldMs).toFixed(1)}× / ${(theirs.warmMs / row.warmMs).toFixed(1)}×` : '';
      const memoryRatio = ours ? `${(row.memoryMb / theirs.memoryMb).toFixed(2)}×` : '';
      const label = labels[reader];
      lines.push(`| ${name} | ${size} | ${label} | ${row.coldMs} ms | ${row.warmMs} ms | ${row.memoryMb} MB | ${row.rows} × ${row.cells / row.rows} | ${faster} | ${memoryRatio} |`);
    }
  }
  console.log(lines.join('\n'));
  mkdirSync('bench-results', { recursive: true });
  writeFileSync(
    join('bench-results', 'xlsx.json'),
    `${JSON.stringify({ node: process.version, cpus: cpus().length, loadAverage: loadavg(), runs: RUNS, warmRuns: WARM_RUNS, results }, null, 2)}\n`,
  );
}

if (process.argv[2] === '--child') {
  await child(process.argv[3] as ReaderName, process.argv[4] ?? '');
} else {
  await main();
}
