import { describe, expect, it } from 'vitest';
import { suggestColumnMapping } from './column-mapping';
import { userRows } from './sample-rows';
import { validateRow } from './validate-row';
import {
  acceptFixes,
  beginReviewTable,
  cellIssues,
  createReviewTable,
  excludeRows,
  findAndReplace,
  readRow,
  type ReviewTable,
  restoreRows,
  rowNumberOf,
  rowsWhere,
  setCell,
  setColumnValue,
  undo,
} from './review-table';

function tableOf(rows: string[][], headerRow = 0) {
  const header = rows[headerRow] ?? [];
  return createReviewTable({ rows, rowNumbers: rows.map((_, i) => i + 1) }, headerRow, suggestColumnMapping(header));
}

/** The shown (normalized) values of one review column, row by row. */
function valuesOf(table: ReviewTable, column: number): string[] {
  return Array.from({ length: table.counts.rows }, (_, row) => readRow(table, row).values[column] ?? '');
}

/** Each row as shown: values, issues and flags, what a grid and a submission read. */
function shown(table: ReviewTable) {
  return Array.from({ length: table.counts.rows }, (_, row) => ({ ...readRow(table, row), flags: table.flags[row] }));
}

const HEADER = ['tracking_number', 'tracking_type', 'reference', 'carrier', 'PO'];

describe('beginReviewTable', () => {
  it('checked a block at a time, ends with the table built at once, duplicates included', () => {
    const rows = [HEADER, ...Array.from({ length: 25 }, (_, i) => [`CSQU30543${String(i % 10).padStart(2, '0')}`, 'container', `R${i % 7}`, i % 3 ? 'maeu' : '', ''])];
    const rowNumbers = rows.map((_, i) => i + 1);
    const whole = createReviewTable({ rows, rowNumbers }, 0, suggestColumnMapping(HEADER));
    const check = beginReviewTable({ rows, rowNumbers }, 0, suggestColumnMapping(HEADER));
    expect(check.checkUntil(10)).toBe(false);
    expect(check.checkedRows).toBe(10);
    // Before the last row, no row is said to clash: duplicates need every row.
    expect(Array.from({ length: 10 }, (_, row) => readRow(check.table, row).issues).flat().filter((issue) => issue.code === 'duplicate_reference')).toEqual([]);
    expect(check.table.counts.readyRows + check.table.counts.errorRows).toBe(10);
    expect(check.checkUntil(24)).toBe(false);
    expect(check.checkUntil(1000)).toBe(true);
    expect(check.checkedRows).toBe(25);
    expect(shown(check.table)).toEqual(shown(whole));
    expect(check.table.counts).toEqual(whole.counts);
    expect(shown(whole).some((row) => row.issues.some((issue) => issue.code === 'duplicate_reference'))).toBe(true);
    // Checked again, nothing changes (duplicates are not flagged twice).
    expect(check.checkUntil(1000)).toBe(true);
    expect(shown(check.table)).toEqual(shown(whole));
  });
});

