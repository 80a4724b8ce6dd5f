// A job's results joined to the rows as sent (DESIGN §5 "Results"). Pure, no React.
//
// Each finished batch's outcome (items in the chunk's row order) is matched to the chunk's
// payload (the CSV or JSON list exactly as sent), so a result row carries every column that went
// out, not only the item's echo. Rows are classified once into bit flags and one index array per
// filter, built while the rows are joined: switching filters then just picks an array, whatever
// the job's size. The join runs chunk by chunk in slices (see buildJobResults), so no main-thread
// task grows with the job; a chunk's cells are parsed only when one of its rows is shown.
import Papa from 'papaparse';
import { CHUNK_DELIMITER } from '../../jobs/chunking';
import type { BatchOutcome, ChunkBody, ChunkPayload, ImportJob, OutcomeItem } from '../../jobs/import-job';
import type { RowNumbering } from '../../workers/import-protocol';
import { explainServiceRowNumbers } from '../../spreadsheet/row-numbering';

/** The result filters, in the order the toolbar shows them. */
export const RESULT_FILTERS = ['failed', 'warnings', 'created', 'updated', 'tracking-failed', 'all'] as const;
export type ResultFilter = (typeof RESULT_FILTERS)[number];

const FLAG: Record<Exclude<ResultFilter, 'all'>, number> = {
  failed: 1,
  warnings: 2,
  created: 4,
  updated: 8,
  'tracking-failed': 16,
};

/** One sent row and what the service made of it. */
export interface ResultRow {
  /** The row's number in the source file (JobResults.numbering says what it counts). */
  rowNumber: number;
  batchId: string;
  /** The row's place in the file its batch was sent as, from 1: the service's own number for it (row_number). */
  batchRow: number;
  /** Cells as sent, one per JobResults.columns (empty where the row had no such column). */
  readonly values: string[];
  /** Null when the service returned no item for the row (counted as failed). */
  item: OutcomeItem | null;
  /** Bit flags of the filters this row belongs to. */
  flags: number;
}

export interface JobResults {
  /** The columns as sent: the CSV header, or the JSON fields (custom fields as `cf_<slug>`). */
  columns: string[];
  rows: ResultRow[];
  /** For each filter, the positions in `rows` it shows, in row order. */
  index: Record<ResultFilter, Int32Array>;
  /** Batches whose rows are in `rows` (finished batches only). */
  batches: number;
  /** What rowNumber counts: lines of a text file, rows of a sheet. */
  numbering: RowNumbering;
}

export const NO_ITEM_MESSAGE = 'The service returned no result for this row.';

function classify(item: OutcomeItem | null): number {
  if (!item) return FLAG.failed;
  let flags = 0;
  if (item.creationStatus === 'failed') flags |= FLAG.failed;
  else if (item.creationStatus === 'created') flags |= FLAG.created;
  else if (item.creationStatus === 'updated') flags |= FLAG.updated;
  // A row that created nothing has no tracking to fail (the sandbox marks both): it is failed, once.
  if (item.trackingStatus === 'failed' && item.creationStatus !== 'failed') flags |= FLAG['tracking-failed'];
  if (item.problems.some((problem) => problem.level === 'warning')) flags |= FLAG.warnings;
  return flags;
}

/** A JSON request field as a cell: lists joined by commas, other objects as JSON. */
function jsonCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map((entry) => jsonCell(entry)).join(',');
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value) ?? '';
}

/** A payload's header and its rows as arrays of cells, in the order sent. */
function readBody(body: ChunkBody): { header: string[]; data: string[][] } {
  if (body.format === 'csv') {
    const [header = [], ...data] = Papa.parse<string[]>(body.csv, { skipEmptyLines: 'greedy', delimiter: CHUNK_DELIMITER }).data;
    return { header, data };
  }
  const records = body.requests.map((request) => {
    const record = new Map<string, string>();
    for (const [key, value] of Object.entries(request)) {
      if (key === 'custom_fields' && value && typeof value === 'object' && !Array.isArray(value)) {
        for (const [slug, field] of Object.entries(value as Record<string, unknown>)) record.set(`cf_${slug}`, jsonCell(field));
      } else record.set(key, jsonCell(value));
    }
    return record;
  });
  const header = [...new Set(records.flatMap((record) => [...record.keys()]))];
  return { header, data: records.map((record) => header.map((name) => record.get(name) ?? '')) };
}

