import { describe, expect, it } from 'vitest';
import { suggestColumnMapping } from '../spreadsheet/column-mapping';
import { readTable } from '../spreadsheet/read-table';
import { ReviewSession } from './review-session';
import { warmUpCsv } from './warm-up';

describe('the file reader’s warm-up file', () => {
  it('is read and checked along the paths a person’s file takes: clean rows, auto-fixes, warnings, errors and duplicates', async () => {
    const read = await readTable(new TextEncoder().encode(warmUpCsv()), 'warm-up.csv');
    const header = read.rows[0] ?? [];
    const mapping = suggestColumnMapping(header, { customFieldSlugs: ['po_number', 'eta'] });
    expect(mapping.every((entry) => entry.target !== null)).toBe(true);
    const session = ReviewSession.build(read, 0, mapping);
    const { counts } = session.state();
    expect(counts.rows).toBe(3000);
    expect(counts.readyRows).toBeGreaterThan(2000);
    expect(counts.autoFixedRows).toBeGreaterThan(0);
    expect(counts.warningRows).toBeGreaterThan(0);
    expect(counts.errorRows).toBeGreaterThan(0);
    const codes = new Set(session.getRows(0, 3000).flatMap((row) => row.issues.map((issue) => issue.code)));
    expect(codes).toContain('duplicate_reference');
    expect(session.prepare(300).chunkRows.length).toBeGreaterThan(1);
  });
});
