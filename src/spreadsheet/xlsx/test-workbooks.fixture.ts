/**
 * Hand-built workbooks for the reader's tests: what SheetJS cannot write (phonetic runs, `_xHHHH_`
 * escapes, `x:` prefixes, cells without references, stored or zip64 entries, upper-case names).
 */
import { deflateSync, strToU8 } from 'fflate';

interface ZipFile {
  name: string;
  data: string | Uint8Array;
  stored?: boolean;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = (CRC_TABLE[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** A zip archive written field by field, optionally with zip64 records for every entry. */
export function writeZip(files: ZipFile[], { zip64 = false } = {}): Uint8Array {
  const chunks: number[] = [];
  const u16 = (value: number) => chunks.push(value & 0xff, (value >>> 8) & 0xff);
  const u32 = (value: number) => {
    u16(value & 0xffff);
    u16(value >>> 16);
  };
  const u64 = (value: number) => {
    u32(value % 0x1_0000_0000);
    u32(Math.floor(value / 0x1_0000_0000));
  };
  const bytes = (data: Uint8Array) => {
    for (const byte of data) chunks.push(byte);
  };
  const central: { name: Uint8Array; method: number; crc: number; compressed: number; size: number; offset: number }[] = [];

  for (const file of files) {
    const data = typeof file.data === 'string' ? strToU8(file.data) : file.data;
    const method = file.stored ? 0 : 8;
    const compressed = file.stored ? data : deflateSync(data);
    const name = strToU8(file.name);
    const entry = { name, method, crc: crc32(data), compressed: compressed.length, size: data.length, offset: chunks.length };
    central.push(entry);
    u32(0x04034b50);
    u16(zip64 ? 45 : 20);
    u16(0x0800);
    u16(method);
    u32(0);
    u32(entry.crc);
    u32(zip64 ? 0xffffffff : entry.compressed);
    u32(zip64 ? 0xffffffff : entry.size);
    u16(name.length);
    u16(zip64 ? 20 : 0);
    bytes(name);
    if (zip64) {
      u16(0x0001);
      u16(16);
      u64(entry.size);
      u64(entry.compressed);
    }
    bytes(compressed);
  }

  const directoryOffset = chunks.length;
  for (const entry of central) {
    u32(0x02014b50);
    u16(zip64 ? 45 : 20);
    u16(zip64 ? 45 : 20);
    u16(0x0800);
    u16(entry.method);
    u32(0);
    u32(entry.crc);
    u32(zip64 ? 0xffffffff : entry.compressed);
    u32(zip64 ? 0xffffffff : entry.size);
    u16(entry.name.length);
    u16(zip64 ? 28 : 0);
    u16(0);
    u16(0);
    u16(0);
    u32(0);
    u32(zip64 ? 0xffffffff : entry.offset);
    bytes(entry.name);
    if (zip64) {
      u16(0x0001);
      u16(24);
      u64(entry.size);
      u64(entry.compressed);
      u64(entry.offset);
    }
  }
  const directorySize = chunks.length - directoryOffset;

  if (zip64) {
    const recordOffset = chunks.length;
    u32(0x06064b50);
    u64(44);
    u16(45);
    u16(45);
    u32(0);
    u32(0);
    u64(central.length);
    u64(central.length);
    u64(directorySize);
    u64(directoryOffset);
    u32(0x07064b50);
    u32(0);
    u64(recordOffset);
    u32(1);
  }
  u32(0x06054b50);
  u16(0);
  u16(0);
  u16(zip64 ? 0xffff : central.length);
  u16(zip64 ? 0xffff : central.length);
  u32(zip64 ? 0xffffffff : directorySize);
  u32(zip64 ? 0xffffffff : directoryOffset);
  u16(0);
  return Uint8Array.from(chunks);
}

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

interface HandSheet {
  name: string;
  /** The rows: the content of `<sheetData>`, or a whole part when it starts with `<?xml`. */
  xml: string;
  state?: 'hidden' | 'veryHidden';
}

interface HandWorkbook {
  sheets: HandSheet[];
  /** `<si>` elements of the shared-string table. */
  sharedStrings?: string;
  /** `<numFmt>` elements, and `<xf>` elements of cellXfs. */
  numFmts?: string;
  cellXfs?: string;
  date1904?: boolean;
  /** Namespace prefix of every SpreadsheetML element (e.g. 'x'). */
  prefix?: string;
  upperCaseNames?: boolean;
  stored?: boolean;
  zip64?: boolean;
}

/** A minimal but complete workbook package around hand-written sheet XML. */
export function handWorkbook(book: HandWorkbook): Uint8Array {
  const p = book.prefix ? `${book.prefix}:` : '';
  const ns = book.prefix ? `xmlns:${book.prefix}="${MAIN}"` : `xmlns="${MAIN}"`;
  const rels = book.sheets.map(
    (_, index) => `<Relationship Id="rId${index + 1}" Type="${REL}/worksheet" Target="worksheets/sheet${index + 1}.xml"/>`,
  );
  rels.push(`<Relationship Id="rIdS" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/>`);
  rels.push(`<Relationship Id="rIdT" Type="${REL}/styles" Target="styles.xml"/>`);
  const files: ZipFile[] = [
    { name: '[Content_Types].xml', data: '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>' },
    {
      name: '_rels/.rels',
      data: `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    },
    {
      name: 'xl/workbook.xml',
      data:
        `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<${p}workbook ${ns} xmlns:r="${REL}">` +
        `<${p}workbookPr${book.date1904 ? ' date1904="1"' : ''}/><${p}sheets>` +
        book.sheets
          .map((sheet, index) => `<${p}sheet name="${sheet.name}" sheetId="${index + 1}"${sheet.state ? ` state="${sheet.state}"` : ''} r:id="rId${index + 1}"/>`)
          .join('') +
        `</${p}sheets></${p}workbook>`,
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      data: `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rels.join('')}</Relationships>`,
    },
    {
      name: 'xl/styles.xml',
      data:
        `<?xml version="1.0"?><${p}styleSheet ${ns}><${p}numFmts>${book.numFmts ?? ''}</${p}numFmts>` +
        `<${p}cellStyleXfs count="1"><${p}xf numFmtId="0"/></${p}cellStyleXfs>` +
        `<${p}cellXfs>${book.cellXfs ?? `<${p}xf numFmtId="0"/>`}</${p}cellXfs></${p}styleSheet>`,
    },
  ];
  if (book.sharedStrings !== undefined) {
    files.push({ name: 'xl/sharedStrings.xml', data: `<?xml version="1.0"?>\n<${p}sst ${ns}>${book.sharedStrings}</${p}sst>` });
  }
  book.sheets.forEach((sheet, index) => {
    const data = sheet.xml.startsWith('<?xml')
      ? sheet.xml
      : `<?xml version="1.0"?>\n<${p}worksheet ${ns}><${p}dimension ref="A1"/><${p}sheetData>${sheet.xml}</${p}sheetData></${p}worksheet>`;
    files.push({ name: `xl/worksheets/sheet${index + 1}.xml`, data });
  });
  return writeZip(
    files.map((file) => ({
      ...file,
      name: book.upperCaseNames ? file.name.toUpperCase() : file.name,
      stored: book.stored ?? false,
    })),
    { zip64: book.zip64 ?? false },
  );
}

/** One sheet of hand-written rows in an otherwise default workbook. */
export function oneSheet(rows: string, extra: Omit<HandWorkbook, 'sheets'> = {}): Uint8Array {
  return handWorkbook({ sheets: [{ name: 'Sheet1', xml: rows }], ...extra });
}