/** A payload's header alone: a CSV's first line (its rows are parsed when first shown). */
function readHeader(body: ChunkBody): string[] {
  if (body.format === 'json') return readBody(body).header;
  return Papa.parse<string[]>(body.csv, { preview: 1, delimiter: CHUNK_DELIMITER }).data[0] ?? [];
}

/** Rows of a chunk's CSV parsed at a time, as far as the row asked for: a screenful costs 500. */
const CELLS_READ_ROWS = 500;

/**
 * The cells of one batch's rows, read from its payload when a row's cells are first asked for
 * (the grid shows a screenful; an export or a retry asks for the failed ones), CELLS_READ_ROWS
 * at a time up to that row. Parsed up front, a 100,000-row job kept 100,000 arrays and 800,000
 * strings the page never showed, and parsed a whole chunk on the page's thread as each batch
 * finished.
 */
class BlockCells {
  private readonly data: string[][] = [];
  /** Where the CSV's unread rows start (0: not read at all); null once every row is read. */
  private cursor: number | null = 0;

  constructor(
    private readonly body: ChunkBody | null,
    /** The job's column of each of the payload's columns. */
    private readonly positions: readonly number[],
    /** The job's columns so far (a later chunk may add some). */
    private readonly columns: readonly string[],
  ) {}

  /** Row i's cells, one per column of the job (empty where the payload had none). */
  valuesOf(i: number): string[] {
    this.readTo(i);
    const cells = this.data[i] ?? [];
    const values = Array.from({ length: this.columns.length }, () => '');
    for (let c = 0; c < this.positions.length; c++) values[this.positions[c]!] = cells[c] ?? '';
    return values;
  }

  /** How wide a row is now. */
  get width(): number {
    return this.columns.length;
  }

  private readTo(i: number): void {
    const { body } = this;
    if (this.cursor === null || this.data.length > i) return;
    if (body?.format !== 'csv') {
      if (body) this.data.push(...readBody(body).data);
      this.cursor = null;
      return;
    }
    while (this.cursor !== null && this.data.length <= i) {
      const atHeader = this.cursor === 0;
      const end = rowsEnd(body.csv, this.cursor, CELLS_READ_ROWS + (atHeader ? 1 : 0));
      const { data } = Papa.parse<string[]>(body.csv.slice(this.cursor, end), { skipEmptyLines: 'greedy', delimiter: CHUNK_DELIMITER });
      for (const row of atHeader ? data.slice(1) : data) this.data.push(row);
      this.cursor = end < body.csv.length ? end : null;
    }
  }
}

/**
 * Where the CSV text's row after `rows` rows from `from` starts: past that many newlines outside
 * quotes (a quote inside a field is doubled, so quotes come in pairs). Papa's `preview` cursor
 * cannot say it: on unquoted text it points one row too far.
 */
export function rowsEnd(csv: string, from: number, rows: number): number {
  let at = from;
  let quoted = false;
  let quote = csv.indexOf('"', at);
  for (let counted = 0; counted < rows; ) {
    const newline = csv.indexOf('\n', at);
    if (newline < 0) return csv.length;
    if (quote >= 0 && quote < newline) {
      quoted = !quoted;
      at = quote + 1;
      quote = csv.indexOf('"', at);
      continue;
    }
    at = newline + 1;
    if (!quoted) counted++;
  }
  return at;
}

/** A joined row whose cells are read when first asked for (BlockCells), as wide as the job's columns. */
class JoinedRow implements ResultRow {
  private cells: string[] | null = null;

  constructor(
    readonly rowNumber: number,
    readonly batchId: string,
    readonly batchRow: number,
    readonly item: OutcomeItem | null,
    readonly flags: number,
    private readonly block: BlockCells,
  ) {}

  get values(): string[] {
    if (this.cells === null || this.cells.length < this.block.width) this.cells = this.block.valuesOf(this.batchRow - 1);
    return this.cells;
  }
}

/** One batch joined to its rows; `done` once every row is in (a load cut short leaves it false). */
interface ResultsBlock {
  chunkId: number;
  version: string;
  rows: ResultRow[];
  done: boolean;
}

