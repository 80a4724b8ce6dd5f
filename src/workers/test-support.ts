// What the workers' tests share: a CSV read of given rows, as readTable would answer it.
import type { TableReadResult } from '../spreadsheet/read-table';

/** A CSV read of these rows (header included), each on the line of its index + 1. */
export function readOf(all: readonly string[][]): TableReadResult {
  return { kind: 'csv', sheets: [{ name: 'f', rowCount: all.length }], sheet: 'f', rows: all as string[][], rowNumbers: all.map((_, i) => i + 1) };
}
