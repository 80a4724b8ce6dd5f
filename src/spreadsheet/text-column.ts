const encoder = new TextEncoder();
const decoder = new TextDecoder();
/** Rows set before the buffer is sized from their average length. */
const SAMPLE_ROWS = 1000;
/** Values up to this many bytes, all ASCII, are read back without a decoder call: most references and numbers. */
const SHORT_ASCII = 64;

/**
 * One short text per row of a large table (a reference), as UTF-8 in one growing buffer, the
 * rows in order, with where each ends. A million strings would each cost a heap object, and one
 * cut from a file's text would keep that whole text alive; this costs the bytes and four more
 * per row. The check sets rows in order; a row set again (an edit) is kept apart, as a string.
 */
export class TextColumn {
  private bytes = new Uint8Array(4096);
  /** Rows set in order so far: row r's bytes end at ends[r] and start where row r − 1's end. */
  private inOrder = 0;
  private readonly ends: Int32Array;
  private readonly setAgain = new Map<number, string>();

  constructor(rows: number) {
    this.ends = new Int32Array(rows);
  }

  set(row: number, value: string): void {
    if (row < 0 || row >= this.ends.length) return;
    // UTF-8 has no lone surrogate (an XLSX escape can make one): such a value is kept as it is.
    if (row !== this.inOrder || !value.isWellFormed()) {
      this.setAgain.set(row, value);
      return;
    }
    const used = this.startOf(row);
    // UTF-8 takes at most three bytes per UTF-16 code unit.
    const most = value.length * 3;
    if (used + most > this.bytes.length) this.grow(used + most);
    // ASCII (nearly every reference) copied by hand: the encoder is a call into the browser per value.
    const { bytes } = this;
    let end = used;
    for (let i = 0; i < value.length && end >= 0; i++) {
      const code = value.charCodeAt(i);
      if (code < 0x80) bytes[end++] = code;
      else end = -1;
    }
    if (end < 0) end = used + encoder.encodeInto(value, bytes.subarray(used)).written;
    this.ends[row] = end;
    this.inOrder++;
    if (this.setAgain.size > 0) this.setAgain.delete(row);
  }

  get(row: number): string {
    if (this.setAgain.size > 0) {
      const again = this.setAgain.get(row);
      if (again !== undefined) return again;
    }
    if (row < 0 || row >= this.inOrder) return '';
    const start = this.startOf(row);
    const bytes = this.bytes.subarray(start, this.ends[row] ?? start);
    if (bytes.length <= SHORT_ASCII) {
      let ascii = true;
      for (let i = 0; i < bytes.length; i++) if ((bytes[i] ?? 0) >= 0x80) ascii = false;
      // apply, not a spread: a typed array is array-like, and spreading it goes through its iterator, several times slower.
      if (ascii) return String.fromCharCode.apply(null, bytes as unknown as number[]);
    }
    return decoder.decode(bytes);
  }

  private startOf(row: number): number {
    return row === 0 ? 0 : (this.ends[row - 1] ?? 0);
  }

  private grow(atLeast: number): void {
    // Once a thousand rows are set, room for every row at their average length and a tenth more:
    // rows are set in order, so the buffer is grown about once more and ends near its use, where
    // doubling leaves up to half of it unused and copies it at each step. Doubling before, and
    // when that room would pass a gigabyte (long values first say little of the rest).
    const used = this.startOf(this.inOrder);
    const forEveryRow = this.inOrder >= SAMPLE_ROWS ? Math.ceil((used / this.inOrder) * this.ends.length * 1.1) : 0;
    const grown = forEveryRow > 0 && forEveryRow <= 2 ** 30 ? Math.max(forEveryRow, Math.ceil(this.bytes.length * 1.25)) : this.bytes.length * 2;
    const size = Math.max(atLeast, grown);
    // Past 2 GiB an Int32Array cannot point: the worker tells the person the file is too large.
    if (size > 2 ** 31) throw new RangeError('A column of the review outgrew its buffer.');
    const bytes = new Uint8Array(size);
    bytes.set(this.bytes.subarray(0, used));
    this.bytes = bytes;
  }
}
