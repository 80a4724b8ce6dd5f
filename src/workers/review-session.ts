// The review table of one import, held in the worker, and the commands the grid sends to it.
// The page never holds the rows: it asks for the window it shows (getRows).
import type { ColumnMapping } from '../spreadsheet/column-mapping';
import { nextTask } from '../spreadsheet/next-task';
import { type CsvChunk, type CsvSubmission, toCsvChunks } from '../spreadsheet/csv-output';
import {
  beginReviewTable,
  excludeRows,
  findAndReplace,
  readRow,
  restoreRows,
  type ReviewTable,
  type ReviewTableCheck,
  ROW_ERROR,
  ROW_EXCLUDED,
  rowNumberOf,
  rowsWhere,
  setCell,
  setColumnValue,
  undo,
} from '../spreadsheet/review-table';
import type { TableReadResult } from '../spreadsheet/read-table';
import type { TableRows } from '../spreadsheet/file-rows';
import { clampIndex } from '../spreadsheet/array-index';
import {
  addSeen,
  addSentRows,
  emptySeenKeys,
  FORESEE_CREATE,
  FORESEE_DUPLICATE,
  FORESEE_NO_REFERENCE,
  FORESEE_UPDATE,
  FORESIGHT_LETTERS,
  type Foresight,
  foreseeRows,
  type SeenKeys,
} from '../spreadsheet/row-foresight';
import {
  FIRST_ROWS,
  FORESIGHT_KEYS_PAGE,
  type ForesightFilter,
  type PreparedSubmission,
  type ReviewCommand,
  type ReviewFilter,
  type ReviewRowView,
  type RetryRows,
  type ReviewState,
  type RowNumbering,
  type SeenKeysUpdate,
  type ServiceNote,
  SKIPPED_LISTED,
  type SubmissionKey,
  type SubmissionStart,
} from './import-protocol';

const PREVIEW_LINES = 6;
/** The longest block of rows checked before the worker answers what the page has asked meanwhile. */
const CHECK_BLOCK_MS = 8;
/** Rows checked between two looks at the clock. */
const CHECK_STEP = 256;

/** How a review is checked: every row before it is answered, or a block of blockMs a task. */
interface CheckPace {
  atOnce: boolean;
  blockMs: number;
  /** Milliseconds the check is still to wait before its next block (the page renders), or ≤ 0. */
  heldFor: () => number;
}

/** How often a held check looks whether it may go on. */
const HELD_LOOK_MS = 10;
const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Fix & retry's rows matched to the file read from them: their numbering and the service's notes by row number. */
export interface RetryMatch {
  numbering: RowNumbering;
  serviceNotes: ReadonlyMap<number, ServiceNote[]>;
}

/**
 * Gives fix & retry's rows the numbers they had in the original file (in `table.rowNumbers`), so
 * the review, the Ready step and the new job name them as the first job did, and files the
 * service's notes under those numbers. The retry's CSV holds one header line and one row per
 * number; read another way (another delimiter) it no longer does, and keeps its own numbers,
 * without notes: undefined.
 */
export function matchRetryRows(table: TableReadResult<TableRows>, retry: RetryRows): RetryMatch | undefined {
  const { rowNumbers, notes } = retry;
  if (table.kind !== 'csv' || table.rows.length !== rowNumbers.length + 1) return undefined;
  // The header keeps the number just above the first row's (line 1 when that is line 2).
  table.rowNumbers = [Math.max(1, (rowNumbers[0] ?? 2) - 1), ...rowNumbers];
  return { numbering: retry.numbering, serviceNotes: new Map(rowNumbers.map((rowNumber, i) => [rowNumber, notes[i] ?? []])) };
}

const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

/** A part of a submission refused: its sentence is the page's to show as it is. */
export class SubmissionError extends Error {
  override name = 'SubmissionError';
}

/** Serial numbers of submissions, across sessions: a rebuilt review cannot take an old one's key. */
let lastSubmission = 0;

/** A submission being handed to the page chunk by chunk; a chunk handed over is dropped (null). */
interface KeptSubmission extends SubmissionKey {
  chunks: (CsvChunk | null)[];
  undelivered: number;
}

