import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { fromExportSource } from '../../spreadsheet/result-export';
import { buildDownloadSource, downloadFileName, errorCell, jobFileStem } from './failed-rows';
import { ResultsCollector } from './result-rows';
import { item, sentBatch } from './test-results';

const headers = ['tracking_number', 'tracking_type', 'name', 'assignees'];

function results() {
  const { outcome, payload } = sentBatch(
    0,
    headers,
    [
      ['MSCU1234566', 'container', '=cmd', ''],
      ['MAEU240000404', 'bill_of_lading', 'b', ''],
      ['CMDU240000500', 'bill_of_lading', 'c', 'nobody@example.com'],
    ],
    [
      item(1, { shipmentId: 's1' }),
      item(2, { shipmentId: 's2', trackingStatus: 'failed' }),
      item(3, {
        creationStatus: 'failed',
        shipmentId: null,
        problems: [
          { level: 'error', code: 'batch_failed', column: null, message: 'The batch stopped at this row.' },
          { level: 'error', code: 'invalid_input', column: 'carrier', message: 'Carrier is required.' },
          { level: 'warning', code: 'invalid_input', column: 'assignees', message: 'nobody@example.com is no member.' },
        ],
      }),
    ],
  );
  const collector = new ResultsCollector(headers);
  collector.add(outcome, payload)(Infinity);
  return collector.finish();
}

describe('buildDownloadSource', () => {
  it('writes the failed rows with their columns as sent and an error column', async () => {
    const table = fromExportSource(await buildDownloadSource(results(), { kind: 'failed', withWarnings: false }));
    expect(table).toEqual({
      columns: [...headers, 'error'],
      rows: [['CMDU240000500', 'bill_of_lading', 'c', 'nobody@example.com', 'The batch stopped at this row.; carrier: Carrier is required.']],
    });
  });

  it('adds a warning column where chosen, and always for rows with warnings', async () => {
    const chosen = fromExportSource(await buildDownloadSource(results(), { kind: 'failed', withWarnings: true }));
    expect(chosen.columns.slice(-2)).toEqual(['error', 'warning']);
    expect(chosen.rows[0]?.at(-1)).toBe('assignees: nobody@example.com is no member.');
    const warnings = fromExportSource(await buildDownloadSource(results(), { kind: 'warnings', withWarnings: false }));
    expect(warnings.columns.slice(-2)).toEqual(['error', 'warning']);
    expect(warnings.rows).toHaveLength(1);
  });

  it('says why tracking failed, with the service’s reason when the follow-up has it', async () => {
    const plain = fromExportSource(await buildDownloadSource(results(), { kind: 'tracking-failed', withWarnings: false }));
    expect(plain.rows).toEqual([['MAEU240000404', 'bill_of_lading', 'b', '', 'Tracking failed.']]);
    const reasons = new Map([['s2', 'not_found']]);
    const withReason = fromExportSource(await buildDownloadSource(results(), { kind: 'tracking-failed', withWarnings: false, trackingFailures: reasons }));
    expect(withReason.rows[0]?.at(-1)).toBe('Tracking failed: not_found');
  });

  it('builds a large download in slices with the header once', async () => {
    const rows = Array.from({ length: 4500 }, (_, i) => [`N${i}`, 'container', `n${i}`, '']);
    const { outcome, payload } = sentBatch(0, headers, rows, rows.map((_, i) => item(i + 1, { creationStatus: 'failed', problems: [{ level: 'error', code: 'x', column: 'tracking_type', message: 'bad' }] })));
    const collector = new ResultsCollector(headers);
    collector.add(outcome, payload)(Infinity);
    let pauses = 0;
    const source = await buildDownloadSource(collector.finish(), { kind: 'failed', withWarnings: false }, () => {
      pauses++;
      return Promise.resolve();
    });
    const parsed = Papa.parse<string[]>(source, { newline: '\r\n' }).data;
    expect(parsed).toHaveLength(4501);
    expect(parsed[4500]).toEqual(['N4499', 'container', 'n4499', '', 'tracking_type: bad']);
    expect(pauses).toBe(4);
  });
});

describe('file names', () => {
  it('names the file after the job', () => {
    expect(downloadFileName({ kind: 'file', fileName: 'March shipments.xlsx', size: 1, contentHash: null }, 'failed', 'csv')).toBe('March-shipments-failed-rows.csv');
    expect(downloadFileName({ kind: 'quick-add' }, 'warnings', 'xlsx')).toBe('quick-add-rows-with-warnings.xlsx');
    expect(jobFileStem({ kind: 'retry', jobId: 'j', label: 'retry of a/b.csv' })).toBe('retry-of-a-b.csv');
  });

  it('leaves the error cell empty for a row with no error and tracking not failed', () => {
    expect(errorCell(results().rows[0]!)).toBe('');
  });
});
