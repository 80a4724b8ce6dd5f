// One rule set: the browser's validation (src/spreadsheet/validate-row.ts) and
// the sandbox's row rules (row-rules.ts over the contract) must agree. Over a few thousand rows
// drawn from realistic and edge values, with a fixed seed (RULES_SEED overrides it):
// - a row the browser marks ready (no error) is never failed by the sandbox, and
// - every row the sandbox fails is an error in the browser,
// with one exception by design (DESIGN §3): a well-formed SCAC that is not on the console's list is
// only a warning in the browser (the service's list is longer, so the service decides), and the
// sandbox may fail it as not supported. The sandbox judges what the browser would send: the
// normalized values, not the raw cells.
// A cell over the reader's cap (32,767 characters) is drawn too, shortened as the reader keeps it:
// that row is an error in the browser and fails in the sandbox, both ways, and its
// file's other rows go on.
import { describe, expect, it } from 'vitest';
import { createValidationContext, reviewColumns, validateRow } from '../../../spreadsheet/validate-row';
import { DEFAULT_TABLE_LIMITS, shortenCell } from '../../../spreadsheet/table-limits';
import type { ColumnTarget } from '../../../spreadsheet/column-mapping';
import { seededRandom } from '../../../spreadsheet/seeded-random';
import { checkFileRow, type RowContext } from './row-rules';
import { supportedCarriers } from './supported-carriers';

/** A 2 MiB cell as the reader hands it on: its first 32,767 characters and an ellipsis. */
const long = (char: string) => shortenCell(char.repeat(2_097_152), DEFAULT_TABLE_LIMITS.maxCellLength);
const LONG_CELLS: Partial<Record<ColumnTarget, string>> = {
  reference: long('R'), name: long('N'), cf_po_number: long('7'), cf_colour: long('c'), tracking_number: long('9'),
};
/** About one row in eight gets one over-long cell, so the other sides of the property stay reached. */
const LONG_CELL_SHARE = 1 / 8;

const VALUES: Record<string, readonly string[]> = {
  tracking_number: [
    'CSQU3054383', 'MSCU1234566', 'CSQU3054384', ' csqu 305438-3 ', 'CSQX305438', 'MAEU123456789', 'HLCUHAM240512345',
    'MEDUAB123456', 'maeu123456789', '123456789', 'XXXX12345', 'CULU1234567', '', '   ', '=1+1', 'CSQU3054383 ',
  ],
  tracking_type: ['container', 'bill_of_lading', 'booking', 'Container', 'BL', 'B/L', 'bkg', 'BOOKING ', 'containr', 'ship', '', 'bill of lading'],
  reference: ['', 'R1', 'PO-7', '@home', ' R2 '],
  carrier: [
    '', '', 'MAEU', 'maeu', 'MSCU', ' hlcu ', 'CULU', 'TRKU', 'QQQQ', '12AB', 'MAUE', 'MSC', 'HL', 'AB', 'XYZ', 'Maersk',
    'OOCL', 'Hapag-Lloyd', 'AUTO', 'auto', 'MAEUX', 'MA-E', 'ÄBCD', 'M AE',
  ],
  name: ['', 'Parts', ' Parts ', 'x'.repeat(255), 'x'.repeat(256), ` ${'y'.repeat(255)} `, '=HYPERLINK("x")'],
  viewers: ['', 'a@example.com', 'bob@', 'a@example.com; b@example.com', 'a@example.com, b@example.com'],
  tags: ['', 'urgent', 'a, b', 'a; b|c'],
  assignees: ['', 'ana.lopez@example.com', 'stranger@example.com', 'not-an-email'],
  cf_eta: ['', '2026-01-31', '45306', 'next week', '2024-02-30', '2026-01-31T10:00:00Z', ' 2026-01-31 '],
  cf_po_number: ['', 'PO-1', '45306', '-12.5'],
  cf_colour: ['', 'red'],
};

const CUSTOM_FIELDS: ColumnTarget[] = ['cf_eta', 'cf_po_number', 'cf_colour'];
const COLUMNS = reviewColumns(CUSTOM_FIELDS);
const SANDBOX: RowContext = {
  members: new Set(['ana.lopez@example.com']),
  customFields: new Map([['po_number', 'text'], ['eta', 'date']]),
  supportedCarriers: supportedCarriers(null),
};
const ROWS = 4000;
const SEED = Number(process.env.RULES_SEED ?? 20_240_513);

