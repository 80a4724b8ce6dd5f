// The file reader's warm-up: while the page waits for a file, the worker reads and reviews a small
// generated file of the kind people import, and throws the result away. V8 compiles a function
// to fast code only after it has run a while; without this, a person's first file is read and
// checked by code that is still being compiled (the review of 100,000 rows ~1.7× slower cold
// than warm). Nothing of it is kept or shown: the worker's state is untouched.
import { suggestColumnMapping } from '../spreadsheet/column-mapping';
import { containerCheckDigit } from '../spreadsheet/iso6346';
import { readTable } from '../spreadsheet/read-table';
import { seededRandom } from '../spreadsheet/seeded-random';
import { ReviewSession } from './review-session';

/** Enough rows for the reader's and the checks' hot functions to be compiled (~40 ms cold). */
const WARM_UP_ROWS = 3000;

const HEADER = ['tracking_number', 'tracking_type', 'reference', 'carrier', 'name', 'viewers', 'tags', 'assignees', 'cf_po_number', 'cf_eta'];
const OWNERS = ['MSKU', 'MSCU', 'CMAU', 'HLXU'];
const CARRIERS = ['MAEU', 'MSCU', 'CMDU', 'HLCU', 'maeu', 'Maersk', 'XXXX'];

/** A CSV of the template's columns and two custom fields: clean rows, auto-fixes and errors, lists quoted. */
export function warmUpCsv(rows = WARM_UP_ROWS): string {
  const next = seededRandom(7);
  const lines = [HEADER.join(',')];
  for (let r = 0; r < rows; r++) {
    const pick = next();
    const carrier = CARRIERS[Math.floor(next() * CARRIERS.length)] ?? 'MAEU';
    let number: string;
    let type: string;
    if (pick < 0.6) {
      const firstTen = `${OWNERS[r % OWNERS.length]}${String(Math.floor(next() * 1e6)).padStart(6, '0')}`;
      const digit = containerCheckDigit(firstTen) ?? 0;
      number = firstTen + String(next() < 0.05 ? (digit + 1) % 10 : digit);
      type = next() < 0.1 ? 'Container' : 'container';
    } else if (pick < 0.85) {
      number = `MAEU${String(Math.floor(next() * 1e9)).padStart(9, '0')}`;
      type = next() < 0.1 ? 'B/L' : 'bill_of_lading';
    } else {
      number = String(Math.floor(next() * 1e10)).padStart(10, '0');
      type = 'booking';
    }
    lines.push(
      [
        next() < 0.05 ? ` ${number} ` : number,
        type,
        next() < 0.02 ? 'PO-1' : `PO-${r}`,
        carrier,
        next() < 0.5 ? `"Shipment ${r}, Shanghai → Rotterdam"` : '',
        next() < 0.3 ? `"ops${r % 50}@example.com, lead@example.com"` : next() < 0.05 ? 'not-an-email' : '',
        next() < 0.5 ? `"tag${r % 17}, priority"` : '',
        next() < 0.3 ? `user${r % 9}@example.com` : '',
        `PO${r}`,
        next() < 0.5 ? '2024-09-30' : next() < 0.1 ? '30/09/2024' : '',
      ].join(','),
    );
  }
  return lines.join('\r\n');
}

/** Reads and reviews the warm-up file as a dropped one would be; the result is dropped. */
export async function warmUp(): Promise<void> {
  const read = await readTable(new TextEncoder().encode(warmUpCsv()), 'warm-up.csv');
  const header = read.rows[0] ?? [];
  const session = ReviewSession.build(read, 0, suggestColumnMapping(header, { customFieldSlugs: ['po_number', 'eta'] }));
  session.getRows(0, 100);
  session.prepare(300);
}
