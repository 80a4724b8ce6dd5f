// Cutting a job's rows into chunks and halving a chunk the service refused for its size.
// Pure: rows in, CSV text (papaparse `unparse`, exact headers, CRLF) or JSON lists out.
//
//   cutIntoChunks(rows, chunkRows)  NewJobRows → each chunk's payload body and rows (the import
//                                   worker's CSV chunks are taken as they are, never cut again)
//   splitChunkBody(body, rowNumbers, pieceRows?)  one body → pieces (halves by default), no row lost, order kept
import Papa from 'papaparse';
import type { ChunkBody, ChunkPayload, NewJobRows } from './import-job';
import type { ChunkRows } from './job-machine';

/** A chunk before its job exists: what its payload will hold, and what its record is made from. */
type CutChunk = Pick<ChunkPayload, 'body' | 'rowNumbers' | 'foreseen'> & ChunkRows;

/** What a chunk's CSV has between cells. Readers name it, never guess it (a tab-filled name could pass for one). */
export const CHUNK_DELIMITER = ',';

const toCsv = (headers: string[], rows: string[][]) => Papa.unparse({ fields: headers, data: rows }, { delimiter: CHUNK_DELIMITER, newline: '\r\n' });

function countWithoutReference(headers: string[], rows: string[][]): number {
  const column = headers.indexOf('reference');
  if (column < 0) return rows.length;
  return rows.reduce((sum, row) => sum + ((row[column] ?? '').trim() === '' ? 1 : 0), 0);
}

function jsonWithoutReference(requests: Record<string, unknown>[]): number {
  return requests.reduce((sum, request) => {
    const reference = request.reference;
    return sum + (typeof reference === 'string' && reference.trim() !== '' ? 0 : 1);
  }, 0);
}

export function cutIntoChunks(rows: NewJobRows, chunkRows: number): CutChunk[] {
  if (!Number.isInteger(chunkRows) || chunkRows < 1) throw new RangeError('Rows per chunk must be a positive whole number.');
  switch (rows.format) {
    case 'csv-chunks':
      return rows.chunks.map((chunk) => ({
        body: { format: 'csv', csv: chunk.csv },
        rowNumbers: chunk.rowNumbers,
        withoutReference: chunk.withoutReference,
        ...(chunk.foreseen === undefined ? {} : { foreseen: chunk.foreseen }),
      }));
    case 'csv': {
      if (rows.rows.length !== rows.rowNumbers.length) throw new RangeError('Every row needs its row number.');
      const out: CutChunk[] = [];
      for (let from = 0; from < rows.rows.length; from += chunkRows) {
        const slice = rows.rows.slice(from, from + chunkRows);
        out.push({
          body: { format: 'csv', csv: toCsv(rows.headers, slice) },
          rowNumbers: rows.rowNumbers.slice(from, from + chunkRows),
          withoutReference: countWithoutReference(rows.headers, slice),
        });
      }
      return out;
    }
    case 'json': {
      if (rows.requests.length !== rows.rowNumbers.length) throw new RangeError('Every request needs its row number.');
      const out: CutChunk[] = [];
      for (let from = 0; from < rows.requests.length; from += chunkRows) {
        const slice = rows.requests.slice(from, from + chunkRows);
        out.push({ body: { format: 'json', requests: slice }, rowNumbers: rows.rowNumbers.slice(from, from + chunkRows), withoutReference: jsonWithoutReference(slice) });
      }
      return out;
    }
  }
}

/**
 * Cuts a chunk the service refused for a size or row cap into pieces of at most `pieceRows`
 * (default: two halves). Order is kept and no row is lost. A one-row chunk cannot be split.
 */
export function splitChunkBody(body: ChunkBody, rowNumbers: number[], pieceRows?: number): CutChunk[] | null {
  if (rowNumbers.length < 2) return null;
  const size = Math.max(1, Math.min(pieceRows ?? Math.ceil(rowNumbers.length / 2), Math.ceil(rowNumbers.length / 2)));
  if (body.format === 'json') {
    return cutIntoChunks({ format: 'json', requests: body.requests, rowNumbers }, size);
  }
  const parsed = Papa.parse<string[]>(body.csv, { delimiter: CHUNK_DELIMITER, skipEmptyLines: false });
  const [headers = [], ...data] = parsed.data;
  // unparse ends without a newline, so every parsed line after the header is a row.
  if (data.length !== rowNumbers.length) throw new Error(`The chunk's CSV has ${data.length} rows but ${rowNumbers.length} row numbers.`);
  return cutIntoChunks({ format: 'csv', headers, rows: data, rowNumbers }, size);
}
