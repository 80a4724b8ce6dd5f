// The import worker: reads and validates files off the main thread. A thin adapter over
// src/spreadsheet; all logic lives there.
import '../zod-config'; // first: zod must be jitless before any schema is built
import { readTable, SpreadsheetReadError, type TableReadResult } from '../spreadsheet/read-table';
import { templateXlsx } from '../spreadsheet/template';
import { ReviewSession } from './review-session';
import { PREVIEW_ROWS, type ReadOptions, type TableSummary, type WorkerRequest, type WorkerResponse } from './import-protocol';

let source: { bytes: Uint8Array; name: string } | null = null;
let table: TableReadResult | null = null;
let session: ReviewSession | null = null;

function post(message: WorkerResponse): void {
  self.postMessage(message);
}

function summarize(result: TableReadResult, fileName: string): TableSummary {
  return {
    fileName,
    kind: result.kind,
    sheets: result.sheets,
    sheet: result.sheet,
    encoding: result.encoding,
    delimiter: result.delimiter,
    rowCount: result.rows.length,
    preview: result.rows.slice(0, PREVIEW_ROWS),
    previewRowNumbers: result.rowNumbers.slice(0, PREVIEW_ROWS),
  };
}

async function read(id: number, options: ReadOptions): Promise<void> {
  if (!source) throw new Error('No file has been read yet.');
  session = null;
  table = await readTable(source.bytes, source.name, {
    ...options,
    onProgress: (fraction) => post({ type: 'progress', id, fraction }),
  });
  post({ type: 'read-done', id, summary: summarize(table, source.name) });
}

function describe(error: unknown): string {
  if (error instanceof SpreadsheetReadError) return error.message;
  if (error instanceof RangeError) return 'The file is too large to read in this browser tab.';
  return `The file could not be read: ${error instanceof Error ? error.message : String(error)}`;
}

function current(): ReviewSession {
  if (!session) throw new Error('The rows have not been mapped yet.');
  return session;
}

self.onmessage = async (event: MessageEvent<WorkerRequest>) => {
  const request = event.data;
  try {
    switch (request.type) {
      case 'read':
        source = { bytes: new Uint8Array(await request.file.arrayBuffer()), name: request.file.name };
        await read(request.id, request.options);
        break;
      case 'reread':
        await read(request.id, request.options);
        break;
      case 'build-review': {
        if (!table) throw new Error('No file has been read yet.');
        session = ReviewSession.build(table, request.headerRow, request.mapping);
        post({ type: 'review-ready', id: request.id, columns: session.table.columns, state: session.state() });
        break;
      }
      case 'review': {
        const { command } = request;
        const state = current().run(command);
        const row = command.type === 'edit' ? current().rowView(command.row) : undefined;
        post({ type: 'review-state', id: request.id, state, row });
        break;
      }
      case 'get-rows': {
        const state = current().state();
        post({ type: 'rows', id: request.id, from: request.from, rows: current().getRows(request.from, request.to), version: state.version });
        break;
      }
      case 'get-row':
        post({ type: 'rows', id: request.id, from: 0, rows: [current().rowView(request.row)], version: current().state().version });
        break;
      case 'template':
        post({ type: 'template-done', id: request.id, bytes: await templateXlsx(request.customFieldSlugs) });
        break;
      case 'prepare':
        post({ type: 'prepared', id: request.id, submission: current().prepare(request.chunkSize) });
        break;
    }
  } catch (error) {
    post({ type: 'failed', id: request.id, message: describe(error) });
  }
};
