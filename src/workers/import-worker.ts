// The import worker: reads and validates files off the main thread. A thin adapter over
// src/spreadsheet; all logic lives there.
import '../zod-config'; // first: zod must be jitless before any schema is built
import { readIndexedCsv, readTable, SpreadsheetReadError, type TableReadResult } from '../spreadsheet/read-table';
import type { TableRows } from '../spreadsheet/file-rows';
import { blobSource } from './blob-source';
import { templateCsv, templateXlsx } from '../spreadsheet/template';
import { CurrentReview, ReviewReplacedError } from './current-review';
import { matchRetryRows, type RetryMatch, SubmissionError } from './review-session';
import { SeenAnswerError, seenOfTeamAnswer } from './team-seen-answer';
import { warmUp } from './warm-up';
import {
  type ImportAnswers,
  type ImportRequestKind,
  type ImportRequests,
  PREVIEW_ROWS,
  FIRST_ROWS,
  type ReadOptions,
  type RetryRows,
  type TableSummary,
  type WorkerRequest,
  type WorkerResponse,
} from './import-protocol';

/**
 * The file dropped, kept for a reread; its SHA-256 is computed when first asked for (at Send).
 * The File, not its bytes: a dropped file is read from disk when needed, so the worker holds the
 * rows and not a second copy of the file beside them.
 */
let source: { file: Blob; name: string; sha256: Promise<string> | null } | null = null;
let table: TableReadResult<TableRows> | null = null;
/** How often a large file's check says how far it is. */
const CHECK_PROGRESS_MS = 250;
/** The review of the file read: built at Continue (or ahead), dropped by a read. */
const review = new CurrentReview();
/** Fix & retry's rows: their numbers in the original file and the service's notes. */
let retry: RetryRows | null = null;
/** Once the retry's rows are matched to their numbers: the numbering and the service's notes by row number. */
let retried: RetryMatch | undefined;

function post(message: WorkerResponse): void {
  self.postMessage(message);
}

function summarize(result: TableReadResult<TableRows>, fileName: string, retried: RetryMatch | undefined): TableSummary {
  return {
    fileName,
    kind: result.kind,
    sheets: result.sheets,
    sheet: result.sheet,
    encoding: result.encoding,
    delimiter: result.delimiter,
    rowCount: result.rows.length,
    preview: result.rows.slice(0, PREVIEW_ROWS).map((row) => [...row]),
    previewRowNumbers: result.rowNumbers.slice(0, PREVIEW_ROWS),
    numbering: retried?.numbering ?? (result.kind === 'csv' ? 'Line' : 'Row'),
    retried: retried !== undefined,
  };
}

async function read(id: number, options: ReadOptions): Promise<{ summary: TableSummary }> {
  if (!source) throw new Error('No file has been read yet.');
  review.drop();
  const readOptions = { ...options, onProgress: (fraction: number) => post({ type: 'progress', id, fraction }) };
  // A large CSV stays in its file, read back a block at a time; the rest is read into memory.
  table = readIndexedCsv(blobSource(source.file), source.name, readOptions) ?? (await readTable(await bytesOf(source.file), source.name, readOptions));
  retried = retry ? matchRetryRows(table, retry) : undefined;
  return { summary: summarize(table, source.name, retried) };
}

async function bytesOf(file: Blob): Promise<Uint8Array<ArrayBuffer>> {
  return new Uint8Array(await file.arrayBuffer());
}

/** SHA-256 of the file, lower-case hex (WebCrypto). */
async function sha256Hex(file: Blob): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', await bytesOf(file));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

function describe(error: unknown): string {
  // A large CSV's rows are read from its file as they are needed, at any step: not only at the drop.
  // Chromium says NotReadableError for a file changed since the drop, NotFoundError for one moved or deleted.
  if (error instanceof DOMException && (error.name === 'NotReadableError' || error.name === 'NotFoundError')) return 'The file changed or moved on your disk since it was dropped; drop it again.';
  if (error instanceof SpreadsheetReadError || error instanceof SubmissionError || error instanceof ReviewReplacedError || error instanceof SeenAnswerError) return error.message;
  if (error instanceof RangeError) return 'The file is too large to read in this browser tab.';
  return `The file could not be read: ${error instanceof Error ? error.message : String(error)}`;
}

type Handlers = { [K in ImportRequestKind]: (request: ImportRequests[K], id: number) => ImportAnswers[K] | Promise<ImportAnswers[K]> };

