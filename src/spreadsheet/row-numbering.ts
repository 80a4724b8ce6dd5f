// Row numbers as the importer names them: "Line N" of a text file, "Row N" of a sheet. The
// service numbers rows its own way (the sandbox's `row_number`: the rows of the file it got,
// counted from 1 without the header, so within one batch); where its messages quote that number,
// the file's own number is put beside it, the same way wherever a message is shown.

/** What a file's 1-based row numbers count, in the words people use: lines of a text file, rows of a sheet. */
export type RowNumbering = 'Line' | 'Row';

/**
 * File row numbers by the service's count: `fileRows[n - 1]` is the file's number of the row the
 * service calls row_number n. A batch's whole list (its rows in the order sent), or only the
 * entries a message needs (quotedServiceRows).
 */
export type FileRowsByServiceRow = Readonly<Record<number, number>>;

/** "Row 4 (row_number, …)" as the sandbox writes its own numbers into a message. */
const SERVICE_ROW = /\bRow (\d+) \(row_number([^)]*)\)/g;

/**
 * The message with the file's number beside each row_number it quotes: "Row 4 (row_number, …;
 * Line 5 of the file)". A number the lookup does not hold is left as the service wrote it.
 */
export function explainServiceRowNumbers(message: string, fileRows: FileRowsByServiceRow, numbering: RowNumbering): string {
  return message.replace(SERVICE_ROW, (whole, serviceRow: string, rest: string) => {
    const fileRow = fileRows[Number(serviceRow) - 1];
    return fileRow === undefined ? whole : `Row ${serviceRow} (row_number${rest}; ${numbering} ${fileRow} of the file)`;
  });
}

/**
 * The entries of the batch's `rowNumbers` that the message quotes by row_number, for explaining it
 * later without the whole list (a job record keeps the first problems, not its rows); null when
 * it quotes none.
 */
export function quotedServiceRows(message: string, rowNumbers: readonly number[]): Record<number, number> | null {
  let quoted: Record<number, number> | null = null;
  for (const [, serviceRow] of message.matchAll(SERVICE_ROW)) {
    const position = Number(serviceRow) - 1;
    const fileRow = rowNumbers[position];
    if (fileRow !== undefined) (quoted ??= {})[position] = fileRow;
  }
  return quoted;
}
