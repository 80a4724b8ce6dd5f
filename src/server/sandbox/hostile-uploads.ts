// Hostile uploads for the sandbox's tests, the e2e specs and `npm run bench -- hostile`, built in
// memory in well under a second: a part that inflates to gigabytes is one deflated megabyte
// repeated (each compressed with a full flush, so its blocks are byte-aligned and independent and
// can be concatenated), as the attacker's own files were.
import { constants, deflateRawSync } from 'node:zlib';

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const MIB = 1024 * 1024;

/** A part's content: literal text, or `head + unit × repeat + tail` for the huge ones. */
interface PartContent {
  head: string;
  unit?: string;
  /** Inflated bytes of the repeated middle, rounded down to whole mebibytes of `unit`. */
  repeatBytes?: number;
  tail: string;
  /** The inflated size the zip entry declares; by default the true one. */
  declaredSize?: number;
}

interface Deflated {
  data: Buffer;
  size: number;
}

function deflatePart(part: PartContent): Deflated {
  const flush = { finishFlush: constants.Z_FULL_FLUSH };
  const pieces: Buffer[] = [deflateRawSync(part.head, flush)];
  let size = Buffer.byteLength(part.head);
  if (part.unit !== undefined && part.repeatBytes) {
    const perMib = Math.floor(MIB / Buffer.byteLength(part.unit));
    const block = part.unit.repeat(perMib);
    const compressed = deflateRawSync(block, flush);
    const blocks = Math.floor(part.repeatBytes / MIB);
    for (let i = 0; i < blocks; i++) pieces.push(compressed);
    size += blocks * Buffer.byteLength(block);
  }
  pieces.push(deflateRawSync(part.tail));
  size += Buffer.byteLength(part.tail);
  return { data: Buffer.concat(pieces), size: part.declaredSize ?? size };
}