function generateRow(random: () => number): string[] {
  return COLUMNS.map((column) => {
    const values = VALUES[column] ?? [''];
    return values[Math.floor(random() * values.length)] ?? '';
  });
}

/**
 * The same row with one cell over the cap, for about one row in eight, from a generator of its
 * own: the plain rows (and so the other sides of the property) stay as the seed draws them.
 */
function withLongCell(row: string[], random: () => number): string[] | null {
  if (random() >= LONG_CELL_SHARE) return null;
  const targets = Object.keys(LONG_CELLS) as ColumnTarget[];
  const target = targets[Math.floor(random() * targets.length)]!;
  const long = [...row];
  long[COLUMNS.indexOf(target)] = LONG_CELLS[target]!;
  return long;
}

describe('one rule set: browser and sandbox agree', () => {
  // Generous timeout: 4,000 rows through both rule sets take seconds on a loaded machine.
  it(`on ${ROWS} generated rows (seed ${SEED})`, { timeout: 60_000 }, () => {
    const random = seededRandom(SEED);
    const longRandom = seededRandom(SEED ^ 0x5bd1e995);
    const context = createValidationContext(COLUMNS, DEFAULT_TABLE_LIMITS.maxCellLength);
    const violations: string[] = [];
    const seen = { ready: 0, sandboxFailed: 0, serviceDecides: 0, longCell: 0 };

    const rows: [number, string[]][] = [];
    for (let i = 0; i < ROWS; i++) {
      const row = generateRow(random);
      rows.push([i, row]);
      const long = withLongCell(row, longRandom);
      if (long) rows.push([i, long]);
    }

    for (const [i, raw] of rows) {
      const out: string[] = [];
      const issues = validateRow(i, raw, out, context) ?? [];
      const browserErrors = issues.filter((issue) => issue.level === 'error');
      const unknownCarrier = issues.some((issue) => issue.code === 'unknown_carrier');
      const sent = Object.fromEntries(COLUMNS.map((column, c) => [column, out[c] ?? '']));
      const verdict = checkFileRow(sent, SANDBOX);

      const long = raw.some((cell) => cell.length > DEFAULT_TABLE_LIMITS.maxCellLength);
      if (browserErrors.length === 0 && !long) seen.ready++;
      if (long) {
        seen.longCell++;
        const browserTooLong = issues.some((issue) => issue.code === 'too_long');
        const sandboxTooLong = !verdict.ok && verdict.errors.some((error) => error.message.includes('more than 32,767 characters'));
        if (!browserTooLong || !sandboxTooLong) violations.push(`row ${i} with a long ${COLUMNS[raw.findIndex((cell) => cell.length > 32_767)]}: a cell over 32,767 characters is ${browserTooLong ? '' : 'not '}an error in the browser and ${sandboxTooLong ? '' : 'not '}failed as too long by the sandbox`);
        continue; // both ways checked; the counts below are of the plain rows
      }
      if (verdict.ok) continue;
      seen.sandboxFailed++;
      if (browserErrors.length > 0) continue;
      const onlyUnsupported = verdict.errors.every((error) => error.target === 'carrier' && error.message.endsWith('is not a carrier this service supports'));
      if (unknownCarrier && onlyUnsupported) {
        seen.serviceDecides++;
        continue;
      }
      const shown = raw.map((cell) => (cell.length > 40 ? `${cell.slice(0, 20)}… (${cell.length} characters)` : cell));
      violations.push(`row ${i}: ${JSON.stringify(shown)} is ready in the browser, but the sandbox fails it: ${verdict.errors.map((e) => e.message).join('; ')}`);
    }

    expect(violations.slice(0, 5), `seed ${SEED} (replay with RULES_SEED=${SEED}): ${violations.length} rows disagree`).toEqual([]);
    // The generator must reach every side of the property, or the test proves nothing.
    expect(seen.ready).toBeGreaterThan(ROWS / 20);
    expect(seen.sandboxFailed).toBeGreaterThan(ROWS / 4);
    expect(seen.serviceDecides).toBeGreaterThan(0);
    expect(seen.longCell).toBeGreaterThan(ROWS / 20);
  });
});
