import { describe, expect, it } from 'vitest';
import {
  addSeen,
  addSentRows,
  describeForesight,
  emptySeenKeys,
  FORESEE_CREATE,
  FORESEE_DUPLICATE,
  FORESEE_NO_REFERENCE,
  FORESEE_NONE,
  FORESEE_UPDATE,
  foreseeRows,
} from './row-foresight';

const NOV_12 = Date.UTC(2026, 10, 12, 9);
const NOV_3 = Date.UTC(2026, 10, 3, 9);

/** Readers of the key columns, as the review table gives them, over plain lists ('' past their end). */
function keys(reference: readonly string[], trackingNumber: readonly string[]) {
  return { reference: (row: number) => reference[row] ?? '', trackingNumber: (row: number) => trackingNumber[row] ?? '' };
}

describe('foreseeRows', () => {
  const seen = addSeen(emptySeenKeys(), [['REF-1', NOV_12]], [['MSCU1234565', NOV_12], ['hlbu 9876543', NOV_3]]);
  const columns = keys(['REF-1', 'REF-2', '', '', ' REF-1 ', ''], ['X', 'Y', 'mscu1234565', 'NEW0000001', 'Z', 'HLBU9876543']);

  it('a known reference updates, a new one creates, no reference creates and a number sent before is a possible duplicate', () => {
    const { codes, counts } = foreseeRows(columns, [0, 1, 2, 3, 5], 6, seen);
    expect([...codes]).toEqual([FORESEE_UPDATE, FORESEE_CREATE, FORESEE_DUPLICATE, FORESEE_NO_REFERENCE, FORESEE_NONE, FORESEE_DUPLICATE]);
    expect(counts).toEqual({ creates: 1, updates: 1, withoutReference: 3, possibleDuplicates: 2, duplicatesSentFrom: NOV_3, duplicatesSentTo: NOV_12 });
  });

  it('compares references trimmed and tracking numbers in upper case without spaces', () => {
    const { codes } = foreseeRows(columns, [4], 6, seen);
    expect(codes[4]).toBe(FORESEE_UPDATE);
  });

  it('a row with a reference is never a duplicate, whatever its number', () => {
    const { codes } = foreseeRows(keys(['NEW'], ['MSCU1234565']), [0], 1, seen);
    expect(codes[0]).toBe(FORESEE_CREATE);
  });

  it('without a reference column every row creates', () => {
    const { counts } = foreseeRows(keys([], ['A', 'B']), [0, 1], 2, emptySeenKeys());
    expect(counts).toMatchObject({ creates: 0, updates: 0, withoutReference: 2, possibleDuplicates: 0 });
  });
});

describe('addSentRows', () => {
  it('reads references and numbers of rows sent as CSV or JSON; an outcome that made a shipment confirms them, a failed row records when it failed', () => {
    const seen = addSentRows(emptySeenKeys(), [
      { sentAt: NOV_3, body: { format: 'csv', csv: 'tracking_number,tracking_type,reference\r\nMSCU1234565,container,A\r\nBAD,container,B\r\nHLBU9876543,container,' }, failed: [false, true, false] },
      { sentAt: NOV_12, body: { format: 'json', requests: [{ reference: 'A', tracking_number: 'X1' }] } },
    ]);
    expect([...seen.references.sent]).toEqual([['A', NOV_12]]);
    expect([...seen.references.confirmed]).toEqual(['A']);
    expect([...seen.references.failed]).toEqual([['B', NOV_3]]);
    expect([...seen.trackingNumbers.sent]).toEqual([['MSCU1234565', NOV_3], ['HLBU9876543', NOV_3], ['X1', NOV_12]]);
    expect([...seen.trackingNumbers.confirmed]).toEqual(['MSCU1234565', 'HLBU9876543']); // X1's batch is unread
  });
});

describe('a row this browser saw fail', () => {
  const failedHere = () =>
    addSentRows(emptySeenKeys(), [{ sentAt: NOV_12, body: { format: 'csv', csv: 'tracking_number,reference\r\nMSCU1234565,B\r\nHLBU9876543,' }, failed: [true, true] }]);

  it("cancels the team's copy of the same row, sent before it failed: its reference creates, its number is no duplicate", () => {
    const seen = addSeen(failedHere(), [['B', NOV_3]], [['HLBU9876543', NOV_3]]);
    const { codes } = foreseeRows(keys(['B', ''], ['X', 'HLBU9876543']), [0, 1], 2, seen);
    expect([...codes]).toEqual([FORESEE_CREATE, FORESEE_NO_REFERENCE]);
  });

  it('but not a later send by a colleague, nor a shipment the service lists', () => {
    const later = addSeen(failedHere(), [['B', NOV_12 + 1]], []);
    expect(foreseeRows(keys(['B'], ['X']), [0], 1, later).codes[0]).toBe(FORESEE_UPDATE);
    const listed = addSeen(failedHere(), [['B', 0]], [['HLBU9876543', 0]], { confirmed: true });
    expect([...foreseeRows(keys(['B', ''], ['X', 'HLBU9876543']), [0, 1], 2, listed).codes]).toEqual([FORESEE_UPDATE, FORESEE_DUPLICATE]);
  });
});

describe('describeForesight', () => {
  it('says the counts in words, with when the duplicates were sent', () => {
    expect(describeForesight({ creates: 1200, updates: 340, withoutReference: 15, possibleDuplicates: 3, duplicatesSentFrom: NOV_12, duplicatesSentTo: NOV_12 })).toBe(
      '1,200 create · 340 update existing shipments · 15 without a reference, 3 of them already sent on 12 Nov',
    );
    expect(describeForesight({ creates: 0, updates: 1, withoutReference: 2, possibleDuplicates: 2, duplicatesSentFrom: NOV_3, duplicatesSentTo: NOV_12 })).toBe(
      '0 create · 1 update existing shipment · 2 without a reference, 2 of them already sent between 3 Nov and 12 Nov',
    );
    expect(describeForesight({ creates: 2, updates: 0, withoutReference: 1, possibleDuplicates: 1, duplicatesSentFrom: null, duplicatesSentTo: null })).toBe(
      '2 create · 0 update existing shipments · 1 without a reference, 1 of them already sent before',
    );
  });
});