export class ReviewSession {
  private filter: ReviewFilter = 'all';
  /** The rows the filter shows, in order; null for every row (the 'all' filter), kept as no array: 4 MB at a million rows. */
  private view: number[] | null = null;
  private version = 0;
  /** Changes with the rows themselves (an edit, an exclusion), not with what is foreseen of them: a Send's chunks hold while it stays. */
  private rowsVersion = 0;
  private viewVersion = 0;
  private kept: KeptSubmission | null = null;
  /** References and numbers seen elsewhere (past jobs, the team, the service), once the Ready step gives them. */
  /** The rows to send as the Ready step counted them: Send hands over these chunks, not a second cut. */
  private prepared: { version: number; chunkSize: number; submission: CsvSubmission } | null = null;
  private seen: SeenKeys | null = null;
  /** The rows to send foreseen against `seen`, as of table version `foresightVersion`. */
  private foresight: Foresight | null = null;
  private foresightVersion = -1;

  /** A command or a foresight has changed the rows or their view since the build. */
  private touched = false;
  /** Settled once every row is checked (or the session is dropped); rejected by a row that fails its check. */
  private readonly checkDone: Promise<void>;
  private readonly checkProgress = new Set<(checkedRows: number) => void>();
  private dropped = false;
  /** A row failed its check (memory ran out): the review is not kept for another Continue. */
  private checkFailed = false;
  private readonly blockMs: number;
  private readonly heldFor: () => number;

  private constructor(
    private readonly check: ReviewTableCheck,
    private readonly serviceNotes: ReadonlyMap<number, ServiceNote[]>,
    /** The read, header row and mapping the rows were built from. */
    private readonly builtFrom: { source: TableReadResult<TableRows>; headerRow: number; mapping: string },
    { atOnce, blockMs, heldFor }: CheckPace,
  ) {
    this.blockMs = blockMs;
    this.heldFor = heldFor;
    if (atOnce) check.checkUntil(Number.POSITIVE_INFINITY);
    else this.checkBlock(Math.max(FIRST_ROWS, CHECK_STEP));
    this.checkDone = this.isChecked ? Promise.resolve() : this.checkTheRest();
    // A row that fails its check fails whoever waits (whenChecked), not the worker unseen.
    this.checkDone.catch(() => undefined);
  }

  get table(): ReviewTable {
    return this.check.table;
  }

  /** Rows checked so far, from the first. */
  get checkedRows(): number {
    return this.check.checkedRows;
  }

  /** Every row is checked: its issues and the counts are whole. */
  get isChecked(): boolean {
    return this.check.checkedRows === this.table.counts.rows;
  }

  /** Rows checked for blockMs, at least `atLeast` of them. */
  private checkBlock(atLeast = CHECK_STEP): void {
    const deadline = performance.now() + this.blockMs;
    if (this.check.checkUntil(this.check.checkedRows + atLeast)) return;
    while (performance.now() < deadline) if (this.check.checkUntil(this.check.checkedRows + CHECK_STEP)) return;
  }

  /** The rows after the first block, a block a task, until all are checked or the session is dropped. */
  private async checkTheRest(): Promise<void> {
    while (!this.isChecked) {
      await nextTask();
      while (!this.dropped && this.heldFor() > 0) await delay(Math.min(this.heldFor(), HELD_LOOK_MS));
      if (this.dropped) return;
      try {
        this.checkBlock();
      } catch (error) {
        this.checkFailed = true;
        throw error;
      }
      for (const report of this.checkProgress) report(this.check.checkedRows);
    }
    // The rows answered before now lacked their duplicate references, if any: a new version has them.
    if (this.check.duplicatedReferences > 0) this.version++;
  }

  /**
   * Settles once every row is checked: what needs every row (a command, the Ready step's counts,
   * a page of rows not checked yet) waits for it. Rejects with what stopped the check (memory
   * running out on a huge file). `onProgress`: rows checked, after each block.
   */
  async whenChecked(onProgress?: (checkedRows: number) => void): Promise<void> {
    if (onProgress) this.checkProgress.add(onProgress);
    try {
      await this.checkDone;
    } finally {
      if (onProgress) this.checkProgress.delete(onProgress);
    }
  }

