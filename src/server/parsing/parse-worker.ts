// A worker thread of the upload parse pool (parse-pool.ts): reads one file at a time with the
// shared reader and answers with its rows or the sentence that refuses it. It runs TypeScript
// through tsx (`--import tsx` in its execArgv), under `npm start` and Vitest alike.
import { parentPort } from 'node:worker_threads';
import { formatCount } from '../../spreadsheet/read-error';
import { readTable, SpreadsheetReadError, type TableReadResult } from '../../spreadsheet/read-table';
import { DEFAULT_TABLE_LIMITS, cellLength } from '../../spreadsheet/table-limits';
import type { ParseAnswer, ParseRequest, WorkerMessage } from './parse-protocol';

const port = parentPort;
if (!port) throw new Error('parse-worker.ts runs only as a worker thread');

port.on('message', (request: ParseRequest) => {
  void parse(request).then((answer) => port.postMessage(answer satisfies WorkerMessage));
});
port.postMessage({ ready: true } satisfies WorkerMessage);

async function parse({ id, bytes, fileName, limits }: ParseRequest): Promise<ParseAnswer> {
  try {
    const table = await readTable(new Uint8Array(bytes), fileName, { limits });
    const long = overLongCell(table, limits.maxCellLength ?? DEFAULT_TABLE_LIMITS.maxCellLength);
    if (long) return { id, ok: false, code: 'too_large', message: long };
    return { id, ok: true, rows: table.rows };
  } catch (error) {
    if (error instanceof SpreadsheetReadError) return { id, ok: false, code: error.code, message: error.message };
    // Anything else is a reader bug meeting an odd file: the file's problem to the client, logged here.
    return { id, ok: false, code: 'invalid_file', message: 'The file could not be read as CSV, XLS or XLSX.', detail: String(error) };
  }
}

/**
 * The reader keeps a cell over the cap shortened, for the console to show as its row's error.
 * The sandbox's file rows have no length rule of their own (processing/row-rules.ts), so a
 * shortened cell would be stored cut: the file is refused instead, naming the cell.
 */
function overLongCell(table: TableReadResult, maxCellLength: number): string | null {
  for (const [index, row] of table.rows.entries()) {
    const column = row.findIndex((cell) => cell.length > maxCellLength);
    const cell = row[column];
    if (cell === undefined) continue;
    const where = `${table.kind === 'csv' ? 'Line' : 'Row'} ${formatCount(table.rowNumbers[index] ?? index + 1)}`;
    return `${where} has a cell of ${formatCount(cellLength(cell))} characters (column ${formatCount(column + 1)}); the limit is ${formatCount(maxCellLength)}.`;
  }
  return null;
}