/** One handler per request kind; its return type is the answer the protocol pairs with it. */
const handlers: Handlers = {
  read: async (request, id) => {
    // Not hashed here: the digest copies the bytes, and while the file is read that doubled the
    // worker's peak; fix & retry never asks for it at all.
    source = { file: request.file, name: request.file.name, sha256: null };
    retry = request.retry ?? null;
    return read(id, request.options);
  },
  reread: (request, id) => read(id, request.options),
  'build-review': (request) => {
    if (!table) throw new Error('No file has been read yet.');
    // The page asks while the Columns step is shown, and again at Continue.
    const built = review.build(table, request.headerRow, request.mapping, retried);
    return { columns: built.table.columns, state: built.state(), firstRows: built.getRows(0, FIRST_ROWS) };
  },
  'review-checked': async (_request, id) => {
    const rows = review.get().table.counts.rows;
    // Now and then, not after every block: each report is a task and a render on the page.
    let said = performance.now();
    const whole = await review.whenChecked((checkedRows) => {
      if (performance.now() - said < CHECK_PROGRESS_MS) return;
      said = performance.now();
      post({ type: 'progress', id, fraction: rows === 0 ? 1 : checkedRows / rows });
    });
    return { state: whole.state(), firstRows: whole.getRows(0, FIRST_ROWS) };
  },
  'hold-check': ({ forMs }) => {
    review.holdCheck(forMs);
    return {};
  },
  review: async ({ command }) => {
    // An edit of a row shown is applied at once, even while later rows are checked (DESIGN §6: ≤ 50 ms).
    const ready = await review.whenReadyFor(command);
    const state = ready.run(command);
    return { state, row: command.type === 'edit' ? ready.rowView(command.row) : undefined };
  },
  'get-rows': async ({ from, to }) => {
    const shown = await review.whenCheckedTo(to);
    return { from, rows: shown.getRows(from, to), version: shown.state().version };
  },
  'get-row': async ({ row }) => {
    const shown = await review.whenCheckedTo(row + 1);
    return { row: shown.rowView(row), version: shown.state().version };
  },
  'find-error': async ({ from, column, direction }) => ({ found: (await review.whenChecked()).findError(from, column, direction) }),
  template: async ({ customFieldSlugs, format }) => ({
    bytes: format === 'csv' ? new TextEncoder().encode(templateCsv(customFieldSlugs)) : await templateXlsx(customFieldSlugs),
  }),
  'foresight-keys': async ({ page }) => {
    const { references, trackingNumbers, more } = (await review.whenChecked()).foresightKeys(page);
    // Written here: the page sends it on as it is, never holding the keys.
    const query = references.length + trackingNumbers.length > 0 ? new Blob([JSON.stringify({ references, trackingNumbers })], { type: 'application/json' }) : null;
    return { query, more };
  },
  foresee: async ({ add, reset, more }) => {
    const { teamAnswer, ...keys } = add;
    const seen = teamAnswer ? { ...keys, ...seenOfTeamAnswer(teamAnswer) } : keys;
    return { state: (await review.whenChecked()).foresee(seen, { reset, more }) };
  },
  prepare: async ({ chunkSize }) => ({ submission: (await review.whenChecked()).prepare(chunkSize) }),
  'submission-start': async ({ chunkSize }) => ({ start: (await review.whenChecked()).startSubmission(chunkSize) }),
  'submission-chunk': ({ key, index }) => {
    const kept = review.peek();
    if (!kept) throw new SubmissionError('The rows to send are no longer kept: the file was read again. Nothing was sent; press Send again.');
    return { key, index, chunk: kept.submissionChunk(key, index) };
  },
  'source-hash': async ({ fileName }) => {
    // The file is here (read): hashing it here spared the page a copy of the file and the
    // digest at Send. The name guards against another file read since the page asked.
    if (!source || source.name !== fileName) throw new Error(`The file ${fileName} is no longer held by the file reader.`);
    source.sha256 ??= sha256Hex(source.file);
    return { sha256: await source.sha256 };
  },
};

async function answer<K extends ImportRequestKind>(kind: K, request: ImportRequests[K], id: number): Promise<void> {
  const handler = handlers[kind] as (request: ImportRequests[K], id: number) => ImportAnswers[K] | Promise<ImportAnswers[K]>;
  const result = await handler(request, id);
  post({ type: 'done', kind, id, answer: result } as WorkerResponse);
}

/** Whether the page has asked anything yet: the warm-up is for a worker still waiting for its first file. */
let asked = false;

self.onmessage = async (event: MessageEvent<WorkerRequest>) => {
  asked = true;
  const request = event.data;
  try {
    await answer(request.kind, request, request.id);
  } catch (error) {
    post({ type: 'failed', id: request.id, message: describe(error) });
  }
};

// Started with the page (ImportSession.warm): the hot code is compiled before the file comes.
setTimeout(() => {
  if (!asked) warmUp().catch(() => undefined);
}, 0);
