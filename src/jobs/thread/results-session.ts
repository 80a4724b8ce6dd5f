// A job's results held in the results thread, as the import worker holds a file's rows
// (workers/review-session.ts): each finished batch's outcome joined to its chunk's rows as sent
// (DESIGN §5 "Results"), classified once into filters; the page asks for counts, the window of
// rows its grid shows, a download or the rows to retry, and never holds a batch's items nor
// parses a chunk. Pure but for the storage it is given (IndexedDB in the thread, memory in tests).
//
//   ResultsSessions.openJob / openBatch  → ResultsSummary (columns, count per filter, version)
//   .rows(session, filter, from, to)     → the rows the grid shows
//   .exportFile(session, …)              → a download: CSV or XLSX, every cell formula-escaped
//   .retryRows(session, kind)            → fix & retry's rows, their numbers and the service's notes
import Papa from 'papaparse';
import type { Batch } from '../../contract/batch';
import { serverJobOutcomeSchema, serverJobPayloadSchema } from '../../contract/server-jobs';
import { teamChunkRowsSchema, type TeamChunkRows } from '../../contract/team-history';
import { lastAtOrBefore } from '../../spreadsheet/array-index';
import { describeProblems } from '../../spreadsheet/problem-text';
import { toEscapedCsv, toEscapedXlsx, type ExportTable } from '../../spreadsheet/result-export';
import { explainServiceRowNumbers, type RowNumbering } from '../../spreadsheet/row-numbering';
import { CHUNK_DELIMITER } from '../chunking';
import type { BatchOutcome, ChunkBody, ChunkPayload, OutcomeItem } from '../import-job';
import { itemErrors, itemWarnings, matchItems, outcomeItemOf, RESULT_FLAG, resultFlags, trackingFailed } from '../result-item';
import type { JobStorage } from '../storage/job-storage';
import { headlineOf, readBatchBody, readJsonBody } from '../batch-digest';
import {
  type BatchResultsSummary,
  type BatchView,
  type PageRead,
  type RowsAsSentHeld,
  type ServerJobReadHeld,
  type ServerJobRecord,
  finishedVersions,
  REBUILT_COLUMNS,
  RESULT_FILTERS,
  type ResultDownloadKind,
  type ResultFilter,
  type ResultRowView,
  type ResultsFile,
  type ResultsAnswers,
  type ResultsRequests,
  type ResultsSessionKind,
  type ResultsSummary,
  type RetryRowsAnswer,
} from './results-protocol';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** What the results read of the job store: the job, a batch's outcome, a chunk's payload. */
export type ResultsSource = Pick<JobStorage, 'get' | 'outcome' | 'payload'>;

/** One finished batch joined to its chunk's rows. */
interface Block {
  batchId: string;
  chunkId: number;
  /** What said the outcome changed since (the tracking follow-up rewrites items). */
  version: string;
  rowNumbers: readonly number[];
  items: (OutcomeItem | null)[];
  flags: Uint8Array;
  body: ChunkBody | null;
  /** The session's column of each of the payload's columns. */
  positions: number[];
  /** The payload's rows as cells, parsed when one of its rows is first asked for. */
  cells: string[][] | null;
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

/** The item with the file's number beside each of the service's row numbers its messages quote. */
function withFileRowNumbers(item: OutcomeItem | null, rowNumbers: readonly number[], numbering: RowNumbering): OutcomeItem | null {
  if (!item?.problems.some((problem) => problem.message.includes('row_number'))) return item;
  return { ...item, problems: item.problems.map((problem) => ({ ...problem, message: explainServiceRowNumbers(problem.message, rowNumbers, numbering) })) };
}

/** The `error` cell of a download: the row's errors, or that its tracking failed (with the reason when known). */
export function errorCell(item: OutcomeItem | null): string {
  const errors = describeProblems(itemErrors(item));
  if (errors || !trackingFailed(item)) return errors;
  return item.trackingFailureReason ? `Tracking failed: ${item.trackingFailureReason}` : 'Tracking failed.';
}

/**
 * The results of one job (or one batch opened by its id): blocks in the order their chunks were
 * sent, one index of row positions per filter. A batch that finishes later is joined alone.
 */
export class ResultsSession {
  private readonly columns: string[] = [];
  private readonly columnIndex = new Map<string, number>();
  private readonly blocks = new Map<string, Block>();
  /** Blocks in row order, each row's block and place, and the positions each filter shows. */
  private ordered: Block[] = [];
  private starts = new Int32Array(1);
  private index = {} as Record<ResultFilter, Int32Array>;
  private version = 0;

