import { describe, expect, it } from 'vitest';
import type { ImportJob } from '../../jobs/import-job';
import { buildJobResults, rowsEnd, filterCount, NO_ITEM_MESSAGE, ResultsCollector, RESULT_FILTERS, rowAt, rowErrors, rowWarnings } from './result-rows';
import { fromExportSource } from '../../spreadsheet/result-export';
import { buildDownloadSource } from './failed-rows';
import { item, sentBatch } from './test-results';

const headers = ['tracking_number', 'tracking_type', 'carrier', 'name', 'assignees'];

describe('ResultsCollector', () => {
  it('joins each item to its row as sent and counts every filter', () => {
    const { outcome, payload } = sentBatch(
      0,
      headers,
      [
        ['MSCU1234566', 'container', 'MSCU', '=SUM(A1)', ''],
        ['MAEU240000404', 'bill_of_lading', 'MAEU', 'b', ''],
        ['CMDU240000500', 'bill_of_lading', 'CMDU', 'c', ''],
        ['MSCU1234566', 'container', 'MSCU', 'd', 'nobody@example.com'],
      ],
      [
        item(2),
        item(3, { trackingStatus: 'failed' }),
        item(4, { creationStatus: 'failed', trackingStatus: 'failed', shipmentId: null, problems: [{ level: 'error', code: 'batch_failed', column: null, message: 'The batch stopped.' }] }),
        item(5, { creationStatus: 'updated', problems: [{ level: 'warning', code: 'invalid_input', column: 'assignees', message: 'nobody@example.com is no member.' }] }),
      ],
    );
    const collector = new ResultsCollector(headers);
    collector.add(outcome, payload)(Infinity);
    const results = collector.finish();

    expect(results.columns).toEqual(headers);
    expect(Object.fromEntries(RESULT_FILTERS.map((f) => [f, filterCount(results, f)]))).toEqual({
      failed: 1,
      warnings: 1,
      created: 2,
      updated: 1,
      // The failed row's tracking is `failed` too, but it created nothing: it counts as failed only.
      'tracking-failed': 1,
      all: 4,
    });
    expect(rowAt(results, 'all', 0)?.values).toEqual(['MSCU1234566', 'container', 'MSCU', '=SUM(A1)', '']);
    const failed = rowAt(results, 'failed', 0)!;
    expect(failed.rowNumber).toBe(4);
    expect(failed.values[0]).toBe('CMDU240000500');
    expect(rowErrors(failed)).toEqual([expect.objectContaining({ column: null, message: 'The batch stopped.' })]);
    const warned = rowAt(results, 'warnings', 0)!;
    expect(rowWarnings(warned)).toEqual([expect.objectContaining({ column: 'assignees', message: 'nobody@example.com is no member.' })]);
    expect(rowAt(results, 'tracking-failed', 1)).toBeUndefined();
    expect(rowAt(results, 'updated', 1)).toBeUndefined();
  });

  it('counts a row the service returned no item for as failed, with a sentence saying so', () => {
    const { outcome, payload } = sentBatch(0, headers, [['A', 'container', '', '', ''], ['B', 'container', '', '', '']], [item(1), null], [1, 2]);
    const collector = new ResultsCollector(headers);
    collector.add(outcome, payload)(Infinity);
    const results = collector.finish();
    const row = rowAt(results, 'failed', 0)!;
    expect(row.rowNumber).toBe(2);
    expect(row.values[0]).toBe('B');
    expect(rowErrors(row)).toEqual([{ column: null, message: NO_ITEM_MESSAGE }]);
  });

  it('reads a chunk as comma-separated, even where a stretch of rows past the header has names full of tabs', () => {
    const rows = Array.from({ length: 600 }, (_, r) => [`MSCU${r}`, 'container', 'MSCU', `a\tb\tc\td\te\t${r}`, '']);
    const { outcome, payload } = sentBatch(0, headers, rows, rows.map((_, r) => item(r + 2)));
    const collector = new ResultsCollector(headers);
    collector.add(outcome, payload)(Infinity);
    const results = collector.finish();
    expect(rowAt(results, 'all', 550)?.values).toEqual(['MSCU550', 'container', 'MSCU', 'a\tb\tc\td\te\t550', '']);
  });

  it('puts a chunk’s columns by name, and a JSON list’s fields (custom fields as cf_) as columns', () => {
    const collector = new ResultsCollector(['tracking_number', 'tracking_type']);
    const csv = sentBatch(0, ['tracking_type', 'tracking_number'], [['container', 'X1']], [item(1)]);
    collector.add(csv.outcome, csv.payload)(Infinity);
    collector.add(
      { jobId: 'j', batchId: 'b2', chunkId: 1, status: 'completed', failureReason: null, items: [item(2)] },
      { jobId: 'j', chunkId: 1, rowNumbers: [2], body: { format: 'json', requests: [{ tracking_number: 'X2', tracking_type: 'booking', tags: ['a', 'b'], custom_fields: { po_number: 'PO 1' } }] } },
    )(Infinity);
    const results = collector.finish();
    expect(results.columns).toEqual(['tracking_number', 'tracking_type', 'tags', 'cf_po_number']);
    expect(results.rows.map((row) => row.values)).toEqual([
      ['X1', 'container', '', ''],
      ['X2', 'booking', 'a,b', 'PO 1'],
    ]);
  });
});

