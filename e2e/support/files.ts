// The shipment files the specs drop: valid container rows, numbered so that the sandbox's copy of
// each row can be found again.
import { containerCheckDigit } from '../../src/spreadsheet/iso6346';

/** A valid ISO 6346 container number from an owner code and a serial. */
export function containerNumber(owner: string, serial: number): string {
  const first = `${owner}U${String(serial).padStart(6, '0')}`;
  return `${first}${containerCheckDigit(first)}`;
}

/** `rows` valid container rows; every `noReferenceEvery`-th has no reference (those could duplicate). */
export function shipmentsCsv(rows: number, { prefix = 'E2E', owner = 'MSK', noReferenceEvery = 5 } = {}): string {
  const lines = ['tracking_number,tracking_type,reference,carrier,name'];
  for (let i = 1; i <= rows; i++) {
    const reference = i % noReferenceEvery === 0 ? '' : `${prefix}-${i}`;
    lines.push(`${containerNumber(owner, 100000 + i)},container,${reference},MAEU,Row ${i}`);
  }
  return lines.join('\r\n');
}

/** The carrier every fault-matrix file's last row has; the matrix sandbox does not support it, so that
 * row fails at the service (not in the console) and the job has a failed row to export. */
export const UNSUPPORTED_CARRIER = 'HLCU';

/**
 * `rows` valid rows named `<prefix> row <i>`; every fifth has no reference (only those could be
 * created twice); the last one's carrier is one the sandbox refuses.
 */
export function faultCsv(prefix: string, rows: number, owner = 'TGH'): string {
  const lines = ['tracking_number,tracking_type,reference,carrier,name'];
  for (let i = 1; i <= rows; i++) {
    const reference = i % 5 === 0 ? '' : `${prefix}-${i}`;
    const carrier = i === rows ? UNSUPPORTED_CARRIER : 'MAEU';
    lines.push(`${containerNumber(owner, 200000 + i)},container,${reference},${carrier},${prefix} row ${i}`);
  }
  return lines.join('\r\n');
}
