import { SpreadsheetReadError } from './read-error';
import { CsvRowsOut, CsvScan, csvGrammar, detectDelimiter, scanCsvRows, throwColumnViolation } from './read-csv';
import type { CellKeeper, CsvGrammar } from './read-csv';
import { checkRowCount } from './table-limits';
import type { TableLimits } from './table-limits';
import { clampIndex, lastAtOrBefore } from './array-index';
import { LineNumbers } from './row-numbers';

/** Synchronous random access to a file's bytes. */
export interface ByteSource {
  readonly size: number;
  read(start: number, end: number): Uint8Array;
}

export function bytesSource(bytes: Uint8Array): ByteSource {
  return { size: bytes.length, read: (start, end) => bytes.subarray(start, end) };
}

/**
 * The source read a window of WINDOW_BYTES at a time: the blocks in it are views of one read.
 * Reads in order (the index, the check) and near each other (a grid scrolling) ask the source
 * once per window instead of once per block.
 */
function windowed(source: ByteSource, windowBytes: number): ByteSource {
  // The window read last and the one before it: a block begun in the one and ended in the other
  // (the index hashes each block it cuts) is joined from both, not read from the file again.
  let window = { from: 0, bytes: new Uint8Array(0) as Uint8Array };
  let before = window;
  const holds = ({ from, bytes }: typeof window, start: number, end: number) => start >= from && end <= from + bytes.length;
  return {
    size: source.size,
    read(start, end) {
      if (holds(window, start, end)) return window.bytes.subarray(start - window.from, end - window.from);
      if (holds(before, start, end)) return before.bytes.subarray(start - before.from, end - before.from);
      if (start >= before.from && start < window.from && holds(before, start, window.from) && holds(window, window.from, end)) {
        const joined = new Uint8Array(end - start);
        joined.set(before.bytes.subarray(start - before.from, window.from - before.from));
        joined.set(window.bytes.subarray(0, end - window.from), window.from - start);
        return joined;
      }
      before = window;
      window = { from: start, bytes: source.read(start, Math.min(source.size, Math.max(end, start + windowBytes))) };
      return window.bytes.subarray(0, end - start);
    },
  };
}

/** A table's rows, held in memory (a plain string[][]) or read back from its file (FileRows). */
export interface TableRows {
  readonly length: number;
  slice(start: number, end: number): readonly (readonly string[])[];
}

/**
 * About the size of a block, the unit rows are decoded and read back in. Small, because a block's
 * text (twice its bytes when a cell holds a character past Latin-1) is garbage once its rows are
 * read: a short text is young garbage the worker's heap collects at once, a text of megabytes is
 * old garbage the renderer holds until a full collection.
 */
const BLOCK_BYTES = 60 * 2 ** 10;
/** Bytes asked of the source at a time: each ask of a File is a round trip to the browser process. */
const WINDOW_BYTES = 2 * 2 ** 20;
/** Characters papaparse guesses the line break from (detectDelimiter needs far fewer). */
const HEAD_CHARS = 2 ** 20;
/** V8 makes a slice of this many characters or more a view that keeps its whole text alive. */
const SLICE_VIEW_LENGTH = 13;

// ignoreBOM: a U+FEFF that starts a block is text; the file's own byte order mark is skipped by offset.
const lenientUtf8 = new TextDecoder('utf-8', { ignoreBOM: true });
const strictUtf8 = new TextDecoder('utf-8', { ignoreBOM: true, fatal: true });

/**
 * Cells as strings of their own: a row the review keeps must not keep its block's text alive.
 * Concatenation then slice makes V8 copy the cell into a new flat string first.
 */
const OWN_CELLS: CellKeeper = { keep: (_column, value) => (value.length < SLICE_VIEW_LENGTH ? value : (' ' + value).slice(1)) };

/** What a file says once it no longer holds the bytes it was indexed from. */
const CHANGED_ON_DISK = 'The file changed or moved on your disk since it was dropped; drop it again.';