describe('rowsEnd', () => {
  it('counts only the newlines outside quotes, doubled quotes and all', () => {
    const csv = 'h1,h2\r\n"a\r\nb",x\r\n"say ""hi""\n",y\r\nlast,z';
    expect(csv.slice(0, rowsEnd(csv, 0, 2))).toBe('h1,h2\r\n"a\r\nb",x\r\n');
    expect(csv.slice(rowsEnd(csv, 0, 2), rowsEnd(csv, 0, 3))).toBe('"say ""hi""\n",y\r\n');
    expect(rowsEnd(csv, 0, 9)).toBe(csv.length);
  });
});

describe('ResultsCollector rows read before a wider chunk came', () => {
  it('widens a row already shown when a later chunk adds columns', () => {
    const collector = new ResultsCollector(['tracking_number', 'tracking_type']);
    const csv = sentBatch(0, ['tracking_number', 'tracking_type'], [['X1', 'container']], [item(1)]);
    collector.add(csv.outcome, csv.payload)(Infinity);
    expect(collector.finish().rows[0]?.values).toEqual(['X1', 'container']);
    collector.add(
      { jobId: 'j', batchId: 'b2', chunkId: 1, status: 'completed', failureReason: null, items: [item(2)] },
      { jobId: 'j', chunkId: 1, rowNumbers: [2], body: { format: 'json', requests: [{ tracking_number: 'X2', tracking_type: 'booking', tags: ['a'] }] } },
    )(Infinity);
    expect(collector.finish().rows.map((row) => row.values)).toEqual([
      ['X1', 'container', ''],
      ['X2', 'booking', 'a'],
    ]);
  });

  it('exports results taken before the wider chunk under their own columns, the error last', async () => {
    const collector = new ResultsCollector(['tracking_number', 'tracking_type']);
    const csv = sentBatch(0, ['tracking_number', 'tracking_type'], [['X1', 'container']], [item(1, { creationStatus: 'failed', problems: [{ level: 'error', code: 'c', column: null, message: 'No.' }] })]);
    collector.add(csv.outcome, csv.payload)(Infinity);
    const before = collector.finish();
    collector.add(
      { jobId: 'j', batchId: 'b2', chunkId: 1, status: 'completed', failureReason: null, items: [item(2)] },
      { jobId: 'j', chunkId: 1, rowNumbers: [2], body: { format: 'json', requests: [{ tracking_number: 'X2', tracking_type: 'booking', tags: ['a'] }] } },
    )(Infinity);
    expect(collector.finish().rows[0]!.values).toHaveLength(3); // the row both results share has widened
    const exported = fromExportSource(await buildDownloadSource(before, { kind: 'failed', withWarnings: false }));
    expect(exported.columns).toEqual(['tracking_number', 'tracking_type', 'error']);
    expect(exported.rows).toEqual([['X1', 'container', 'No.']]);
  });
});

