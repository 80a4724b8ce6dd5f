import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { FILE_HEADERS } from '../contract/import-file';
import { suggestColumnMapping } from './column-mapping';
import { readTable } from './read-table';
import { createReviewTable } from './review-table';
import { templateCsv, templateXlsx } from './template';

describe('templates', () => {
  it('CSV has the exact headers, the cf_ columns and two valid example rows', () => {
    const rows = Papa.parse<string[]>(templateCsv(['po_number', 'eta']), { skipEmptyLines: true }).data;
    expect(rows[0]).toEqual([...FILE_HEADERS, 'cf_po_number', 'cf_eta']);
    expect(rows).toHaveLength(3);
    const review = createReviewTable({ rows, rowNumbers: [1, 2, 3] }, 0, suggestColumnMapping(rows[0] ?? []));
    expect(review.counts).toMatchObject({ rows: 2, readyRows: 2, errorRows: 0, warningRows: 0, autoFixedRows: 0 });
  });

  it('XLSX reads back as the same rows', async () => {
    const bytes = await templateXlsx(['incoterm']);
    const result = await readTable(bytes, 'template.xlsx');
    const withoutTrailingBlanks = (row: string[]) => row.slice(0, row.findLastIndex((cell) => cell !== '') + 1);
    expect(result.rows).toEqual(Papa.parse<string[]>(templateCsv(['incoterm']), { skipEmptyLines: true }).data.map(withoutTrailingBlanks));
  });
});