/**
 * A hash of a block's bytes, four at a time: a block read back must be the block indexed. A
 * browser may read a file changed on disk since the drop without an error, and rows cut at the
 * old offsets would be other rows, shown and sent as if they were these.
 */
function hashOfBlock(bytes: Uint8Array): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const words = bytes.byteLength & ~3;
  let hash = 0x811c9dc5 ^ bytes.byteLength;
  for (let at = 0; at < words; at += 4) hash = Math.imul(hash ^ view.getUint32(at, true), 0x01000193);
  for (let at = words; at < bytes.byteLength; at++) hash = Math.imul(hash ^ (bytes[at] ?? 0), 0x01000193);
  return hash | 0;
}

/** Where each row is: blocks of whole rows (their bytes), and each row's offset in its block's text. */
class RowIndex {
  /** Blocks' first rows, ascending, their byte ranges and the hashes of their bytes. */
  readonly blockRows: number[] = [];
  readonly blockStarts: number[] = [];
  readonly blockEnds: number[] = [];
  readonly blockHashes: number[] = [];
  /**
   * Per row, the character its text starts at in its block's decoded text: 16 bits while every
   * block's text is shorter than 65,536 characters (BLOCK_BYTES leaves room for the row a block
   * begins with), 32 once one is not (a row of thousands of characters).
   */
  starts: Uint16Array | Uint32Array = new Uint16Array(1024);
  length = 0;

  /** Adds a block's rows (where each starts in its text), keeping at most `keep` rows in all. */
  addBlock(start: number, end: number, hash: number, rowStarts: number[], keep: number): void {
    const adding = Math.min(rowStarts.length, keep - this.length);
    if (adding <= 0) return;
    // Starts ascend: the last one kept is the largest.
    const widen = this.starts instanceof Uint16Array && (rowStarts[adding - 1] ?? 0) > 0xffff;
    if (widen || this.length + adding > this.starts.length) {
      const size = Math.max(this.length + adding, this.starts.length * 2);
      const grown = widen || this.starts instanceof Uint32Array ? new Uint32Array(size) : new Uint16Array(size);
      grown.set(this.starts.subarray(0, this.length));
      this.starts = grown;
    }
    this.blockRows.push(this.length);
    this.blockStarts.push(start);
    this.blockEnds.push(end);
    this.blockHashes.push(hash);
    this.starts.set(adding === rowStarts.length ? rowStarts : rowStarts.slice(0, adding), this.length);
    this.length += adding;
  }

  /** The block holding a row: the last whose first row is at or before it. */
  blockOf(row: number): number {
    return lastAtOrBefore(this.blockRows, row);
  }

  /** The end of a block's rows: the next block's first row. */
  blockRowsEnd(block: number): number {
    return this.blockRows[block + 1] ?? this.length;
  }

  finish(): void {
    this.starts = this.starts.slice(0, this.length);
  }
}

/**
 * The rows of a CSV file, read back from the file when asked for: the same rows readCsv would
 * give for its text, row 0 its first non-empty one. Holds the file's bytes (a source), an index
 * of 2 bytes a row (4 once a block's text is too long for 16 bits) and the decoded text of the
 * last two blocks it read (about BLOCK_BYTES each), so a grid scrolling within a window, or a walk
 * through the rows in order, decodes each block once. Cells come out as strings of their own, never views of a block's text.
 */
export class FileRows implements TableRows {
  /** The last two blocks decoded, the most recent first. */
  private readonly decoded: { block: number; text: string }[] = [];

  constructor(
    private readonly source: ByteSource,
    private readonly grammar: CsvGrammar,
    private readonly limits: TableLimits,
    private readonly index: RowIndex,
  ) {}

  get length(): number {
    return this.index.length;
  }

  slice(start: number, end: number): string[][] {
    const last = clampIndex(end, this.length);
    const rows: string[][] = [];
    for (let row = clampIndex(start, this.length); row < last; ) {
      const block = this.index.blockOf(row);
      const until = Math.min(last, this.index.blockRowsEnd(block));
      const from = this.index.starts[row] ?? 0;
      scanCsvRows(this.blockText(block), from, false, this.grammar, this.limits, new CsvScan(), new CsvRowsOut({ cells: rows, keeper: OWN_CELLS, until: until - row }));
      row = until;
    }
    return rows;
  }

