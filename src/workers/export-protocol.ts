// Messages between the results page and the export worker, typed at both ends like the import
// worker's: `ExportRequests` and `ExportAnswers` pair each request kind with its answer.
// The table arrives as one unescaped CSV string (spreadsheet/result-export toExportSource).

export interface ExportRequests {
  /** The download as formula-escaped CSV text. */
  csv: { source: string };
  /** The download as an XLSX workbook, cells escaped as in the CSV (SheetJS stays in the worker). */
  xlsx: { source: string; sheetName: string };
}

export interface ExportAnswers {
  csv: { text: string };
  xlsx: { bytes: Uint8Array };
}

export type ExportRequestKind = keyof ExportRequests;

export type ExportWorkerRequest = { [K in ExportRequestKind]: { kind: K; id: number } & ExportRequests[K] }[ExportRequestKind];

export type ExportWorkerResponse =
  | { [K in ExportRequestKind]: { type: 'done'; kind: K; id: number; answer: ExportAnswers[K] } }[ExportRequestKind]
  | { type: 'failed'; id: number; message: string };
