import { describe, expect, it } from 'vitest';
import { describeRowsNotAsForeseen, rowsNotAsForeseen } from './foresight-check';
import type { OutcomeItem } from './import-job';

const item = (rowNumber: number, creationStatus: string, reference: string | null = `R${rowNumber}`): OutcomeItem => ({
  rowNumber,
  creationStatus,
  trackingStatus: 'succeeded',
  shipmentId: creationStatus === 'failed' ? null : `s-${rowNumber}`,
  reference,
  problems: [],
});

describe('rowsNotAsForeseen', () => {
  it('names the rows foreseen to create that updated, and to update that created; failed and unread rows are not compared', () => {
    const rows = rowsNotAsForeseen([
      { foreseen: 'cucu', items: [item(5, 'created'), item(6, 'created'), item(7, 'updated'), item(8, 'failed')] },
      { foreseen: 'ndc-', items: [item(2, 'created', null), item(3, 'updated', null), null, item(4, 'updated')] },
    ]);
    expect(rows).toEqual([
      { rowNumber: 3, reference: null, foreseen: 'create', outcome: 'updated' },
      { rowNumber: 6, reference: 'R6', foreseen: 'update', outcome: 'created' },
      { rowNumber: 7, reference: 'R7', foreseen: 'create', outcome: 'updated' },
    ]);
  });

  it('finds nothing where the job kept no foresight', () => {
    expect(rowsNotAsForeseen([{ foreseen: '', items: [item(2, 'updated')] }])).toEqual([]);
  });
});

describe('describeRowsNotAsForeseen', () => {
  it('says how many rows did not do what was foreseen, and which way', () => {
    expect(describeRowsNotAsForeseen([{ rowNumber: 7, reference: 'R7', foreseen: 'create', outcome: 'updated' }], 10)).toBe(
      '1 row did not do what the Ready step foresaw: 1 foreseen to create updated an existing shipment.',
    );
    expect(
      describeRowsNotAsForeseen(
        [
          { rowNumber: 6, reference: 'R6', foreseen: 'update', outcome: 'created' },
          { rowNumber: 7, reference: 'R7', foreseen: 'create', outcome: 'updated' },
          { rowNumber: 9, reference: 'R9', foreseen: 'update', outcome: 'created' },
        ],
        10,
      ),
    ).toBe('3 rows did not do what the Ready step foresaw: 1 foreseen to create updated an existing shipment, 2 foreseen to update created new ones.');
    expect(describeRowsNotAsForeseen([], 1_200)).toBe('All 1,200 rows the service took did what the Ready step foresaw.');
  });
});