describe('createReviewTable', () => {
  it('names the numbers of a text file as lines in its messages', () => {
    const rows = [HEADER, ['CSQU3054383', 'container', 'R1', 'MAEU', ''], ['CSQU3054383', 'container', 'R1', 'MAEU', '']];
    const table = createReviewTable({ rows, rowNumbers: [1, 2, 3] }, 0, suggestColumnMapping(HEADER), { rowWord: 'line' });
    expect(cellIssues(table, 0, 'reference')[0]?.message).toBe('reference: “R1” is also on line 3; later rows would overwrite earlier ones.');
  });

  it('maps, normalizes and validates every row, with counts', () => {
    const table = tableOf([
      HEADER,
      ['CSQU3054383', 'container', 'R1', 'maeu', 'x'],
      ['CSQU3054384', 'container', 'R2', '', ''],
      ['MAEU123456789', 'BL', 'R3', 'MAEU', ''],
      ['', 'booking', 'R4', 'MSCU', ''],
    ]);
    expect(table.columns).toEqual(['tracking_number', 'tracking_type', 'reference', 'carrier', 'name', 'viewers', 'tags', 'assignees']);
    expect(valuesOf(table, 3)).toEqual(['MAEU', '', 'MAEU', 'MSCU']);
    expect(valuesOf(table, 1)[2]).toBe('bill_of_lading');
    expect(readRow(table, 0).issues.find((issue) => issue.column === 'carrier')?.original).toBe('maeu');
    expect(rowsWhere(table, 'all').map((row) => rowNumberOf(table, row))).toEqual([2, 3, 4, 5]);
    expect(table.counts).toEqual({ rows: 4, errorRows: 2, warningRows: 0, autoFixedRows: 2, excludedRows: 0, readyRows: 2 });
    expect(rowsWhere(table, 'errors')).toEqual([1, 3]);
    expect(rowsWhere(table, 'auto_fixed')).toEqual([0, 2]);
    expect(cellIssues(table, 1, 'tracking_number')[0]?.message).toBe('tracking_number: check digit should be 3.');
  });

  it('leaves out the rows above the header', () => {
    const table = tableOf([['Weekly export'], HEADER, ['CSQU3054383', 'container', 'R1', '', '']], 1);
    expect(table.counts.rows).toBe(1);
    expect(rowsWhere(table, 'all').map((row) => rowNumberOf(table, row))).toEqual([3]);
  });

  it('flags every row sharing a reference, and keeps that right through edits and exclusions', () => {
    const table = tableOf([
      HEADER,
      ['CSQU3054383', 'container', 'R1', '', ''],
      ['CSQU3054383', 'container', 'R1', '', ''],
      ['CSQU3054383', 'container', 'R2', '', ''],
    ]);
    expect(rowsWhere(table, 'errors')).toEqual([0, 1]);
    expect(cellIssues(table, 0, 'reference')[0]?.message).toBe('reference: “R1” is also on row 3; later rows would overwrite earlier ones.');

    setCell(table, 1, 'reference', 'R2');
    expect(rowsWhere(table, 'errors')).toEqual([1, 2]);
    expect(cellIssues(table, 2, 'reference')[0]?.message).toBe('reference: “R2” is also on row 3; later rows would overwrite earlier ones.');

    excludeRows(table, [2]);
    expect(rowsWhere(table, 'errors')).toEqual([]);
    expect(table.counts).toMatchObject({ errorRows: 0, excludedRows: 1, readyRows: 2 });

    restoreRows(table, [2]);
    expect(rowsWhere(table, 'errors')).toEqual([1, 2]);
    undo(table); // the restore
    undo(table); // the exclusion
    undo(table); // the edit
    expect(rowsWhere(table, 'errors')).toEqual([0, 1]);
    expect(valuesOf(table, 2)).toEqual(['R1', 'R1', 'R2']);
    expect(undo(table)).toBe(false);
  });

  it('revalidates an edited row at once and undoes the edit with its auto-fix', () => {
    const table = tableOf([HEADER, ['CSQU3054383', 'container', 'R1', ' maeu ', '']]);
    expect(table.counts.autoFixedRows).toBe(1);
    setCell(table, 0, 'carrier', 'Maersk');
    expect(valuesOf(table, 3)[0]).toBe('Maersk');
    expect(table.counts).toMatchObject({ errorRows: 1, autoFixedRows: 0 });
    expect(acceptFixes(table, [0])).toBe(1);
    expect(valuesOf(table, 3)[0]).toBe('MAEU');
    expect(table.counts).toMatchObject({ errorRows: 0, readyRows: 1 });
    undo(table);
    undo(table);
    expect(valuesOf(table, 3)[0]).toBe('MAEU');
    expect(readRow(table, 0).issues.find((issue) => issue.column === 'carrier')?.original).toBe(' maeu ');
    expect(table.counts.autoFixedRows).toBe(1);
  });

  it('sets a column for a list of rows in one step', () => {
    const table = tableOf([HEADER, ['MAEU123456789', '', 'R1', '', ''], ['MAEU987654321', '', 'R2', '', ''], ['CSQU3054383', 'container', 'R3', '', '']]);
    expect(table.counts.errorRows).toBe(2);
    setColumnValue(table, rowsWhere(table, 'errors'), 'tracking_type', 'bill_of_lading');
    // The B/L rows' empty carrier is filled in from the number's SCAC prefix, as an auto-fix.
    expect(table.counts).toMatchObject({ errorRows: 0, warningRows: 0, autoFixedRows: 2 });
    expect(table.version).toBeGreaterThan(0);
    undo(table);
    expect(table.counts.errorRows).toBe(2);
  });

  it('finds and replaces in shown values, by column and case', () => {
    const table = tableOf([HEADER, ['CSQU3054383', 'container', 'po-1', '', ''], ['CSQU3054383', 'container', 'PO-2', '', '']]);
    expect(findAndReplace(table, { find: 'po-', replace: 'SO-', columns: ['reference'] })).toBe(2);
    expect(valuesOf(table, 2)).toEqual(['SO-1', 'SO-2']);
    expect(findAndReplace(table, { find: 'SO-1', replace: 'X', matchCase: true, wholeCell: true })).toBe(1);
    expect(valuesOf(table, 2)).toEqual(['X', 'SO-2']);
    expect(findAndReplace(table, { find: 'nothing', replace: 'y' })).toBe(0);
    undo(table);
    expect(valuesOf(table, 2)).toEqual(['SO-1', 'SO-2']);
  });

  it('accepts fixes of one kind only when asked', () => {
    const table = tableOf([HEADER, ['CSQU3054384', 'containr', 'R1', 'Maersk', '']]);
    expect(acceptFixes(table, [0], 'invalid_carrier')).toBe(1);
    expect(valuesOf(table, 3)[0]).toBe('MAEU');
    expect(valuesOf(table, 1)[0]).toBe('containr');
    expect(acceptFixes(table, [0])).toBe(1);
    expect(valuesOf(table, 1)[0]).toBe('container');
    // The check digit can be judged only once the type is known: a third round fixes it.
    expect(acceptFixes(table, [0])).toBe(1);
    expect(table.counts.readyRows).toBe(1);
  });

  it('leaves the table as it was when a row cannot be read for an edit (a file moved on disk)', () => {
    const rows = [HEADER, ['CSQU3054383', 'container', 'R1', '', ''], ['CSQU3054383', 'container', 'R1', '', '']];
    let readable = true;
    const source = {
      length: rows.length,
      slice: (start: number, end: number) => {
        if (!readable) throw new DOMException('The file could not be read.', 'NotReadableError');
        return rows.slice(start, end);
      },
    };
    const table = createReviewTable({ rows: source, rowNumbers: [1, 2, 3] }, 0, suggestColumnMapping(HEADER));
    const before = { counts: { ...table.counts }, flags: [...table.flags] };
    readable = false;
    // Another row than the one the table read last: it has to be read from the file.
    table.sourceWindow = { from: 0, rows: [] };
    expect(() => setCell(table, 1, 'reference', 'R2')).toThrow('The file could not be read.');
    expect({ counts: table.counts, flags: [...table.flags] }).toEqual(before);
    expect(table.history).toEqual([]);
    readable = true;
    expect(rowsWhere(table, 'errors')).toEqual([0, 1]);
    expect(valuesOf(table, 2)).toEqual(['R1', 'R1']);
    expect(cellIssues(table, 1, 'reference')[0]?.message).toBe('reference: “R1” is also on row 2; later rows would overwrite earlier ones.');
  });

  it('gives every row the values and issues validateRow gives its cells, the rows without any issue included', () => {
    const rows = userRows(3000);
    const table = createReviewTable({ rows, rowNumbers: rows.map((_, i) => i + 1) }, 0, suggestColumnMapping(rows[0] ?? [], { customFieldSlugs: ['po_number', 'eta'] }));
    setCell(table, 5, 'carrier', ' maeu ');
    setCell(table, 6, 'name', 'Edited, clean');
    let clean = 0;
    for (let row = 0; row < table.counts.rows; row++) {
      const raw = table.sourceColumns.map((from, c) => table.edits[c]?.get(row) ?? (from >= 0 ? (rows[row + 1]?.[from] ?? '') : ''));
      const out: string[] = [];
      const own = validateRow(row, raw, out, table.context) ?? [];
      const shown = readRow(table, row);
      expect(shown.values).toEqual(out);
      expect(shown.issues.filter((issue) => issue.code !== 'duplicate_reference')).toEqual(own);
      if (table.flags[row] === 0) clean++;
    }
    expect(clean).toBeGreaterThan(1000);
  });
});
