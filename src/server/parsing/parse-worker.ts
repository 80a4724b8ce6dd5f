// A worker thread of the upload parse pool (parse-pool.ts): reads one file at a time with the
// shared reader and answers with its rows or the sentence that refuses it. It runs TypeScript
// through tsx (`--import tsx` in its execArgv), under `npm start` and Vitest alike.
import { parentPort } from 'node:worker_threads';
import { readTable, SpreadsheetReadError } from '../../spreadsheet/read-table';
import type { ParseAnswer, ParseRequest, WorkerMessage } from './parse-protocol';

const port = parentPort;
if (!port) throw new Error('parse-worker.ts runs only as a worker thread');

port.on('message', (request: ParseRequest) => {
  void parse(request).then((answer) => port.postMessage(answer satisfies WorkerMessage));
});
port.postMessage({ ready: true } satisfies WorkerMessage);

async function parse({ id, bytes, fileName, limits }: ParseRequest): Promise<ParseAnswer> {
  try {
    // An over-long cell comes back shortened with an ellipsis (table-limits.ts, shortenCell): it is
    // its row's error (processing/row-rules.ts, checkFileRow), the file's other rows import.
    const table = await readTable(new Uint8Array(bytes), fileName, { limits });
    return { id, ok: true, rows: table.rows };
  } catch (error) {
    if (error instanceof SpreadsheetReadError) return { id, ok: false, code: error.code, message: error.message };
    // Anything else is a reader bug meeting an odd file: the file's problem to the client, logged here.
    return { id, ok: false, code: 'invalid_file', message: 'The file could not be read as CSV, XLS or XLSX.', detail: String(error) };
  }
}