  constructor(
    headers: readonly string[],
    readonly numbering: RowNumbering,
  ) {
    headers.forEach((header) => this.column(header));
    this.finish([]);
  }

  /** Whether the batch is joined as of `version`. */
  holds(batchId: string, version: string): boolean {
    return this.blocks.get(batchId)?.version === version;
  }

  /** Joins one batch's items to the rows sent in its chunk (item i ↔ row i), replacing what was held of it. */
  add(outcome: BatchOutcome, payload: ChunkPayload | undefined, version = ''): void {
    const rowNumbers = payload?.rowNumbers ?? [];
    const header = payload ? readHeader(payload.body) : [];
    // A chunk's rows are as many as its row numbers (the payload is as sent).
    const count = Math.max(outcome.items.length, rowNumbers.length);
    const items = new Array<OutcomeItem | null>(count);
    const flags = new Uint8Array(count);
    for (let i = 0; i < count; i++) {
      const item = withFileRowNumbers(outcome.items[i] ?? null, rowNumbers, this.numbering);
      items[i] = item;
      flags[i] = resultFlags(item);
    }
    this.blocks.set(outcome.batchId, {
      batchId: outcome.batchId,
      chunkId: outcome.chunkId,
      version,
      rowNumbers,
      items,
      flags,
      body: payload?.body ?? null,
      positions: header.map((name) => this.column(name)),
      cells: null,
    });
  }

  /** Orders the blocks by their chunks (chunk ids in the order sent) and indexes every filter. */
  finish(chunkOrder: readonly number[]): void {
    const place = new Map(chunkOrder.map((chunkId, i) => [chunkId, i]));
    this.ordered = [...this.blocks.values()].sort((a, b) => (place.get(a.chunkId) ?? Infinity) - (place.get(b.chunkId) ?? Infinity));
    this.starts = new Int32Array(this.ordered.length + 1);
    this.ordered.forEach((block, b) => (this.starts[b + 1] = this.starts[b]! + block.items.length));
    const sizes = Object.fromEntries(RESULT_FILTERS.map((filter) => [filter, 0])) as Record<ResultFilter, number>;
    for (const block of this.ordered) {
      for (const flags of block.flags) for (const filter of RESULT_FILTERS) if (filter === 'all' || flags & RESULT_FLAG[filter]) sizes[filter]++;
    }
    const index = Object.fromEntries(RESULT_FILTERS.map((filter) => [filter, new Int32Array(sizes[filter])])) as Record<ResultFilter, Int32Array>;
    const filled = Object.fromEntries(RESULT_FILTERS.map((filter) => [filter, 0])) as Record<ResultFilter, number>;
    let position = 0;
    for (const block of this.ordered) {
      for (const flags of block.flags) {
        for (const filter of RESULT_FILTERS) if (filter === 'all' || flags & RESULT_FLAG[filter]) index[filter][filled[filter]++] = position;
        position++;
      }
    }
    this.index = index;
    this.version++;
  }

  summary(session: number): ResultsSummary {
    const counts = Object.fromEntries(RESULT_FILTERS.map((filter) => [filter, this.index[filter].length])) as Record<ResultFilter, number>;
    return { session, version: this.version, columns: [...this.columns], counts, batches: this.ordered.length, numbering: this.numbering };
  }

  /** The filter's rows [from, to), each as wide as the columns. */
  rows(filter: ResultFilter, from: number, to: number): { version: number; from: number; rows: ResultRowView[] } {
    const positions = this.index[filter].subarray(Math.max(0, from), Math.max(0, to));
    return { version: this.version, from, rows: Array.from(positions, (position) => this.rowAt(position)) };
  }

  /** A download's table: the rows of a filter with their columns as sent, then `error` (and `warning`). */
  exportTable(kind: ResultDownloadKind, withWarnings: boolean): ExportTable {
    const warnings = withWarnings || kind === 'warnings';
    const columns = [...this.columns, 'error', ...(warnings ? ['warning'] : [])];
    const rows = Array.from(this.index[kind], (position) => {
      const row = this.rowAt(position);
      return [...row.values, errorCell(row.item), ...(warnings ? [describeProblems(itemWarnings(row.item))] : [])];
    });
    return { columns, rows };
  }