  private blockText(block: number): string {
    const [recent, other] = this.decoded;
    if (recent?.block === block) return recent.text;
    if (other?.block === block) {
      this.decoded.reverse();
      return other.text;
    }
    const bytes = this.source.read(this.index.blockStarts[block] ?? 0, this.index.blockEnds[block] ?? 0);
    if (hashOfBlock(bytes) !== this.index.blockHashes[block]) throw new SpreadsheetReadError('invalid_file', CHANGED_ON_DISK);
    const text = lenientUtf8.decode(bytes);
    this.decoded.unshift({ block, text });
    this.decoded.length = Math.min(this.decoded.length, 2);
    return text;
  }
}

export interface CsvFileTable {
  rows: FileRows;
  rowNumbers: LineNumbers;
  delimiter: string;
  encoding: 'utf-8';
}

export interface ReadCsvFileOptions {
  /** CSV delimiter; by default detected as readCsv does. */
  delimiter?: string;
  /** A WHATWG label; anything but UTF-8 is left to the in-memory reader. */
  encoding?: string;
  signal?: AbortSignal;
  /** Called with the share of the file's bytes read. */
  onProgress?: (fraction: number) => void;
  /** Bytes read at a time and about the size of a block (BLOCK_BYTES); small in tests, so rows straddle both. */
  blockBytes?: number;
  /** Bytes asked of the file at a time (WINDOW_BYTES); small in tests that count the asks. */
  windowBytes?: number;
}

interface TextSlice {
  text: string;
  /** The slice's first byte and the byte after it. */
  start: number;
  end: number;
}

/** The end of the last whole UTF-8 character in bytes (at least one), so a cut there splits none. */
function wholeCharacters(bytes: Uint8Array): number {
  let lead = bytes.length - 1;
  while (lead > 0 && bytes.length - lead < 4 && ((bytes[lead] ?? 0) & 0xc0) === 0x80) lead--;
  const byte = bytes[lead] ?? 0;
  const size = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
  return lead > 0 && lead + size > bytes.length ? lead : bytes.length;
}

/** About `bytes` bytes of the source from `start`, cut on a character boundary and decoded; null if they are not UTF-8. */
function readSlice(source: ByteSource, start: number, bytes: number): TextSlice | null {
  const end = Math.min(source.size, start + bytes);
  const read = source.read(start, end);
  const whole = read.subarray(0, end === source.size ? read.length : wholeCharacters(read));
  const text = lenientUtf8.decode(whole);
  // As decodeText: the lenient decoder is the faster; only a U+FFFD asks for the strict verdict.
  if (text.includes('\uFFFD')) {
    try {
      strictUtf8.decode(whole);
    } catch {
      return null;
    }
  }
  return { text, start, end: start + whole.length };
}

/** UTF-8 bytes of text.slice(from, to), for text decoded from valid UTF-8 (no lone surrogates). */
function utf8Length(text: string, from: number, to: number): number {
  let bytes = to - from;
  for (let at = from; at < to; at++) {
    const code = text.charCodeAt(at);
    if (code >= 0x80) bytes += code < 0x800 || (code & 0xf800) === 0xd800 ? 1 : 2;
  }
  return bytes;
}

/** The byte order mark's length (UTF-8's is skipped), or null for a UTF-16 one. */
function byteOrderMark(source: ByteSource): number | null {
  const [first, second, third] = source.read(0, Math.min(3, source.size));
  if ((first === 0xff && second === 0xfe) || (first === 0xfe && second === 0xff)) return null;
  return first === 0xef && second === 0xbb && third === 0xbf ? 3 : 0;
}

function isUtf8Label(label: string): boolean {
  try {
    return new TextDecoder(label).encoding === 'utf-8';
  } catch {
    return false;
  }
}

