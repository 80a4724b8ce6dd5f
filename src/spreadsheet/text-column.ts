const encoder = new TextEncoder();
const decoder = new TextDecoder();
/** Values up to this many bytes, all ASCII, are read back without a decoder call: most references and numbers. */
const SHORT_ASCII = 64;

/**
 * One short text per row of a large table (a reference, a tracking number), as UTF-8 in one
 * growing buffer with a start and a length per row. A million strings would each cost a heap
 * object, and one cut from a file's text would keep that whole text alive; this costs the
 * bytes and eight more per row. A value set again is appended; the old bytes stay unused.
 */
export class TextColumn {
  private bytes = new Uint8Array(4096);
  private used = 0;
  private readonly starts: Int32Array;
  private readonly lengths: Int32Array;

  constructor(rows: number) {
    this.starts = new Int32Array(rows);
    this.lengths = new Int32Array(rows);
  }

  set(row: number, value: string): void {
    if (row < 0 || row >= this.lengths.length) return;
    if (value === '') {
      this.lengths[row] = 0;
      return;
    }
    // UTF-8 takes at most three bytes per UTF-16 code unit.
    const most = value.length * 3;
    if (this.used + most > this.bytes.length) this.grow(this.used + most);
    const { written } = encoder.encodeInto(value, this.bytes.subarray(this.used));
    this.starts[row] = this.used;
    this.lengths[row] = written;
    this.used += written;
  }

  get(row: number): string {
    const length = this.lengths[row] ?? 0;
    if (length === 0) return '';
    const start = this.starts[row] ?? 0;
    const bytes = this.bytes.subarray(start, start + length);
    if (length <= SHORT_ASCII) {
      let ascii = true;
      for (let i = 0; i < length; i++) if ((bytes[i] ?? 0) >= 0x80) ascii = false;
      if (ascii) return String.fromCharCode(...bytes);
    }
    return decoder.decode(bytes);
  }

  private grow(atLeast: number): void {
    let size = this.bytes.length * 2;
    while (size < atLeast) size *= 2;
    // Past 2 GiB an Int32Array cannot point: the worker tells the person the file is too large.
    if (size > 2 ** 31) throw new RangeError('A column of the review outgrew its buffer.');
    const bytes = new Uint8Array(size);
    bytes.set(this.bytes.subarray(0, this.used));
    this.bytes = bytes;
  }
}