  /** Fix & retry's rows: their cells as CSV text (data for the importer, not escaped), numbers and the service's notes. */
  retryRows(kind: 'failed' | 'tracking-failed'): RetryRowsAnswer {
    const data: string[][] = [];
    const rowNumbers: number[] = [];
    const notes: RetryRowsAnswer['notes'] = [];
    for (const position of this.index[kind]) {
      const row = this.rowAt(position);
      data.push(row.values);
      rowNumbers.push(row.rowNumber);
      // A failed row: every error and warning of the service; a tracking failure: that it failed, and why where known.
      if (kind === 'tracking-failed') notes.push([{ level: 'error', column: null, message: errorCell(row.item) }]);
      else if (!row.item) notes.push(itemErrors(null).map((problem) => ({ level: 'error' as const, ...problem })));
      else notes.push(row.item.problems.map(({ level, column, message }) => ({ level, column, message })));
    }
    return { csv: Papa.unparse({ fields: this.columns, data }, { newline: '\r\n' }), numbering: this.numbering, rowNumbers, notes };
  }

  private rowAt(position: number): ResultRowView {
    // The block holding the position: the last whose start is at or before it.
    const low = lastAtOrBefore(this.starts.subarray(0, this.ordered.length), position);
    const block = this.ordered[low]!;
    const i = position - this.starts[low]!;
    const item = block.items[i] ?? null;
    return { rowNumber: item?.rowNumber ?? block.rowNumbers[i] ?? i + 1, batchId: block.batchId, batchRow: i + 1, values: this.valuesOf(block, i), item };
  }

