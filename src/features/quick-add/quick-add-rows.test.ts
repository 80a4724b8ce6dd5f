import { describe, expect, it } from 'vitest';
import { MAX_QUICK_ADD_ROWS, checkQuickAdd, emptyRow, pasteRows, toRequests } from './quick-add-rows';

const grid = (n: number) => Array.from({ length: n }, emptyRow);

describe('checkQuickAdd', () => {
  it('sends clean rows as list entries with normalized values and leaves blank rows out', () => {
    const check = checkQuickAdd([
      ['PO-1', ' csqu 305438-3 ', 'Container', 'maeu', 'First'],
      ['', '', '', '', ''],
      ['PO-2', 'MAEU123456789', 'BL', 'MAEU', ''],
    ]);
    expect(check.filled).toBe(2);
    expect(check.errorRows).toBe(0);
    expect(check.rows[0]?.issues.tracking_number?.map((i) => i.level)).toEqual(['auto_fix']);
    expect(check.rows[0]?.issues.carrier_scac?.[0]?.message).toBe('carrier_scac: changed “maeu” to “MAEU” (upper-cased).');
    expect(toRequests(check)).toEqual({
      requests: [
        { reference: 'PO-1', tracking_number: 'CSQU3054383', tracking_type: 'container', carrier_scac: 'MAEU', name: 'First' },
        { reference: 'PO-2', tracking_number: 'MAEU123456789', tracking_type: 'bill_of_lading', carrier_scac: 'MAEU' },
      ],
      rowNumbers: [1, 3],
    });
  });

  it('applies the file rules (check digit, carrier names, duplicate references) with their fixes', () => {
    const check = checkQuickAdd([
      ['PO-1', 'CSQU3054384', 'container', 'Maersk', ''],
      ['PO-1', 'CSQU3054383', 'container', 'AUTO', ''],
    ]);
    expect(check.errorRows).toBe(2);
    expect(check.rows[0]?.issues.tracking_number).toEqual([
      { level: 'error', message: 'tracking_number: check digit should be 3.', fix: 'CSQU3054383' },
    ]);
    expect(check.rows[0]?.issues.carrier_scac?.[0]).toMatchObject({ level: 'error', fix: 'MAEU', message: 'carrier_scac: “Maersk” is a name, not a SCAC; Maersk → MAEU.' });
    expect(check.rows[1]?.issues.reference?.[0]?.message).toMatch(/“PO-1” is also on row 1/);
    expect(() => toRequests(check)).toThrow(/errors/);
  });

  it('requires what the list endpoint requires: a reference, and a carrier (a B/L takes its prefix, visibly)', () => {
    const check = checkQuickAdd([
      ['', 'MAEU123456789', 'bill_of_lading', '', ''],
      ['C-1', 'CSQU3054383', 'container', '', ''],
    ]);
    expect(check.rows[0]?.issues.reference).toEqual([{ level: 'error', message: 'reference: empty; the list import needs your own reference for every shipment.' }]);
    expect(check.rows[0]?.issues.carrier_scac?.map((issue) => issue.level)).toEqual(['auto_fix']);
    expect(check.rows[0]?.issues.carrier_scac?.[0]?.message).toMatch(/^carrier_scac: empty; set to MAEU \(Maersk\)/);
    expect(check.rows[0]?.values[3]).toBe('MAEU');
    expect(check.rows[1]?.issues.carrier_scac).toEqual([{ level: 'error', message: 'carrier_scac: empty; the list import needs a SCAC, or AUTO for a container.' }]);
  });

  it('allows AUTO for containers only', () => {
    const check = checkQuickAdd([
      ['A', 'CSQU3054383', 'container', 'auto', ''],
      ['B', 'MAEU123456789', 'booking', 'AUTO', ''],
    ]);
    expect(check.rows[0]?.hasError).toBe(false);
    expect(check.rows[1]?.issues.carrier_scac?.[0]?.message).toBe('carrier_scac: AUTO is allowed only when tracking_type is container.');
  });
});

describe('pasteRows', () => {
  it('fills right and down from the focused cell, as a spreadsheet does', () => {
    const { rows, notes } = pasteRows(grid(2), { row: 1, column: 1 }, 'CSQU3054383\tcontainer\tMAEU\r\nMAEU123456789\tbill_of_lading\tMAEU\r\n');
    expect(rows).toEqual([
      ['', '', '', '', ''],
      ['', 'CSQU3054383', 'container', 'MAEU', ''],
      ['', 'MAEU123456789', 'bill_of_lading', 'MAEU', ''],
    ]);
    expect(notes).toEqual([]);
  });

  it('reads a header row and places each column under its field, whatever the source order', () => {
    const text = 'Container No\tRef\tSCAC\tComments\nCSQU3054383\tPO-1\tMAEU\tfragile\n';
    const { rows, notes } = pasteRows(grid(1), { row: 0, column: 3 }, text);
    expect(rows).toEqual([['PO-1', 'CSQU3054383', '', 'MAEU', '']]);
    expect(notes).toEqual(['Read the first line as a header; left out “Comments”.']);
  });

  it('keeps quoted cells with tabs and line breaks whole', () => {
    const { rows } = pasteRows(grid(1), { row: 0, column: 4 }, '"two\nlines"');
    expect(rows[0]?.[4]).toBe('two\nlines');
  });

  it('says which pasted columns did not fit', () => {
    const { rows, notes } = pasteRows(grid(1), { row: 0, column: 3 }, 'MAEU\tName\textra\tmore');
    expect(rows[0]).toEqual(['', '', '', 'MAEU', 'Name']);
    expect(notes).toEqual(['Left out the last 2 columns of the pasted cells: the grid ends at name.']);
  });

  it(`stops at ${MAX_QUICK_ADD_ROWS} rows and says how many were left out`, () => {
    const text = Array.from({ length: MAX_QUICK_ADD_ROWS + 20 }, (_, i) => `R${i}\tCSQU3054383`).join('\n');
    const { rows, notes } = pasteRows(grid(3), { row: 2, column: 0 }, text);
    expect(rows).toHaveLength(MAX_QUICK_ADD_ROWS);
    expect(rows.at(-1)?.[0]).toBe(`R${MAX_QUICK_ADD_ROWS - 3}`);
    expect(notes).toEqual([`Kept 498 of the 520 pasted rows: quick add takes up to ${MAX_QUICK_ADD_ROWS} shipments. Import a file for more.`]);
  });
});