  /** Stops checking: the file was read again or the review rebuilt; whoever waits goes on. */
  drop(): void {
    this.dropped = true;
  }

  /**
   * `retry`: fix & retry's rows keep the numbering of their original file (`numbering`) and show
   * the service's notes, by row number, beside their own checks. `atOnce` (the default): every row
   * is checked before this returns; else the first block is, and the rest a block a task
   * (whenChecked), each of `blockMs`.
   */
  static build(
    source: TableReadResult<TableRows>,
    headerRow: number,
    mapping: ColumnMapping,
    retry?: RetryMatch,
    { atOnce = true, blockMs = CHECK_BLOCK_MS, heldFor = () => 0 }: Partial<CheckPace> = {},
  ): ReviewSession {
    const numbering = retry?.numbering ?? (source.kind === 'csv' ? 'Line' : 'Row');
    const check = beginReviewTable(source, headerRow, mapping, { rowWord: numbering === 'Line' ? 'line' : 'row' });
    return new ReviewSession(check, retry?.serviceNotes ?? new Map(), { source, headerRow, mapping: JSON.stringify(mapping) }, { atOnce, blockMs, heldFor });
  }

  /**
   * `kept` when it was built from the same read, header row and mapping and nothing has changed
   * it since (no command, no foresight): the page builds the review ahead, while the Columns step
   * is shown, and Continue with that mapping takes it as it is, checked or still being checked.
   * Else a new session, checked a block a task (build), and `kept` is dropped.
   */
  static buildOrKeep(
    kept: ReviewSession | null,
    source: TableReadResult<TableRows>,
    headerRow: number,
    mapping: ColumnMapping,
    retry?: RetryMatch,
    blockMs = CHECK_BLOCK_MS,
    heldFor: () => number = () => 0,
  ): ReviewSession {
    const from = kept?.builtFrom;
    const same = from?.source === source && from.headerRow === headerRow && from.mapping === JSON.stringify(mapping);
    if (kept !== null && same && !kept.touched && !kept.checkFailed) return kept;
    kept?.drop();
    return ReviewSession.build(source, headerRow, mapping, retry, { atOnce: false, blockMs, heldFor });
  }

  /**
   * Whether a command may run while the rest of the rows are still being checked: an edit of a
   * row already checked (one the grid shows). It is revalidated at once, as at any time; its
   * reference joins the index the check is filling, and the check's end flags every reference
   * found on two rows, this one's included. Everything else needs every row.
   */
  canRunNow(command: ReviewCommand): boolean {
    return this.isChecked || (command.type === 'edit' && command.row >= 0 && command.row < this.check.checkedRows);
  }

  /** What needs every row checked refuses to run before: the worker awaits whenChecked first. */
  private mustBeChecked(): void {
    if (!this.isChecked) throw new Error(`The rows are still being checked (${this.check.checkedRows.toLocaleString('en')} of ${this.table.counts.rows.toLocaleString('en')}).`);
  }

  state(note: string | null = null): ReviewState {
    return {
      version: this.version,
      viewVersion: this.viewVersion,
      checkedRows: this.check.checkedRows,
      counts: { ...this.table.counts },
      filter: this.filter,
      viewLength: this.viewLength(),
      canUndo: this.table.history.length > 0,
      note,
      foresight: this.foresight?.counts ?? null,
    };
  }

  /**
   * Adds keys seen elsewhere (`reset`: forgets those kept first) and foresees every row to send
   * again, unless `more` keys follow at once (the state then still counts the last foresight).
   */
  foresee(add: SeenKeysUpdate, { reset = false, more = false }: { reset?: boolean; more?: boolean } = {}): ReviewState {
    this.mustBeChecked();
    this.touched = true;
    if (reset || !this.seen) this.seen = emptySeenKeys();
    if (add.sent) addSentRows(this.seen, add.sent);
    addSeen(this.seen, add.references ?? [], add.trackingNumbers ?? [], { confirmed: add.confirmed === true });
    this.foresightVersion = -1;
    if (more) return this.state();
    this.currentForesight();
    if (isForesightFilter(this.filter)) this.refreshView();
    this.version++;
    return this.state();
  }

