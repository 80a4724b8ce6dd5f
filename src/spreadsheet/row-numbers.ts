import { clampIndex, lastAtOrBefore } from './array-index';

/**
 * The file's number of each row read (its line in a text file, its row in a sheet), for messages
 * a person can check. A plain array is one; LineNumbers is one kept as runs.
 */
export interface RowNumbers {
  readonly length: number;
  /** As Array.prototype.at: from the end when negative; undefined outside the rows. */
  at(index: number): number | undefined;
  /** As Array.prototype.slice. */
  slice(start?: number, end?: number): number[];
}

/**
 * Line numbers kept as runs: within a run, a row's line is its index plus the run's offset. A file
 * of one row a line is one run, and each blank line or cell broken over lines starts another, so a
 * million rows take a few numbers instead of an array of 4 MB. Rows that break the run at nearly
 * every row are kept as a plain array once runs would take more.
 */
export class LineNumbers implements RowNumbers {
  /** The first row of each run, ascending, and line − row within it. */
  private runRows: number[] = [];
  private runOffsets: number[] = [];
  /** Every row's line, once the runs would outgrow it. */
  private lines: number[] | null = null;
  private count = 0;

  get length(): number {
    return this.count;
  }

  push(line: number): void {
    const row = this.count++;
    if (this.lines) {
      this.lines.push(line);
      return;
    }
    if (this.runOffsets.at(-1) === line - row) return;
    this.runRows.push(row);
    this.runOffsets.push(line - row);
    // A run costs two numbers, a plain line one.
    if (this.runRows.length * 2 > this.count + 64) {
      this.lines = this.slice();
      this.runRows = [];
      this.runOffsets = [];
    }
  }

  at(index: number): number | undefined {
    const whole = Math.trunc(index) || 0;
    const row = whole < 0 ? this.count + whole : whole;
    if (!(row >= 0 && row < this.count)) return undefined;
    if (this.lines) return this.lines[row];
    return row + (this.runOffsets[lastAtOrBefore(this.runRows, row)] ?? 0);
  }

  slice(start = 0, end = this.count): number[] {
    const from = clampIndex(start, this.count);
    const to = clampIndex(end, this.count);
    if (this.lines) return this.lines.slice(from, to);
    const out: number[] = [];
    for (let row = from; row < to; row++) out.push(this.at(row) ?? row + 1);
    return out;
  }

  /** Once every line is pushed: a plain array grown by push keeps up to half its length spare. */
  finish(): void {
    if (this.lines) this.lines = this.lines.slice();
  }
}