  /** Row i of the block's cells under the session's columns (empty where its chunk had none). */
  private valuesOf(block: Block, i: number): string[] {
    block.cells ??= block.body ? readBody(block.body).data : [];
    const cells = block.cells[i] ?? [];
    const values = Array.from({ length: this.columns.length }, () => '');
    block.positions.forEach((column, c) => (values[column] = cells[c] ?? ''));
    return values;
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

/** A batch opened by its id: its items in the order of the rows sent, `rowNumbers` the file's numbers of those rows. */
export function batchOutcome(batch: Batch, owner: { jobId: string; chunkId: number }, rowNumbers: readonly number[]): BatchOutcome {
  const { slots } = matchItems(batch.results, Math.max(batch.results.length, rowNumbers.length));
  const items = slots.map((item, position) => (item ? outcomeItemOf(item, rowNumbers[position] ?? position + 1) : null));
  return { jobId: owner.jobId, batchId: batch.id, chunkId: owner.chunkId, status: batch.status, failureReason: batch.failure_reason ?? null, items };
}

/** A batch's rows rebuilt from its items (what the service echoes back), numbered as the service numbered them. */
export function rebuiltPayload(batch: Batch, owner: { jobId: string; chunkId: number }): ChunkPayload {
  const rows = new Array<string[]>(batch.results.length);
  batch.results.forEach((item, index) => {
    const position = item.row_number !== undefined && item.row_number <= batch.results.length ? item.row_number - 1 : index;
    rows[position] ??= [item.tracking_number, item.tracking_type, item.reference ?? '', item.carrier_scac ?? '', item.name ?? ''];
  });
  const filled = Array.from(rows, (row) => row ?? REBUILT_COLUMNS.map(() => ''));
  return {
    jobId: owner.jobId,
    chunkId: owner.chunkId,
    rowNumbers: filled.map((_, index) => index + 1),
    body: { format: 'csv', csv: Papa.unparse({ fields: [...REBUILT_COLUMNS], data: filled }, { newline: '\r\n' }) },
  };
}

/** Batches and chunks' rows as sent the thread holds for the batch page, each kind at most (the latest read kept). */
export const HELD_READS = 8;

function holdLatest<T>(held: Map<string, T>, key: string, value: T): void {
  held.delete(key);
  held.set(key, value);
  for (const oldest of held.keys()) {
    if (held.size <= HELD_READS) break;
    held.delete(oldest);
  }
}

/** A chunk's rows as the team history kept them (GET /console/api/jobs/:id/chunks/:chunkId/rows), or an error whose sentence says what was wrong. */
export function readRowsAsSent(body: ArrayBuffer): TeamChunkRows {
  return readJsonBody(body, teamChunkRowsSchema, 'The team history');
}

/** What the thread holds of one job the console's server runs: its batches' outcomes and its chunks' payloads, as last read. */
interface ServerJobHeld {
  outcomes: Map<string, BatchOutcome>;
  payloads: Map<number, ChunkPayload>;
}

/** Brings the job's results up to its record: each finished batch not held as of its version is joined from the source. */
async function joinFinished(held: ResultsSession | null, job: ServerJobRecord, source: Pick<ResultsSource, 'outcome' | 'payload'>, numbering: RowNumbering): Promise<ResultsSession> {
  const session = held ?? new ResultsSession(job.headers, numbering);
  for (const [batchId, version] of finishedVersions(job)) {
    if (session.holds(batchId, version)) continue;
    const outcome = await source.outcome(job.id, batchId);
    if (!outcome) continue;
    session.add(outcome, await source.payload(job.id, outcome.chunkId), version);
  }
  session.finish(job.chunks.map((chunk) => chunk.id));
  return session;
}

const chunkKey = (owner: { jobId: string; chunkId: number }) => `${owner.jobId}\u0000${owner.chunkId}`;

/** The thread's sessions, by the page's number for each; each one's requests run one at a time. */
export class ResultsSessions {
  private readonly sessions = new Map<number, { owner: string | null; session: ResultsSession | null; queue: Promise<void> }>();
  /** What the batch page last read of each batch, by id, and of each chunk's rows as sent: the page holds neither. */
  private readonly batches = new Map<string, Batch>();
  private readonly rowsAsSent = new Map<string, TeamChunkRows>();
  /** What the job page last read of each server-run job (HELD_READS jobs at most): the page holds neither outcomes nor payloads. */
  private readonly serverJobs = new Map<string, ServerJobHeld>();
  /** The server-run job each open session shows: what it read is let go when no session shows the job. */
  private readonly serverSessions = new Map<number, string>();

  constructor(private readonly sourceOf: (database: string) => ResultsSource) {}

  /** Answers one request of the page (the thread's messages, or a test's in-process thread). */
  answer<K extends ResultsSessionKind>(kind: K, body: ResultsRequests[K]): Promise<ResultsAnswers[K]> {
    const handlers: { [Kind in ResultsSessionKind]: (request: ResultsRequests[Kind]) => Promise<ResultsAnswers[Kind]> } = {
      'results-open-job': (request) => this.openJob(request),
      'results-open-server-job': (request) => this.openServerJob(request),
      'results-open-batch': (request) => this.openBatch(request),
      'results-rows': (request) => this.rows(request),
      'results-export': (request) => this.exportFile(request),
      'results-retry': (request) => this.retryRows(request),
      'results-close': (request) => {
        this.close(request.session);
        return Promise.resolve(null);
      },
    };
    return (handlers[kind] as (request: ResultsRequests[K]) => Promise<ResultsAnswers[K]>)(body);
  }

  /**
   * A 2xx body the batch page had the thread fetch, read and held for its results: a batch opened
   * by its id (the page gets its headline), or a chunk's rows as sent (the page gets their count);
   * for the job page, a server-run job's outcome or payload (the page gets its count of rows).
   */
  readForPage(read: PageRead, body: ArrayBuffer): { view: BatchView } | { rowsAsSent: RowsAsSentHeld } | { serverJob: ServerJobReadHeld } {
    if (read.kind === 'server-outcome' || read.kind === 'server-payload') return { serverJob: this.holdServerRead(read, body) };
    if (read.kind === 'batch-view') {
      const batch = readBatchBody(body, 'The batch');
      holdLatest(this.batches, batch.id, batch);
      return { view: { ...headlineOf(batch), createdAt: batch.created_at } };
    }
    const rows = readRowsAsSent(body);
    holdLatest(this.rowsAsSent, chunkKey(read), rows);
    return { rowsAsSent: { rows: rows.rowNumbers.length } };
  }

  /** A job's results as of its record now: the batches finished since the last open are joined. */
  openJob({ session: id, database, jobId, numbering }: ResultsRequests['results-open-job']): Promise<ResultsSummary> {
    return this.run(id, `job:${database}:${jobId}:${numbering}`, async (held) => {
      const source = this.sourceOf(database);
      const job = await source.get(jobId);
      if (!job) throw new Error('The job is no longer kept in this browser.');
      return joinFinished(held, job, source, numbering);
    });
  }

  /**
   * A job the console's server runs, as of the record the page has: its finished batches are
   * joined from the outcomes and payloads the thread holds (the page had it read those first).
   */
  openServerJob({ session: id, job, numbering }: ResultsRequests['results-open-server-job']): Promise<ResultsSummary> {
    this.serverSessions.set(id, job.id);
    return this.run(id, `server-job:${job.id}:${numbering}`, (held) => {
      const kept = this.serverJobs.get(job.id);
      const missing = [...finishedVersions(job)].some(([batchId, version]) => !held?.holds(batchId, version));
      if (!kept && missing) throw new Error('The results of this job are no longer held by the results thread: read them again.');
      const source: Pick<ResultsSource, 'outcome' | 'payload'> = {
        outcome: (_, batchId) => Promise.resolve(kept?.outcomes.get(batchId)),
        payload: (_, chunkId) => Promise.resolve(kept?.payloads.get(chunkId)),
      };
      return joinFinished(held, job, source, numbering);
    });
  }

  /** Holds a server-run job's outcome or payload the page had the thread read. */
  private holdServerRead(read: Extract<PageRead, { jobId: string; kind: `server-${string}` }>, body: ArrayBuffer): ServerJobReadHeld {
    const kept = this.serverJobs.get(read.jobId) ?? { outcomes: new Map<string, BatchOutcome>(), payloads: new Map<number, ChunkPayload>() };
    let rows: number;
    if (read.kind === 'server-outcome') {
      const outcome = readJsonBody(body, serverJobOutcomeSchema, 'The console’s server') as BatchOutcome;
      if (outcome.jobId !== read.jobId) throw new Error(`The console’s server answered with an outcome of job ${outcome.jobId}, not ${read.jobId}.`);
      kept.outcomes.set(outcome.batchId, outcome);
      rows = outcome.items.length;
    } else {
      const payload: ChunkPayload = readJsonBody(body, serverJobPayloadSchema, 'The console’s server');
      if (payload.jobId !== read.jobId) throw new Error(`The console’s server answered with rows of job ${payload.jobId}, not ${read.jobId}.`);
      kept.payloads.set(payload.chunkId, payload);
      rows = payload.rowNumbers.length;
    }
    holdLatest(this.serverJobs, read.jobId, kept);
    return { rows };
  }

  /** One batch opened by its id, as last read: its rows as sent where the thread holds them (`rowsAsSent`), else rebuilt from its items. */
  async openBatch({ session: id, batchId, owner, rowsAsSent, numbering }: ResultsRequests['results-open-batch']): Promise<BatchResultsSummary> {
    const batch = this.batches.get(batchId);
    if (!batch) throw new Error(`Batch ${batchId} is no longer held by the results thread: read it again.`);
    const kept = rowsAsSent ? this.rowsAsSent.get(chunkKey(owner)) : undefined;
    if (rowsAsSent && !kept) throw new Error('The rows as sent are no longer held by the results thread: read them again.');
    const summary = await this.run(id, `batch:${batch.id}`, () => {
      const payload = kept ? { ...owner, ...kept } : rebuiltPayload(batch, owner);
      const session = new ResultsSession([], kept ? numbering : 'Row');
      session.add(batchOutcome(batch, owner, payload.rowNumbers), payload);
      session.finish([]);
      return Promise.resolve(session);
    });
    const reason = batch.failure_reason ?? null;
    return { ...summary, failureReason: reason && kept ? explainServiceRowNumbers(reason, kept.rowNumbers, numbering) : reason };
  }

  rows({ session, filter, from, to }: ResultsRequests['results-rows']): Promise<{ version: number; from: number; rows: ResultRowView[] }> {
    return this.held(session, (held) => held.rows(filter, from, to));
  }

  async exportFile({ session, filter, format, withWarnings, sheetName }: ResultsRequests['results-export']): Promise<ResultsFile> {
    const table = await this.held(session, (held) => held.exportTable(filter, withWarnings));
    if (format === 'csv') return { file: new Blob([toEscapedCsv(table)], { type: 'text/csv;charset=utf-8' }), rows: table.rows.length };
    const XLSX = await import('@e965/xlsx');
    return { file: new Blob([toEscapedXlsx(XLSX, table, sheetName) as Uint8Array<ArrayBuffer>], { type: XLSX_TYPE }), rows: table.rows.length };
  }

  retryRows({ session, filter }: ResultsRequests['results-retry']): Promise<RetryRowsAnswer> {
    return this.held(session, (held) => held.retryRows(filter));
  }

  close(session: number): void {
    this.sessions.delete(session);
    const jobId = this.serverSessions.get(session);
    this.serverSessions.delete(session);
    if (jobId !== undefined && ![...this.serverSessions.values()].includes(jobId)) this.serverJobs.delete(jobId);
  }

  /** Runs a change of the session after its earlier requests; a session for other results starts afresh. */
  private async run(id: number, owner: string, change: (held: ResultsSession | null) => Promise<ResultsSession>): Promise<ResultsSummary> {
    let entry = this.sessions.get(id);
    if (!entry) this.sessions.set(id, (entry = { owner: null, session: null, queue: Promise.resolve() }));
    const opened = entry;
    const result = opened.queue.then(async () => {
      const session = await change(opened.owner === owner ? opened.session : null);
      opened.owner = owner;
      opened.session = session;
      return session.summary(id);
    });
    opened.queue = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }

  private async held<T>(id: number, read: (session: ResultsSession) => T): Promise<T> {
    const entry = this.sessions.get(id);
    if (entry) await entry.queue;
    if (!entry?.session || this.sessions.get(id) !== entry) throw new Error('These results are no longer open: open them again.');
    return read(entry.session);
  }
}