  /**
   * Page `page` of the keys to ask others about: the distinct references of the rows to send, and
   * the tracking numbers of those without a reference (only they can be duplicates).
   */
  foresightKeys(page: number): { references: string[]; trackingNumbers: string[]; more: boolean } {
    this.mustBeChecked();
    const rows = rowsWhere(this.table, 'ready');
    const slice = rows.slice(page * FORESIGHT_KEYS_PAGE, (page + 1) * FORESIGHT_KEYS_PAGE);
    const { reference, trackingNumber } = this.keyColumns();
    const references = new Set<string>();
    const trackingNumbers = new Set<string>();
    for (const row of slice) {
      const ref = reference(row).trim();
      if (ref !== '') {
        references.add(ref);
        continue;
      }
      const number = trackingNumber(row).trim();
      if (number !== '') trackingNumbers.add(number);
    }
    return { references: [...references], trackingNumbers: [...trackingNumbers], more: (page + 1) * FORESIGHT_KEYS_PAGE < rows.length };
  }

  /** Readers of the rows' references (kept) and tracking numbers (read from the row: only rows without a reference need theirs). */
  private keyColumns() {
    const { table } = this;
    const trackingNumber = table.columns.indexOf('tracking_number');
    return { reference: (row: number) => table.references.get(row), trackingNumber: (row: number) => readRow(table, row).values[trackingNumber] ?? '' };
  }

  /** The foresight of the table as it is now (foreseen again after a change), or null before any keys are given. */
  private currentForesight(): Foresight | null {
    if (!this.seen) return null;
    if (this.foresight && this.foresightVersion === this.table.version) return this.foresight;
    this.foresight = foreseeRows(this.keyColumns(), rowsWhere(this.table, 'ready'), this.table.counts.rows, this.seen);
    this.foresightVersion = this.table.version;
    return this.foresight;
  }

  /** Applies a command; bulk changes refresh the filtered view, a single edit keeps it steady. */
  run(command: ReviewCommand): ReviewState {
    if (!this.canRunNow(command)) this.mustBeChecked();
    this.touched = true;
    this.version++;
    this.rowsVersion++;
    const column = (index: number) => {
      const target = this.table.columns[index];
      if (!target) throw new Error(`There is no column ${index}.`);
      return target;
    };
    switch (command.type) {
      case 'set-filter':
        if (isForesightFilter(command.filter) && !this.seen) throw new Error('The rows have not been foreseen yet: open the Ready step first.');
        this.filter = command.filter;
        this.refreshView();
        return this.state();
      case 'edit':
        setCell(this.table, command.row, column(command.column), command.value);
        return this.state();
      case 'exclude': {
        const rows = command.rows === 'view' ? this.viewRows() : command.rows;
        const count = rows.length;
        if (command.excluded) excludeRows(this.table, rows);
        else restoreRows(this.table, rows);
        if (command.rows === 'view') this.refreshView();
        return this.state(`${command.excluded ? 'Excluded' : 'Restored'} ${plural(count, 'row', 'rows')}.`);
      }
      case 'set-column': {
        const rows = this.viewRows();
        const count = rows.length;
        setColumnValue(this.table, rows, column(command.column), command.value);
        this.refreshView();
        return this.state(`Set ${column(command.column)} on ${plural(count, 'row', 'rows')}.`);
      }
      case 'replace': {
        const replaced = findAndReplace(this.table, {
          find: command.find,
          replace: command.replace,
          columns: command.column === null ? undefined : [column(command.column)],
          rows: this.viewRows(),
        });
        this.refreshView();
        return this.state(replaced === 0 ? `No value contains “${command.find}”.` : `Replaced ${plural(replaced, 'value', 'values')}.`);
      }
      case 'undo': {
        const undone = undo(this.table);
        this.refreshView();
        return this.state(undone ? 'Undid the last change.' : 'Nothing to undo.');
      }
    }
  }

