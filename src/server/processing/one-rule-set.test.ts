// One rule set (issue #9 item 6): the browser's validation (src/spreadsheet/validate-row.ts) and
// the sandbox's row rules (row-rules.ts over the contract) must agree. Over a few thousand rows
// drawn from realistic and edge values, with a fixed seed (RULES_SEED overrides it):
// - a row the browser marks ready (no error) is never failed by the sandbox, and
// - every row the sandbox fails is an error in the browser,
// with one exception by design (DESIGN §3): a well-formed SCAC that is not on the console's list is
// only a warning in the browser (the service's list is longer, so the service decides), and the
// sandbox may fail it as not supported. The sandbox judges what the browser would send: the
// normalized values, not the raw cells.
import { describe, expect, it } from 'vitest';
import { createValidationContext, reviewColumns, validateRow } from '../../spreadsheet/validate-row';
import { DEFAULT_TABLE_LIMITS } from '../../spreadsheet/table-limits';
import type { ColumnTarget } from '../../spreadsheet/column-mapping';
import { checkFileRow, type RowContext } from './row-rules';
import { supportedCarriers } from './supported-carriers';

/** mulberry32: a small, fast, seeded PRNG, so a failure can be replayed from its seed. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

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

describe('one rule set: browser and sandbox agree', () => {
  it(`on ${ROWS} generated rows (seed ${SEED})`, () => {
    const random = mulberry32(SEED);
    const context = createValidationContext(COLUMNS, DEFAULT_TABLE_LIMITS.maxCellLength);
    const violations: string[] = [];
    const seen = { ready: 0, sandboxFailed: 0, serviceDecides: 0 };

    for (let i = 0; i < ROWS; i++) {
      const raw = generateRow(random);
      const out: string[] = [];
      const issues = validateRow(i, raw, out, context) ?? [];
      const browserErrors = issues.filter((issue) => issue.level === 'error');
      const unknownCarrier = issues.some((issue) => issue.code === 'unknown_carrier');
      const sent = Object.fromEntries(COLUMNS.map((column, c) => [column, out[c] ?? '']));
      const verdict = checkFileRow(sent, SANDBOX);

      if (browserErrors.length === 0) seen.ready++;
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
  });
});
