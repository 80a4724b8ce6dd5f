// A worker thread of the upload parse pool (parse-pool.ts): reads one file at a time with the
// shared reader and answers with its rows or the sentence that refuses it. It runs TypeScript
// through tsx (`--import tsx` in its execArgv), under `npm start` and Vitest alike.
import { parentPort } from 'node:worker_threads';
import { readTable, SpreadsheetReadError } from '../../../spreadsheet/read-table';
import { formatCount } from '../../../spreadsheet/read-error';
import { RESULT_CAPS, type ParseRequest, type ParseResult, type WorkerMessage } from './parse-protocol';

const port = parentPort;
if (!port) throw new Error('parse-worker.ts runs only as a worker thread');

port.on('message', (request: ParseRequest) => {
  void parse(request).then((answer) => port.postMessage({ ...answer, heapMb: heapMb() } satisfies WorkerMessage));
});

/**
 * This thread's memory after a file: V8 keeps the heap it grew to for a while after a read, so
 * this is close to the file's high-water mark (reported by the pool for `npm run bench -- hostile`).
 */
function heapMb(): number {
  const { heapTotal, external } = process.memoryUsage();
  return (heapTotal + external) / 2 ** 20;
}
port.postMessage({ ready: true } satisfies WorkerMessage);

/** The upload's chunks as one array of bytes (joined here, off the sandbox's event loop). */
function join(chunks: readonly ArrayBuffer[]): Uint8Array {
  const bytes = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0));
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(new Uint8Array(chunk), offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/** The sentence refusing rows too many or too long to hand to the event loop (RESULT_CAPS), or null. */
function overResultCaps(rows: readonly string[][]): string | null {
  let cells = 0;
  let chars = 0;
  for (const row of rows) {
    cells += row.length;
    for (const cell of row) chars += cell.length;
    if (cells > RESULT_CAPS.maxCells) {
      return `The file has more than ${formatCount(RESULT_CAPS.maxCells)} cells (rows × columns, empty ones included); one import takes at most that many.`;
    }
    if (chars > RESULT_CAPS.maxChars) {
      return `The file's cells hold more than ${formatCount(RESULT_CAPS.maxChars)} characters in all; one import takes at most that many.`;
    }
  }
  return null;
}

async function parse({ id, chunks, fileName, limits }: ParseRequest): Promise<ParseResult> {
  try {
    // An over-long cell comes back shortened with an ellipsis (table-limits.ts, shortenCell): it is
    // its row's error (processing/row-rules.ts, checkFileRow), the file's other rows import.
    const table = await readTable(join(chunks), fileName, { limits });
    const tooMuch = overResultCaps(table.rows);
    if (tooMuch) return { id, ok: false, code: 'too_large', message: tooMuch };
    return { id, ok: true, rows: table.rows };
  } catch (error) {
    if (error instanceof SpreadsheetReadError) return { id, ok: false, code: error.code, message: error.message };
    // Anything else is a reader bug meeting an odd file: the file's problem to the client, logged here.
    return { id, ok: false, code: 'invalid_file', message: 'The file could not be read as CSV, XLS or XLSX.', detail: String(error) };
  }
}