  getRows(from: number, to: number): ReviewRowView[] {
    if (this.view) return this.view.slice(from, to).map((row) => this.rowView(row));
    const rows: ReviewRowView[] = [];
    const end = clampIndex(to, this.table.counts.rows);
    for (let row = clampIndex(from, this.table.counts.rows); row < end; row++) rows.push(this.rowView(row));
    return rows;
  }

  rowView(row: number): ReviewRowView {
    const { table } = this;
    if (row < 0 || row >= table.counts.rows) throw new Error(`There is no row ${row}.`);
    if (row >= this.check.checkedRows) throw new Error(`Row ${row} is still being checked.`);
    const columnIndex = (target: string) => table.columns.indexOf(target as (typeof table.columns)[number]);
    const rowNumber = rowNumberOf(table, row);
    const serviceNotes = this.serviceNotes.get(rowNumber);
    const { values, issues } = readRow(table, row);
    return {
      index: row,
      rowNumber,
      values,
      issues: issues.map((issue) => ({
        column: columnIndex(issue.column),
        level: issue.level,
        code: issue.code,
        message: issue.message,
        fix: issue.fix,
        original: issue.original,
      })),
      excluded: ((table.flags[row] ?? 0) & ROW_EXCLUDED) !== 0,
      ...(serviceNotes?.length ? { serviceNotes } : {}),
    };
  }

  /** The rows to send in chunks of `chunkSize`, cut once per table version and size. */
  private submission(chunkSize: number): CsvSubmission {
    this.mustBeChecked();
    const prepared = this.prepared;
    if (prepared?.version === this.rowsVersion && prepared.chunkSize === chunkSize) return prepared.submission;
    const submission = toCsvChunks(this.table, chunkSize);
    this.prepared = { version: this.rowsVersion, chunkSize, submission };
    return submission;
  }

  prepare(chunkSize: number): PreparedSubmission {
    const submission = this.submission(chunkSize);
    const first = submission.chunks[0]?.csv ?? submission.headers.join(',');
    return {
      headers: submission.headers,
      chunkSize,
      chunkRows: submission.chunks.map((chunk) => chunk.rowNumbers.length),
      submittedRows: submission.submittedRows,
      skipped: submission.skipped.slice(0, SKIPPED_LISTED),
      skippedTotal: submission.skipped.length,
      previewCsv: first.split('\r\n').slice(0, PREVIEW_LINES).join('\n'),
    };
  }

  /**
   * Cuts the rows to send into chunks of `chunkSize` and keeps them for `submissionChunk`, under a
   * new serial number and this table version (a submission started before is dropped). Answers
   * everything but the chunks.
   */
  startSubmission(chunkSize: number): SubmissionStart {
    const submission = this.submission(chunkSize);
    // Handed over from here on: the chunks leave the worker and are no longer kept for the count.
    this.prepared = null;
    const chunks: (CsvChunk | null)[] = withForesight(submission, this.table.counts.rows, this.currentForesight()?.codes);
    this.kept = { submission: ++lastSubmission, version: this.rowsVersion, chunks, undelivered: chunks.length };
    return {
      submission: this.kept.submission,
      version: this.rowsVersion,
      headers: submission.headers,
      skipped: submission.skipped,
      rowsRead: this.table.counts.rows,
      chunkCount: chunks.length,
    };
  }

  /**
   * Chunk `index` of the submission `key` names, handed over once: it is dropped here, and the
   * whole submission once every chunk is. Refused, with a sentence, for a submission no longer kept
   * (started again, or the review rebuilt) or a table changed since it was cut.
   */
  submissionChunk(key: SubmissionKey, index: number): CsvChunk {
    const kept = this.kept;
    if (!kept || kept.submission !== key.submission) {
      throw new SubmissionError(`The rows to send (submission ${key.submission}) are no longer kept: Send was pressed again or the review was rebuilt. Nothing was sent; press Send again.`);
    }
    if (kept.version !== key.version || this.rowsVersion !== kept.version) {
      this.kept = null;
      throw new SubmissionError(`The rows changed after Send was pressed (table version ${key.version}, now ${this.rowsVersion}). Nothing was sent; press Send again.`);
    }
    if (!Number.isInteger(index) || index < 0 || index >= kept.chunks.length) {
      throw new SubmissionError(`The rows to send have ${plural(kept.chunks.length, 'chunk', 'chunks')}; there is no chunk ${index}.`);
    }
    const chunk = kept.chunks[index];
    if (!chunk) throw new SubmissionError(`Chunk ${index} of the rows to send was already handed over.`);
    kept.chunks[index] = null;
    kept.undelivered--;
    if (kept.undelivered === 0) this.kept = null;
    return chunk;
  }

