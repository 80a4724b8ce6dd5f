import Papa from 'papaparse';
import { FILE_HEADERS, customFieldHeader } from '../contract/import-file';

/** Two rows that pass validation and show each column's format: a container and a bill of lading. */
const EXAMPLE_ROWS: readonly (readonly string[])[] = [
  ['CSQU3054383', 'container', 'PO-2024-0001', 'AUTO', 'Machine parts Shanghai → Rotterdam', '', 'urgent', ''],
  ['MAEU123456789', 'bill_of_lading', 'PO-2024-0002', 'MAEU', 'Spare parts', 'viewer@example.com', 'eu, q3', 'ops@example.com'],
];

function templateRows(customFieldSlugs: readonly string[]): { headers: string[]; rows: string[][] } {
  const headers = [...FILE_HEADERS, ...customFieldSlugs.map(customFieldHeader)];
  const rows = EXAMPLE_ROWS.map((row) => [...row, ...customFieldSlugs.map(() => '')]);
  return { headers, rows };
}

/** The import template as CSV: the exact headers, the workspace's cf_ columns, two example rows. */
export function templateCsv(customFieldSlugs: readonly string[] = []): string {
  const { headers, rows } = templateRows(customFieldSlugs);
  return Papa.unparse({ fields: headers, data: rows }, { newline: '\r\n' });
}

/** The same template as an XLSX workbook (SheetJS is loaded only when it is asked for). */
export async function templateXlsx(customFieldSlugs: readonly string[] = []): Promise<Uint8Array> {
  const XLSX = await import('@e965/xlsx');
  const { headers, rows } = templateRows(customFieldSlugs);
  const sheet = XLSX.utils.aoa_to_sheet([headers, ...rows]);
  // Columns wide enough to read each header.
  sheet['!cols'] = headers.map((header) => ({ wch: Math.max(header.length, 16) }));
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, sheet, 'Shipments');
  return new Uint8Array(XLSX.write(book, { type: 'array', bookType: 'xlsx' }) as ArrayBuffer);
}