describe('buildJobResults', () => {
  it('adds the batches in the order their chunks were sent and yields between them', async () => {
    const first = sentBatch(7, headers, [['A', 'container', '', '', '']], [item(1)]);
    const second = sentBatch(3, headers, [['B', 'container', '', '', '']], [item(2)]);
    const job = { headers, chunks: [{ id: 7 }, { id: 3 }] } as Pick<ImportJob, 'headers' | 'chunks'>;
    const payloads = new Map([[7, first.payload], [3, second.payload]]);
    let pauses = 0;
    const results = await buildJobResults(job, [second.outcome, first.outcome], (id) => Promise.resolve(payloads.get(id)), () => {
      pauses++;
      return Promise.resolve();
    });
    expect(results.rows.map((row) => row.values[0])).toEqual(['A', 'B']);
    expect(results.batches).toBe(2);
    expect(pauses).toBe(2);
  });

  it('joins a large chunk in slices, with a pause between them', async () => {
    const rows = Array.from({ length: 2500 }, (_, i) => [`N${i}`, 'container', '', '', '']);
    const batch = sentBatch(0, headers, rows, rows.map((_, i) => item(i + 1)));
    const job = { headers, chunks: [{ id: 0 }] } as Pick<ImportJob, 'headers' | 'chunks'>;
    let pauses = 0;
    const results = await buildJobResults(job, [batch.outcome], () => Promise.resolve(batch.payload), () => {
      pauses++;
      return Promise.resolve();
    });
    expect(results.rows).toHaveLength(2500);
    expect(results.rows[2499]?.values[0]).toBe('N2499');
    // 1,000 rows a slice: two pauses inside the chunk, one after it.
    expect(pauses).toBe(3);
  });

  it('with a collector that lives on, joins only the batches it does not hold yet, in the chunks’ order', async () => {
    const first = sentBatch(7, headers, [['A', 'container', '', '', '']], [item(1)]);
    const second = sentBatch(3, headers, [['B', 'container', '', '', '']], [item(2)]);
    const job = { headers, chunks: [{ id: 3 }, { id: 7 }] } as Pick<ImportJob, 'headers' | 'chunks'>;
    const payloads = new Map([[7, first.payload], [3, second.payload]]);
    const loaded: number[] = [];
    const load = (id: number) => {
      loaded.push(id);
      return Promise.resolve(payloads.get(id));
    };
    const collector = new ResultsCollector(headers);
    const pause = () => Promise.resolve();
    const early = await buildJobResults(job, [first.outcome], load, pause, undefined, 'Line', collector);
    expect(early.rows.map((row) => row.values[0])).toEqual(['A']);
    const later = await buildJobResults(job, [first.outcome, second.outcome], load, pause, undefined, 'Line', collector);
    expect(later.rows.map((row) => row.values[0])).toEqual(['B', 'A']);
    expect(later.batches).toBe(2);
    expect(loaded).toEqual([7, 3]);
    // A batch whose outcome changed (tracking follow-up) is joined again, in place.
    const followed = await buildJobResults(job, [first.outcome], load, pause, undefined, 'Line', collector, (batchId) => (batchId === first.outcome.batchId ? 'v2' : ''));
    expect(followed.rows.map((row) => row.values[0])).toEqual(['B', 'A']);
    expect(loaded).toEqual([7, 3, 7]);
  });

  it('leaves out a batch whose join was cut short, and joins it whole next time', async () => {
    const rows = Array.from({ length: 2500 }, (_, i) => [`N${i}`, 'container', '', '', '']);
    const batch = sentBatch(0, headers, rows, rows.map((_, i) => item(i + 1)));
    const job = { headers, chunks: [{ id: 0 }] } as Pick<ImportJob, 'headers' | 'chunks'>;
    const collector = new ResultsCollector(headers);
    const controller = new AbortController();
    const cut = buildJobResults(job, [batch.outcome], () => Promise.resolve(batch.payload), () => {
      controller.abort();
      return Promise.resolve();
    }, controller.signal, 'Line', collector);
    await expect(cut).rejects.toThrow();
    expect(collector.finish().rows).toHaveLength(0);
    const whole = await buildJobResults(job, [batch.outcome], () => Promise.resolve(batch.payload), () => Promise.resolve(), undefined, 'Line', collector);
    expect(whole.rows).toHaveLength(2500);
    expect(whole.index.all).toHaveLength(2500);
  });

  it('keeps switching filters cheap at 100,000 items: each filter is a precomputed index', () => {
    const rows: string[][] = [];
    const items = [];
    for (let i = 0; i < 5000; i++) {
      rows.push([`N${i}`, 'container', 'MSCU', `name ${i}`, '']);
      items.push(item(i + 1, i % 10 === 0 ? { creationStatus: 'failed', shipmentId: null, problems: [{ level: 'error', code: 'x', column: 'carrier', message: 'bad' }] } : {}));
    }
    const collector = new ResultsCollector(headers);
    for (let chunk = 0; chunk < 20; chunk++) {
      const batch = sentBatch(chunk, headers, rows, items);
      collector.add(batch.outcome, batch.payload)(Infinity);
    }
    const results = collector.finish();
    expect(filterCount(results, 'all')).toBe(100_000);
    expect(filterCount(results, 'failed')).toBe(10_000);
    expect(results.index.failed).toBeInstanceOf(Int32Array);
    expect(rowAt(results, 'failed', 9_999)?.values[0]).toBe('N4990');
  });
});
