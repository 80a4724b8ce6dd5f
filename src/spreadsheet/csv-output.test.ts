import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { suggestColumnMapping } from './column-mapping';
import { toCsvChunks } from './csv-output';
import { createReviewTable, excludeRows } from './review-table';

function table(rows: string[][]) {
  return createReviewTable({ rows, rowNumbers: rows.map((_, i) => i + 1) }, 0, suggestColumnMapping(rows[0] ?? []));
}

describe('toCsvChunks', () => {
  it('puts every row in exactly one chunk or in skipped, with reasons', () => {
    const rows = [['Tracking Number', 'Type', 'Ref', 'cf_po_number', 'junk']];
    for (let i = 0; i < 25; i++) rows.push(['CSQU3054383', i === 7 ? 'containr' : 'Container', `R${i}`, `PO ${i}`, 'x']);
    const review = table(rows);
    excludeRows(review, [3]);
    const submission = toCsvChunks(review, 10);

    expect(submission.headers).toEqual(['tracking_number', 'tracking_type', 'reference', 'carrier', 'name', 'viewers', 'tags', 'assignees', 'cf_po_number']);
    expect(submission.chunks.map((chunk) => chunk.rowNumbers.length)).toEqual([10, 10, 3]);
    expect(submission.chunks[0]?.rowNumbers.slice(0, 5)).toEqual([2, 3, 4, 6, 7]); // file row numbers, the excluded row 5 left out
    expect(submission.chunks.map((chunk) => chunk.withoutReference)).toEqual([0, 0, 0]);
    expect(submission.skipped).toEqual([
      { row: 3, rowNumber: 5, reasons: ['excluded by you'] },
      { row: 7, rowNumber: 9, reasons: ['tracking_type: “containr” is not container, bill_of_lading or booking; did you mean container?'] },
    ]);
    expect(submission.submittedRows).toBe(23);
    const seen = [...submission.chunks.flatMap((chunk) => chunk.rowNumbers), ...submission.skipped.map((skip) => skip.rowNumber)].sort((a, b) => a - b);
    expect(seen).toEqual(Array.from({ length: 25 }, (_, i) => i + 2));

    const first = Papa.parse<string[]>(submission.chunks[0]?.csv ?? '', { skipEmptyLines: true }).data;
    expect(first[0]).toEqual(submission.headers);
    expect(first[1]).toEqual(['CSQU3054383', 'container', 'R0', '', '', '', '', '', 'PO 0']);
    expect(first).toHaveLength(11);
  });

  it('quotes lists and does not formula-escape data for the service', () => {
    const review = table([
      ['tracking_number', 'tracking_type', 'tags', 'name'],
      ['CSQU3054383', 'container', 'a, b', '=1+1'],
    ]);
    const [chunk] = toCsvChunks(review, 10).chunks;
    expect(chunk?.csv).toBe('tracking_number,tracking_type,reference,carrier,name,viewers,tags,assignees\r\nCSQU3054383,container,,,=1+1,,"a, b",');
    expect(chunk?.withoutReference).toBe(1);
  });

  it('gives no chunk when nothing can be submitted', () => {
    const submission = toCsvChunks(table([['tracking_number', 'tracking_type'], ['', 'container']]), 10);
    expect(submission.chunks).toEqual([]);
    expect(submission.skipped).toHaveLength(1);
  });
});
