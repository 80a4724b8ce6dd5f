import { describe, expect, it } from 'vitest';
import { describeMissingTargets, suggestColumnMapping, summarizeIgnoredColumns } from './column-mapping';
import { toCsvChunks } from './csv-output';
import { detectHeaderRow } from './header-row';
import { readTable } from './read-table';
import { createReviewTable, excludeRows, rowNumberOf, rowsWhere } from './review-table';

const utf8 = (text: string) => new TextEncoder().encode(text);

async function importFile(bytes: Uint8Array, fileName: string) {
  const read = await readTable(bytes, fileName);
  const headerRow = detectHeaderRow(read.rows);
  const mapping = suggestColumnMapping(read.rows[headerRow] ?? []);
  return { read, headerRow, mapping, table: createReviewTable(read, headerRow, mapping) };
}

describe('the pipeline, file to chunks', () => {
  it('maps wrong-case, extra and empty headers under a title line', async () => {
    const { headerRow, mapping, table } = await importFile(
      utf8('Export of 2024-08-05\nTRACKING_NUMBER;Tracking Type;;Notes;carrier \nCSQU3054383;Container;;x;maeu\n;booking;;;\n'),
      'export.csv',
    );
    expect(headerRow).toBe(1);
    expect(mapping.map((entry) => entry.target)).toEqual(['tracking_number', 'tracking_type', null, null, 'carrier']);
    expect(describeMissingTargets(mapping)).toBeNull();
    expect(summarizeIgnoredColumns(mapping)).toBe('1 unknown column and 1 column without a header ignored.');
    expect(rowsWhere(table, 'all').map((row) => rowNumberOf(table, row))).toEqual([3, 4]);
    expect(table.counts).toMatchObject({ rows: 2, errorRows: 1, autoFixedRows: 1, readyRows: 1 });
  });

  it('reads 5,000 columns, ignoring the unknown ones', async () => {
    const header = ['tracking_number', 'tracking_type', ...Array.from({ length: 4998 }, (_, i) => `x${i}`)];
    const row = ['CSQU3054383', 'container', ...Array.from({ length: 4998 }, () => 'v')];
    const { mapping, table } = await importFile(utf8(`${header.join(',')}\n${row.join(',')}\n`), 'wide.csv');
    expect(summarizeIgnoredColumns(mapping)).toBe('4,998 unknown columns ignored.');
    expect(table.counts.readyRows).toBe(1);
  });

  it('submits or skips every row read, exactly once', async () => {
    const lines = ['tracking_number,tracking_type,reference,carrier'];
    for (let i = 0; i < 2500; i++) {
      const kind = i % 10;
      lines.push(
        kind === 0 ? `CSQU305438${i % 10},container,R${i},` // wrong check digit unless it ends in 3
          : kind === 1 ? `MAEU${100000000 + i},bill_of_lading,R${i},`
            : kind === 2 ? `${i},booking,R${i},`
              : kind === 3 ? `CSQU3054383,container,R${i - 1},`
                : `CSQU3054383,container,R${i},MAEU`,
      );
    }
    const { read, headerRow, table } = await importFile(utf8(lines.join('\n')), 'many.csv');
    excludeRows(table, [5, 6, 7]);
    const submission = toCsvChunks(table, 1000);
    const dataRows = read.rows.length - headerRow - 1;
    const chunked = submission.chunks.flatMap((chunk) => chunk.rowNumbers);
    expect(chunked.length + submission.skipped.length).toBe(dataRows);
    expect(new Set([...chunked, ...submission.skipped.map((skip) => skip.rowNumber)]).size).toBe(dataRows);
    expect(submission.submittedRows).toBe(table.counts.readyRows);
    expect(submission.skipped.length).toBe(table.counts.errorRows + table.counts.excludedRows);
    expect(rowsWhere(table, 'ready').map((row) => rowNumberOf(table, row))).toEqual(chunked);
  });
});