/**
 * A large CSV's rows without its text in memory: the file is read a slice at a time to index
 * where each row starts, and FileRows reads rows back from it. The result, errors included, is
 * readCsv's on decodeText's text, with readTable's checks after it (no rows; the row limit).
 * Null whenever that cannot be promised cheaply, for the caller to read the file in memory:
 * text that is not UTF-8 (or a UTF-16 byte order mark, or another encoding asked for), and
 * anything readCsv leaves to papaparse (an unterminated quote, text after a closing quote, a
 * delimiter that is not one plain character).
 */
export function readCsvFile(file: ByteSource, limits: TableLimits, options: ReadCsvFileOptions = {}): CsvFileTable | null {
  const { signal, onProgress } = options;
  const source = windowed(file, options.windowBytes ?? WINDOW_BYTES);
  if (options.encoding !== undefined && !isUtf8Label(options.encoding)) return null;
  const blockBytes = Math.max(4, options.blockBytes ?? BLOCK_BYTES);
  const { size } = source;
  const start = byteOrderMark(source);
  if (start === null) return null;

  // The head decides the delimiter and the line break, as readCsv's detection reads the text's.
  const head: TextSlice[] = [];
  let headChars = 0;
  let position = start;
  while (position < size && headChars <= HEAD_CHARS) {
    signal?.throwIfAborted();
    const slice = readSlice(source, position, blockBytes);
    if (slice === null) return null;
    head.push(slice);
    headChars += slice.text.length;
    position = slice.end;
    onProgress?.(position / size);
  }
  const headText = head.map((slice) => slice.text).join('');
  const delimiter = options.delimiter ?? detectDelimiter(headText);
  const grammar = csvGrammar(headText, delimiter);
  if (grammar === null) return null;

  const index = new RowIndex();
  const rowNumbers = new LineNumbers();
  // More rows than this break the row limit (checkRowCount); they are scanned, not kept.
  const keep = limits.maxRows + 1;
  const scan = new CsvScan();
  // The unfinished row a slice ended inside of, and its first byte: a block ends before it.
  let carry = '';
  let carryStart = start;
  let scanned = start;
  /** The next slice, of `bytes` bytes or more: a row longer than a slice is then scanned again only a few times. */
  const nextSlice = (bytes: number): TextSlice | null => {
    const first = head.shift();
    if (first === undefined) return readSlice(source, scanned, Math.max(blockBytes, bytes));
    let { text, end } = first;
    for (let ahead = head[0]; ahead !== undefined && end - first.start < bytes; ahead = head[0]) {
      text += ahead.text;
      end = ahead.end;
      head.shift();
    }
    return { text, start: first.start, end };
  };
  while (scanned < size) {
    signal?.throwIfAborted();
    const slice = nextSlice(scanned - carryStart);
    if (slice === null) return null;
    scanned = slice.end;
    const piece = carry + slice.text;
    const more = slice.end < size;
    const starts: number[] = [];
    const pieceRowNumbers: number[] = [];
    const stop = scanCsvRows(piece, 0, more, grammar, limits, scan, new CsvRowsOut({ starts, rowNumbers: pieceRowNumbers }));
    if (stop === -1) return null;
    const blockEnd = slice.end - utf8Length(piece, stop, piece.length);
    index.addBlock(carryStart, blockEnd, hashOfBlock(source.read(carryStart, blockEnd)), starts, keep);
    for (const line of pieceRowNumbers) {
      if (rowNumbers.length === keep) break;
      rowNumbers.push(line);
    }
    carry = piece.slice(stop);
    carryStart = blockEnd;
    if (scanned > position) {
      position = scanned;
      onProgress?.(position / size);
    }
  }
  throwColumnViolation(scan);
  if (scan.rowCount === 0) throw new SpreadsheetReadError('invalid_file', 'The file has no rows, only empty lines.');
  checkRowCount(scan.rowCount, limits);
  index.finish();
  rowNumbers.finish();
  return { rows: new FileRows(source, grammar, limits, index), rowNumbers, delimiter, encoding: 'utf-8' };
}