  /** Whether a submission is still kept (not every chunk handed over yet). */
  get keepsSubmission(): boolean {
    return this.kept !== null;
  }

  /**
   * The next error cell in view order after (position `from`, column `column`), or before it when
   * `direction` is −1, wrapping around the view; null when no row of the view has an error.
   * Excluded rows are skipped: their errors do not stop the import.
   */
  findError(from: number, column: number, direction: 1 | -1): { position: number; column: number } | null {
    this.mustBeChecked();
    const { view, table } = this;
    const n = this.viewLength();
    for (let step = 0; step <= n && n > 0; step++) {
      const position = (((from + direction * step) % n) + n) % n;
      const row = view ? (view[position] ?? 0) : position;
      const flags = table.flags[row] ?? 0;
      if ((flags & ROW_ERROR) === 0 || (flags & ROW_EXCLUDED) !== 0) continue;
      const columns = [...new Set(readRow(table, row).issues.filter((i) => i.level === 'error').map((i) => table.columns.indexOf(i.column)))];
      columns.sort((a, b) => direction * (a - b));
      // On the starting row, only cells past the starting one (until the search has come round).
      const next = step === 0 ? columns.find((c) => direction * (c - column) > 0) : columns[0];
      if (next !== undefined) return { position, column: next };
    }
    return null;
  }

  private refreshView(): void {
    this.viewVersion++;
    const filter = this.filter;
    if (!isForesightFilter(filter)) {
      this.view = filter === 'all' ? null : rowsWhere(this.table, filter);
      return;
    }
    const codes = this.currentForesight()?.codes;
    const wanted = FORESIGHT_CODES[filter];
    const view: number[] = (this.view = []);
    if (codes) for (let row = 0; row < codes.length; row++) if (wanted.includes(codes[row] ?? 0)) view.push(row);
  }

  private viewLength(): number {
    return this.view?.length ?? this.table.counts.rows;
  }

  /** The view's rows as an array, for a command over all of them. */
  private viewRows(): readonly number[] {
    return this.view ?? rowsWhere(this.table, 'all');
  }
}

/** The codes each foresight filter shows: rows without a reference include the possible duplicates. */
const FORESIGHT_CODES: Record<ForesightFilter, readonly number[]> = {
  creates: [FORESEE_CREATE],
  updates: [FORESEE_UPDATE],
  no_reference: [FORESEE_NO_REFERENCE, FORESEE_DUPLICATE],
  possible_duplicates: [FORESEE_DUPLICATE],
};

function isForesightFilter(filter: ReviewFilter): filter is ForesightFilter {
  return filter in FORESIGHT_CODES;
}

/**
 * The chunks to hand over, each with the letters of what its rows were foreseen to do. The rows
 * of the table not skipped fill the chunks in order, so the foresight (per table row) is matched
 * to them by walking the table once; the cut itself is kept for the count and never redone.
 */
function withForesight(submission: CsvSubmission, rows: number, codes: ArrayLike<number> | undefined): CsvChunk[] {
  if (!codes) return [...submission.chunks];
  const skipped = new Set(submission.skipped.map((skip) => skip.row));
  let row = 0;
  return submission.chunks.map((chunk) => {
    let letters = '';
    for (let taken = 0; taken < chunk.rowNumbers.length && row < rows; row++) {
      if (skipped.has(row)) continue;
      letters += FORESIGHT_LETTERS[codes[row] ?? 0];
      taken++;
    }
    return { ...chunk, foreseen: letters };
  });
}
