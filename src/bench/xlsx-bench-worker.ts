// Worker of xlsx-worker.bench.ts and browser.bench.ts: reads a file with one reader, in a
// dedicated Web Worker as the console does, and reports the time. The readers are bundled
// statically so that loading code is not part of any figure.
import * as XLSX from '@e965/xlsx';
import Papa from 'papaparse';
import { readXlsx } from '../spreadsheet/xlsx/read-xlsx';
import { partDecoder, readWorkbookParts } from '../spreadsheet/xlsx/workbook-parts';
import { ZipArchive, openEntryStream } from '../spreadsheet/xlsx/zip-archive';

export type BenchReader = 'reader' | 'reader-fflate' | 'sheetjs' | 'papaparse' | 'inflate' | 'decode';

interface Job {
  /**
   * `reader`: the console's reader as shipped (native inflate); `reader-fflate`: forced onto
   * fflate; `inflate` and `decode`: only the first steps of the console's reader (inflating the
   * shared strings and the first sheet, then also decoding them to text), to show where the
   * time goes; `papaparse`: the text decoded (TextDecoder) and parsed with papaparse's default
   * parse, as a CSV library alone would.
   */
  reader: BenchReader;
  /** The file's bytes, or the file itself (read inside the timing, as the console reads a dropped file). */
  bytes?: Uint8Array;
  file?: Blob;
}

export interface BenchAnswer {
  ms: number;
  /** Rows read, or for `inflate`/`decode` the bytes inflated or characters decoded. */
  rows: number;
}

/** The first steps of readXlsx alone: what scanning adds is the reader's time minus this. */
async function inflateParts(bytes: Uint8Array, decode: boolean): Promise<number> {
  const archive = new ZipArchive(bytes);
  const parts = readWorkbookParts(archive);
  let size = 0;
  for (const entry of [parts.sharedStrings, parts.sheets[0]?.part]) {
    if (!entry) continue;
    const stream = openEntryStream(archive, entry);
    let decoder: TextDecoder | null = null;
    while (!stream.done) {
      for (const chunk of await stream.next()) {
        decoder ??= partDecoder(chunk);
        size += decode ? decoder.decode(chunk, { stream: true }).length : chunk.length;
      }
    }
  }
  return size;
}

self.onmessage = async (event: MessageEvent<Job | { reader: 'ping' }>) => {
  if (event.data.reader === 'ping') {
    self.postMessage({ ms: 0, rows: 0 } satisfies BenchAnswer);
    return;
  }
  const { reader, file } = event.data;
  const start = performance.now();
  const bytes = event.data.bytes ?? new Uint8Array(await (file ?? new Blob()).arrayBuffer());
  let rows: number;
  if (reader === 'reader') {
    rows = (await readXlsx(bytes)).rows.length;
  } else if (reader === 'reader-fflate') {
    rows = (await readXlsx(bytes, { inflate: 'fflate' })).rows.length;
  } else if (reader === 'sheetjs') {
    const book = XLSX.read(bytes, { type: 'array', dense: true });
    const sheet = book.Sheets[book.SheetNames[0] ?? ''];
    rows = sheet ? XLSX.utils.sheet_to_json<string[]>(sheet, { header: 1, raw: false, defval: '' }).length : 0;
  } else if (reader === 'papaparse') {
    rows = Papa.parse<string[]>(new TextDecoder().decode(bytes)).data.length;
  } else {
    rows = await inflateParts(bytes, reader === 'decode');
  }
  const answer: BenchAnswer = { ms: performance.now() - start, rows };
  self.postMessage(answer);
};
