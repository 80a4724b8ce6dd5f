/** What a file's 1-based row numbers count, in the words people use: lines of a text file, rows of a sheet. */
export type RowNumbering = 'Line' | 'Row';
