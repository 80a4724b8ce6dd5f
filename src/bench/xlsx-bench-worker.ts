// Worker of xlsx-worker.bench.ts: reads a workbook with one reader, in a dedicated Web Worker as
// the console does, and reports the time. Both readers are bundled statically so that loading
// code is not part of either figure.
import * as XLSX from '@e965/xlsx';
import { readXlsx } from '../spreadsheet/xlsx/read-xlsx';

interface Job {
  /** `reader`: the console's reader as shipped (native inflate); `reader-fflate`: forced onto fflate. */
  reader: 'reader' | 'reader-fflate' | 'sheetjs';
  bytes: Uint8Array;
}

self.onmessage = async (event: MessageEvent<Job>) => {
  const { reader, bytes } = event.data;
  const start = performance.now();
  let rows: string[][];
  if (reader === 'reader') {
    rows = (await readXlsx(bytes)).rows;
  } else if (reader === 'reader-fflate') {
    rows = (await readXlsx(bytes, { inflate: 'fflate' })).rows;
  } else {
    const book = XLSX.read(bytes, { type: 'array', dense: true });
    const sheet = book.Sheets[book.SheetNames[0] ?? ''];
    rows = sheet ? XLSX.utils.sheet_to_json<string[]>(sheet, { header: 1, raw: false, defval: '' }) : [];
  }
  self.postMessage({ ms: performance.now() - start, rows: rows.length, cells: rows.reduce((n, row) => n + row.length, 0) });
};
