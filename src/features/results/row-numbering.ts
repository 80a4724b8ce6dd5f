// Row numbers in the results, as the importer names them: "Line N" of a text file, "Row N" of a
// sheet. The service numbers rows its own way (the sandbox's `row_number`: the rows of the file
// it got, counted from 1 without the header, so within one batch); where its messages quote that
// number, the file's own number is added beside it.
import type { RowNumbering } from '../../workers/import-protocol';

export { jobNumbering } from '../../jobs/job-numbering';

/** "Row 4 (row_number, …)" as the sandbox writes its own numbers into a message. */
const SERVICE_ROW = /\bRow (\d+) \(row_number([^)]*)\)/g;

/**
 * The message with the file's number beside each row_number it quotes: "Row 4 (row_number, …;
 * Line 5 of the file)". `rowNumbers` are the file numbers of the batch's rows in the order sent.
 */
export function explainServiceRowNumbers(message: string, rowNumbers: readonly number[], numbering: RowNumbering): string {
  return message.replace(SERVICE_ROW, (whole, serviceRow: string, rest: string) => {
    const fileRow = rowNumbers[Number(serviceRow) - 1];
    return fileRow === undefined ? whole : `Row ${serviceRow} (row_number${rest}; ${numbering} ${fileRow} of the file)`;
  });
}
