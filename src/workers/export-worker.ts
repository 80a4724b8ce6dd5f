// Writes the results page's downloads off the main thread: formula-escaped CSV, and XLSX through
// SheetJS, which is imported here only, so it is never in the page's bundle.
import type { ExportWorkerRequest, ExportWorkerResponse } from './export-protocol';
import { fromExportSource, toEscapedCsv, toEscapedXlsx } from '../spreadsheet/result-export';

async function respond(request: ExportWorkerRequest): Promise<ExportWorkerResponse> {
  const { id } = request;
  const table = fromExportSource(request.source);
  if (request.kind === 'csv') return { type: 'done', kind: 'csv', id, answer: { text: toEscapedCsv(table) } };
  const XLSX = await import('@e965/xlsx');
  return { type: 'done', kind: 'xlsx', id, answer: { bytes: toEscapedXlsx(XLSX, table, request.sheetName) } };
}

self.onmessage = async (event: MessageEvent<ExportWorkerRequest>) => {
  const request = event.data;
  let response: ExportWorkerResponse;
  try {
    response = await respond(request);
  } catch (error) {
    response = { type: 'failed', id: request.id, message: `The file could not be written: ${error instanceof Error ? error.message : String(error)}` };
  }
  const transfer = response.type === 'done' && response.kind === 'xlsx' ? [response.answer.bytes.buffer] : [];
  self.postMessage(response, { transfer });
};
