// Tracking numbers with a fixed outcome, for trying the unhappy paths of a client (DESIGN §3).
// Served in /sandbox.json and listed in src/server/README.md; every other number follows the simulation.
export type TestOutcome = 'tracking_succeeded' | 'tracking_failed' | 'slow_tracking' | 'batch_failed';

export interface TestNumber {
  tracking_number: string;
  tracking_type: 'container' | 'bill_of_lading' | 'booking';
  outcome: TestOutcome;
  description: string;
}

export const TEST_NUMBERS: readonly TestNumber[] = [
  {
    tracking_number: 'MSCU1234566',
    tracking_type: 'container',
    outcome: 'tracking_succeeded',
    description: 'A valid ISO 6346 container number: tracked, one container.',
  },
  {
    tracking_number: 'MSCU1234560',
    tracking_type: 'container',
    outcome: 'tracking_failed',
    description: 'Wrong check digit (should be 6): tracking fails with reason not_found. Any container number with a wrong check digit does the same.',
  },
  {
    tracking_number: 'MAEU240000404',
    tracking_type: 'bill_of_lading',
    outcome: 'tracking_failed',
    description: 'The carrier knows no such bill of lading: tracking fails with reason not_found.',
  },
  {
    tracking_number: 'HLCU240000408',
    tracking_type: 'bill_of_lading',
    outcome: 'slow_tracking',
    description: 'Tracking stays processing for SANDBOX_SLOW_TRACKING_MS (30 s by default), then succeeds; the batch waits for it.',
  },
  {
    tracking_number: 'CMDU240000500',
    tracking_type: 'bill_of_lading',
    outcome: 'batch_failed',
    description: 'The batch stops at this row: status failed with a failure_reason; this row and the rows not yet processed fail with error batch_failed.',
  },
];

/** Test numbers match whatever the type, ignoring case, spaces and dashes. */
export function normalizeNumber(trackingNumber: string): string {
  return trackingNumber.toUpperCase().replace(/[\s-]+/g, '');
}

export function testOutcome(trackingNumber: string): TestOutcome | null {
  const number = normalizeNumber(trackingNumber);
  return TEST_NUMBERS.find((entry) => entry.tracking_number === number)?.outcome ?? null;
}