/** A zip of deflated entries (zip64 sizes where a size needs them); no CRCs, as the reader checks none. */
function zip(entries: { name: string; part: Deflated }[]): Uint8Array {
  const out: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const { name, part } of entries) {
    const nameBytes = Buffer.from(name);
    const big = part.size >= 0xffffffff;
    const extra = big ? Buffer.alloc(20) : Buffer.alloc(0);
    if (big) {
      extra.writeUInt16LE(1, 0);
      extra.writeUInt16LE(16, 2);
      extra.writeBigUInt64LE(BigInt(part.size), 4);
      extra.writeBigUInt64LE(BigInt(part.data.length), 12);
    }
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(45, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(big ? 0xffffffff : part.data.length, 18);
    local.writeUInt32LE(big ? 0xffffffff : part.size, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    local.writeUInt16LE(extra.length, 28);
    out.push(local, nameBytes, extra, part.data);
    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE(45, 4);
    header.writeUInt16LE(45, 6);
    header.writeUInt16LE(8, 10);
    header.writeUInt32LE(big ? 0xffffffff : part.data.length, 20);
    header.writeUInt32LE(big ? 0xffffffff : part.size, 24);
    header.writeUInt16LE(nameBytes.length, 28);
    header.writeUInt16LE(extra.length, 30);
    header.writeUInt32LE(offset, 42);
    central.push(header, nameBytes, extra);
    offset += local.length + nameBytes.length + extra.length + part.data.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  const bytes = Buffer.concat([...out, directory, end]);
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** A workbook of one sheet whose parts are given as PartContent. */
function workbook(sheet: PartContent, sharedStrings?: PartContent): Uint8Array {
  const text = (content: string): Deflated => deflatePart({ head: content, tail: '' });
  const rels = [`<Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/>`];
  if (sharedStrings) rels.push(`<Relationship Id="rId2" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/>`);
  const entries = [
    { name: '[Content_Types].xml', part: text('<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>') },
    {
      name: '_rels/.rels',
      part: text(`<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`),
    },
    {
      name: 'xl/workbook.xml',
      part: text(`<?xml version="1.0"?><workbook xmlns="${MAIN}" xmlns:r="${REL}"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`),
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      part: text(`<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rels.join('')}</Relationships>`),
    },
  ];
  if (sharedStrings) entries.push({ name: 'xl/sharedStrings.xml', part: deflatePart(sharedStrings) });
  entries.push({ name: 'xl/worksheets/sheet1.xml', part: deflatePart(sheet) });
  return zip(entries);
}

const SHEET_HEAD = `<?xml version="1.0"?>\n<worksheet xmlns="${MAIN}"><sheetData>`;
const SHEET_TAIL = '</sheetData></worksheet>';
const HEADER_ROW = '<row r="1"><c t="inlineStr"><is><t>tracking_number</t></is></c><c t="inlineStr"><is><t>tracking_type</t></is></c></row>';

export interface HostileOptions {
  /** Inflated megabytes of the repeated part; 4,000 as in the issue. */
  inflatedMiB?: number;
  /** Declare this inflated size in the zip entry instead of the true one (a lying entry). */
  declaredSize?: number;
}

/** A `sharedStrings.xml` of `<si><t>x</t></si>` repeated (the issue's 10 MB file, 4,000 MB inflated). */
export function sharedStringsBomb({ inflatedMiB = 4000, declaredSize }: HostileOptions = {}): Uint8Array {
  return workbook(
    { head: `${SHEET_HEAD}<row r="1"><c t="s"><v>0</v></c></row>`, tail: SHEET_TAIL },
    { head: `<?xml version="1.0"?>\n<sst xmlns="${MAIN}">`, unit: '<si><t>x</t></si>', repeatBytes: inflatedMiB * MIB, tail: '</sst>', declaredSize },
  );
}

/** A sheet of rows of one inline-string cell, repeated: every row is real and non-empty. */
export function sheetBomb({ inflatedMiB = 4000, declaredSize }: HostileOptions = {}): Uint8Array {
  return workbook({ head: SHEET_HEAD + HEADER_ROW, unit: '<row><c t="inlineStr"><is><t>x</t></is></c></row>', repeatBytes: inflatedMiB * MIB, tail: SHEET_TAIL, declaredSize });
}

/** One `<row>` that never closes, of `<c/>` repeated (the issue's 4 MB file). */
export function unclosedRow({ inflatedMiB = 4000, declaredSize }: HostileOptions = {}): Uint8Array {
  return workbook({ head: `${SHEET_HEAD}<row r="1">`, unit: '<c/>', repeatBytes: inflatedMiB * MIB, tail: SHEET_TAIL, declaredSize });
}

/** A header row, then `<row/>` repeated: nothing to keep, everything to scan. */
export function emptyRows({ inflatedMiB = 4000, declaredSize }: HostileOptions = {}): Uint8Array {
  return workbook({ head: SHEET_HEAD + HEADER_ROW, unit: '<row/>', repeatBytes: inflatedMiB * MIB, tail: SHEET_TAIL, declaredSize });
}

/** A sheet whose XML declares entities that expand to each other (billion laughs) and uses the last. */
export function billionLaughs(): Uint8Array {
  const entities = ['<!ENTITY lol0 "lol">'];
  for (let i = 1; i <= 9; i++) entities.push(`<!ENTITY lol${i} "${`&lol${i - 1};`.repeat(10)}">`);
  const head = `<?xml version="1.0"?>\n<!DOCTYPE worksheet [${entities.join('')}]>\n<worksheet xmlns="${MAIN}"><sheetData>${HEADER_ROW}`;
  return workbook({ head: `${head}<row r="2"><c t="inlineStr"><is><t>&lol9;</t></is></c></row>`, tail: SHEET_TAIL });
}

/**
 * One shared string of `chars` characters referenced by `rows` rows: a few kilobytes that read as
 * `rows × chars` characters of cells (the amplification the sandbox's result cap bounds).
 */
export function sharedStringEverywhere({ rows = 600, chars = 32_000 }: { rows?: number; chars?: number } = {}): Uint8Array {
  return workbook(
    { head: SHEET_HEAD + HEADER_ROW, unit: undefined, tail: `${'<row><c t="inlineStr"><is><t>CSQU3054383</t></is></c><c t="s"><v>0</v></c></row>'.repeat(rows)}${SHEET_TAIL}` },
    { head: `<?xml version="1.0"?>\n<sst xmlns="${MAIN}"><si><t>${'c'.repeat(chars)}</t></si>`, tail: '</sst>' },
  );
}

/** A CSV of `rows` rows of `columns` cells, all but two empty: cells, hardly any text. */
export function manyEmptyCells({ rows = 5000, columns = 101 } = {}): string {
  return `tracking_number,tracking_type${','.repeat(columns - 2)}\n${`CSQU3054383,container${','.repeat(columns - 2)}\n`.repeat(rows)}`;
}

/** CSV text: a header, then `rows` rows, one of whose cells (row 2's name) is `cellChars` long. */
export function csvWithLongCell(cellChars = 2_097_152): string {
  return `tracking_number,tracking_type,name\nMSCU1234566,container,first\nMAEU1234567,container,${'n'.repeat(cellChars)}\nCSQU3054383,container,last\n`;
}

/** A CSV header of `columns` columns (the required two first) and one row. */
export function wideCsv(columns = 5000): string {
  const header = ['tracking_number', 'tracking_type', ...Array.from({ length: columns - 2 }, (_, i) => `extra_${i + 1}`)];
  return `${header.join(',')}\nCSQU3054383,container${','.repeat(columns - 2)}\n`;
}

/** A CSV named .csv with NUL bytes through its rows. */
export function csvWithNuls(): Uint8Array {
  return new TextEncoder().encode('tracking_number,tracking_type\nCSQU\u00003054383,container\n\u0000\u0000\u0000,container\n');
}

/** `[[[…]]]` nested `depth` deep. */
export function deepJson(depth = 10_000): string {
  return '['.repeat(depth) + ']'.repeat(depth);
}
