// Rows of the kind a user's file has: ten columns, lists of e-mails and tags
// with commas (quoted in CSV), names with commas, about 5% of untidy or wrong cells. The benches
// drop this file beside the narrow one, so their figures hold for files people really import;
// the file reader warms up on a few thousand of them (workers/warm-up.ts).
import { containerCheckDigit } from './iso6346';
import { seededRandom } from './seeded-random';

/** The template's eight columns plus two of the sandbox's custom fields, spelled exactly. */
export const USER_HEADER = ['tracking_number', 'tracking_type', 'reference', 'carrier', 'name', 'viewers', 'tags', 'assignees', 'cf_po_number', 'cf_eta'];

const OWNERS = ['MSKU', 'MSCU', 'CMAU', 'HLXU', 'TGHU', 'OOLU', 'TCNU', 'SEGU'];
const CARRIERS = ['MAEU', 'MSCU', 'CMDU', 'HLCU', 'ONEY', 'EGLV', 'COSU', 'ZIMU', 'YMLU', 'HDMU'];

/** `count` data rows under `header` (ten columns in USER_HEADER's order, however spelled). */
export function userRows(count: number, header: readonly string[] = USER_HEADER): string[][] {
  // Seeded, so every run and machine measures the same file.
  const next = seededRandom(2024);
  const rows: string[][] = [[...header]];
  for (let r = 0; r < count; r++) {
    const pick = next();
    const carrier = CARRIERS[Math.floor(next() * CARRIERS.length)] ?? 'MAEU';
    let number: string;
    let type: string;
    if (pick < 0.6) {
      const firstTen = `${OWNERS[r % OWNERS.length]}${String(Math.floor(next() * 1e6)).padStart(6, '0')}`;
      const digit = containerCheckDigit(firstTen) ?? 0;
      number = firstTen + String(next() < 0.02 ? (digit + 1) % 10 : digit);
      type = next() < 0.05 ? 'Container' : 'container';
    } else if (pick < 0.85) {
      number = `${carrier}${String(Math.floor(next() * 1e9)).padStart(9, '0')}`;
      type = next() < 0.05 ? 'B/L' : 'bill_of_lading';
    } else {
      number = String(Math.floor(next() * 1e10)).padStart(10, '0');
      type = 'booking';
    }
    rows.push([
      next() < 0.01 ? ` ${number} ` : number,
      type,
      `PO-${2024_000_000 + r}`,
      next() < 0.03 ? carrier.toLowerCase() : carrier,
      next() < 0.5 ? `Shipment ${r}, Shanghai → Rotterdam` : '',
      next() < 0.3 ? `ops${r % 50}@example.com, lead@example.com` : '',
      next() < 0.5 ? (next() < 0.04 ? `tag${r % 17}; priority` : `tag${r % 17}, priority`) : '',
      next() < 0.3 ? `user${r % 9}@example.com` : '',
      `PO${r}`,
      next() < 0.5 ? '2024-09-30' : '',
    ]);
  }
  return rows;
}
