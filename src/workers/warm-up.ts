// The file reader's warm-up: while the page waits for a file, the worker reads and reviews a small
// generated file of the kind people import, and throws the result away. V8 compiles a function
// to fast code only after it has run a while; without this, a person's first file is read and
// checked by code that is still being compiled (the review of 100,000 rows 1.3–1.7× slower cold
// than warm). Nothing of it is kept or shown: not the rows, not the checks' verdicts on its cells.
import Papa from 'papaparse';
import { suggestColumnMapping } from '../spreadsheet/column-mapping';
import { readTable } from '../spreadsheet/read-table';
import { forgetCellVerdicts } from '../spreadsheet/validate-row';
import { userRows } from '../spreadsheet/sample-rows';
import { ReviewSession } from './review-session';

/** Enough rows for the reader's and the checks' hot functions to be compiled (~40 ms cold). */
const WARM_UP_ROWS = 3000;

/** A CSV of rows people import (clean, auto-fixed, warned, wrong), a few of them sharing a reference. */
export function warmUpCsv(rows = WARM_UP_ROWS): string {
  const table = userRows(rows);
  // Duplicate references: the review's other path.
  for (let r = 50; r < table.length; r += 500) {
    const row = table[r];
    if (row) row[2] = table[r - 1]?.[2] ?? '';
  }
  return Papa.unparse(table);
}

/**
 * Reads and reviews the warm-up file as a dropped one would be; the result is dropped, and so are
 * the verdicts the checks keep on its cells: only compiled code stays.
 */
export async function warmUp(): Promise<void> {
  try {
    const read = await readTable(new TextEncoder().encode(warmUpCsv()), 'warm-up.csv');
    const header = read.rows[0] ?? [];
    const session = ReviewSession.build(read, 0, suggestColumnMapping(header, { customFieldSlugs: ['po_number', 'eta'] }));
    session.getRows(0, 100);
    session.prepare(300);
  } finally {
    forgetCellVerdicts();
  }
}