/**
 * Collects a job's results batch by batch. `add` joins one finished batch to its payload;
 * `finish` returns the rows and the per-filter index arrays. Each batch's rows are kept apart,
 * so a collector can live on while a job runs: a batch that finishes later is joined alone
 * (`holds` says which are in), never the whole job again. Rows keep the order of the batches
 * added, or the chunks' order when `finish` is given it.
 */
export class ResultsCollector {
  private readonly columns: string[] = [];
  private readonly columnIndex = new Map<string, number>();
  /** By batch id, in the order added. */
  private readonly blocks = new Map<string, ResultsBlock>();

  constructor(
    headers: readonly string[] = [],
    private readonly numbering: RowNumbering = 'Line',
  ) {
    headers.forEach((header) => this.column(header));
  }

  /** Whether the batch is fully joined, as of `version` (what the caller last saw of its outcome). */
  holds(batchId: string, version = ''): boolean {
    const block = this.blocks.get(batchId);
    return block !== undefined && block.done && block.version === version;
  }

  /**
   * Joins one batch's items to the rows sent in its chunk (item i ↔ row i of the payload),
   * replacing what the collector held of that batch. Only the payload's header is read now
   * (its rows' cells when first shown, BlockCells); the rows are joined `rows` at a time by
   * each call of the returned step, which says whether the batch is done.
   */
  add(outcome: BatchOutcome, payload: ChunkPayload | undefined, version = ''): (rows: number) => boolean {
    const header = payload ? readHeader(payload.body) : [];
    const cells = new BlockCells(payload?.body ?? null, header.map((name) => this.column(name)), this.columns);
    const rowNumbers = payload?.rowNumbers ?? [];
    // A chunk's rows are as many as its row numbers (the payload is as sent).
    const count = Math.max(outcome.items.length, rowNumbers.length);
    const block: ResultsBlock = { chunkId: outcome.chunkId, version, rows: [], done: false };
    this.blocks.delete(outcome.batchId);
    this.blocks.set(outcome.batchId, block);
    let i = 0;
    return (rows) => {
      for (const end = Math.min(count, i + rows); i < end; i++) {
        const item = withFileRowNumbers(outcome.items[i] ?? null, rowNumbers, this.numbering);
        block.rows.push(new JoinedRow(item?.rowNumber ?? rowNumbers[i] ?? i + 1, outcome.batchId, i + 1, item, classify(item), cells));
      }
      if (i < count) return false;
      block.done = true;
      return true;
    };
  }

  /**
   * The rows of every batch fully joined, and one index per filter. `place` orders the batches
   * by their chunks (chunk id → place); without it they keep the order added. One pass over the
   * rows' flags: no parsing, no joining, so it stays cheap when called after every batch. A row
   * is as wide as the columns (a later chunk may add some), with empty cells where it had none.
   */
  finish(place?: ReadonlyMap<number, number>): JobResults {
    const blocks = [...this.blocks.values()].filter((block) => block.done);
    if (place) blocks.sort((a, b) => (place.get(a.chunkId) ?? Infinity) - (place.get(b.chunkId) ?? Infinity));
    const rows: ResultRow[] = [];
    const counts = new Map<number, number>();
    for (const block of blocks) {
      for (const row of block.rows) {
        rows.push(row);
        counts.set(row.flags, (counts.get(row.flags) ?? 0) + 1);
      }
    }
    const index = {} as Record<ResultFilter, Int32Array>;
    for (const filter of RESULT_FILTERS) {
      let size = 0;
      for (const [flags, count] of counts) if (filter === 'all' || flags & FLAG[filter]) size += count;
      index[filter] = new Int32Array(size);
    }
    const filled = Object.fromEntries(RESULT_FILTERS.map((filter) => [filter, 0])) as Record<ResultFilter, number>;
    for (let position = 0; position < rows.length; position++) {
      const flags = rows[position]!.flags;
      index.all[filled.all++] = position;
      if (flags & FLAG.failed) index.failed[filled.failed++] = position;
      if (flags & FLAG.warnings) index.warnings[filled.warnings++] = position;
      if (flags & FLAG.created) index.created[filled.created++] = position;
      if (flags & FLAG.updated) index.updated[filled.updated++] = position;
      if (flags & FLAG['tracking-failed']) index['tracking-failed'][filled['tracking-failed']++] = position;
    }
    return { columns: [...this.columns], rows, index, batches: blocks.length, numbering: this.numbering };
  }

