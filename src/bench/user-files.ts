// The user’s kind of file (spreadsheet/sample-rows.ts) written as the benches drop it: a CSV with lists and
// names quoted, and a workbook as Excel writes one (text in the shared-string table, parts
// deflated at zlib's usual level).
import { userRows } from '../spreadsheet/sample-rows';

export const FILE_TYPES = { csv: 'text/csv', xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' } as const;

export function userCsv(rows: number): Buffer {
  return Buffer.from(
    userRows(rows)
      .map((row) => row.map((cell) => (/[",\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell)).join(','))
      .join('\r\n'),
  );
}

export async function userXlsx(rows: number): Promise<Buffer> {
  const XLSX = await import('@e965/xlsx');
  const { unzipSync, zipSync } = await import('fflate');
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(userRows(rows)), 'Shipments');
  const written = XLSX.write(book, { type: 'buffer', bookType: 'xlsx', bookSST: true }) as Buffer;
  return Buffer.from(zipSync(unzipSync(written), { level: 6 }));
}