  private column(name: string): number {
    let position = this.columnIndex.get(name);
    if (position === undefined) {
      position = this.columns.length;
      this.columns.push(name);
      this.columnIndex.set(name, position);
    }
    return position;
  }
}

/** The item with the file's number beside each of the service's row numbers its messages quote. */
function withFileRowNumbers(item: OutcomeItem | null, rowNumbers: readonly number[], numbering: RowNumbering): OutcomeItem | null {
  if (!item?.problems.some((problem) => problem.message.includes('row_number'))) return item;
  return { ...item, problems: item.problems.map((problem) => ({ ...problem, message: explainServiceRowNumbers(problem.message, rowNumbers, numbering) })) };
}

/** Gives the event loop a turn between slices of work. */
export const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

/** Rows joined per slice: a few milliseconds on a slow machine. */
const JOIN_SLICE_ROWS = 1000;

/**
 * Every finished batch of a job joined to its rows as sent, one chunk per slice: the payload of
 * the next chunk is read (IndexedDB, asynchronous) while the page stays responsive, its header
 * read (its rows' cells wait until shown: BlockCells), and its rows joined JOIN_SLICE_ROWS at a time, with a turn of the event loop between slices.
 * With a `collector` that lives on (useJobResults), only `outcomes` not yet held, as of
 * `versionOf` their batch, are joined; the result holds every batch the collector has.
 */
export async function buildJobResults(
  job: Pick<ImportJob, 'headers' | 'chunks'>,
  outcomes: readonly BatchOutcome[],
  loadPayload: (chunkId: number) => Promise<ChunkPayload | undefined>,
  pause: () => Promise<void> = yieldToEventLoop,
  signal?: AbortSignal,
  numbering: RowNumbering = 'Line',
  collector: ResultsCollector = new ResultsCollector(job.headers, numbering),
  versionOf: (batchId: string) => string = () => '',
): Promise<JobResults> {
  // job.chunks is in the order the rows were sent (a split chunk's pieces take its place).
  const place = new Map(job.chunks.map((chunk, i) => [chunk.id, i]));
  const ordered = [...outcomes].sort((a, b) => (place.get(a.chunkId) ?? Infinity) - (place.get(b.chunkId) ?? Infinity));
  for (const outcome of ordered) {
    const version = versionOf(outcome.batchId);
    if (collector.holds(outcome.batchId, version)) continue;
    const payload = await loadPayload(outcome.chunkId);
    signal?.throwIfAborted();
    const step = collector.add(outcome, payload, version);
    while (!step(JOIN_SLICE_ROWS)) {
      await pause();
      signal?.throwIfAborted();
    }
    await pause();
    signal?.throwIfAborted();
  }
  return collector.finish(place);
}

/** How many rows a filter shows. */
export function filterCount(results: JobResults, filter: ResultFilter): number {
  return results.index[filter].length;
}

/** The row a filter shows at a position, or undefined past its end. */
export function rowAt(results: JobResults, filter: ResultFilter, position: number): ResultRow | undefined {
  const index = results.index[filter][position];
  return index === undefined ? undefined : results.rows[index];
}

/**
 * A row's cells under these results' columns. A row's values widen when a later chunk adds a
 * column, after these results were taken: an export of them must not put a cell under `error`.
 */
export function cellsUnder(results: JobResults, row: ResultRow): string[] {
  const { values } = row;
  const width = results.columns.length;
  return values.length === width ? values : Array.from({ length: width }, (_, c) => values[c] ?? '');
}

/** The errors of a row as the service gave them (a row without item has one: no result). */
export function rowErrors(row: ResultRow): { column: string | null; message: string }[] {
  if (!row.item) return [{ column: null, message: NO_ITEM_MESSAGE }];
  return row.item.problems.filter((problem) => problem.level === 'error');
}

export function rowWarnings(row: ResultRow): { column: string | null; message: string }[] {
  return row.item?.problems.filter((problem) => problem.level === 'warning') ?? [];
}
