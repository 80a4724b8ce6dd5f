import { SpreadsheetReadError } from './read-error';

/**
 * What a file really is, from its first bytes and its name. People rename files, and browsers
 * report whatever the extension says, so the content decides; the name only sharpens messages.
 */
export type SniffedFile =
  | { kind: 'xlsx' }
  | { kind: 'xls' }
  /** Text named .xls: an HTML or XML "spreadsheet" that SheetJS reads. */
  | { kind: 'xls-text' }
  | { kind: 'text'; utf16WithoutBom?: 'utf-16le' | 'utf-16be' };

const TEXT_EXTENSIONS = new Set(['csv', 'tsv', 'tab', 'txt', '']);
const WORKBOOK_EXTENSIONS = new Set(['xlsx', 'xlsm', 'xls']);

const SIGNATURES: { bytes: number[]; what: string }[] = [
  { bytes: [0x89, 0x50, 0x4e, 0x47], what: 'a PNG image' },
  { bytes: [0xff, 0xd8, 0xff], what: 'a JPEG image' },
  { bytes: [0x47, 0x49, 0x46, 0x38], what: 'a GIF image' },
  { bytes: [0x25, 0x50, 0x44, 0x46], what: 'a PDF document' },
  { bytes: [0x1f, 0x8b], what: 'a gzip archive' },
  { bytes: [0x52, 0x61, 0x72, 0x21], what: 'a RAR archive' },
  { bytes: [0x37, 0x7a, 0xbc, 0xaf], what: 'a 7-Zip archive' },
];

const ZIP = [0x50, 0x4b, 0x03, 0x04];
const EMPTY_ZIP = [0x50, 0x4b, 0x05, 0x06];
const COMPOUND_FILE = [0xd0, 0xcf, 0x11, 0xe0];

function startsWith(bytes: Uint8Array, signature: number[]): boolean {
  return signature.every((byte, i) => bytes[i] === byte);
}

export function fileExtension(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot < 0 ? '' : fileName.slice(dot + 1).toLowerCase();
}

/** Entry names of a zip are plain text in its headers: look at both ends, where they sit. */
function zipContentHint(bytes: Uint8Array): string {
  const window = 65536;
  const latin1 = new TextDecoder('latin1');
  const head = latin1.decode(bytes.subarray(0, window));
  const tail = bytes.length > window ? latin1.decode(bytes.subarray(bytes.length - window)) : '';
  return head + tail;
}

function describeZip(bytes: Uint8Array): string | null {
  const names = zipContentHint(bytes);
  if (names.includes('xl/')) return null;
  if (names.includes('word/')) return 'This file is a Word document, not a spreadsheet.';
  if (names.includes('ppt/')) return 'This file is a PowerPoint presentation, not a spreadsheet.';
  if (names.includes('opendocument.spreadsheet')) {
    return 'This file is an OpenDocument spreadsheet (.ods); save it as XLSX or CSV and try again.';
  }
  return 'This file is a ZIP archive, not a spreadsheet.';
}

/** UTF-16 text without a byte order mark has a zero in every other byte for Latin text. */
function utf16Without(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | undefined {
  const sample = bytes.subarray(0, Math.min(bytes.length, 4096) & ~1);
  if (sample.length < 4) return undefined;
  let evenZeros = 0;
  let oddZeros = 0;
  for (let i = 0; i < sample.length; i += 2) {
    if (sample[i] === 0) evenZeros++;
    if (sample[i + 1] === 0) oddZeros++;
  }
  const pairs = sample.length / 2;
  if (oddZeros > pairs * 0.4 && evenZeros === 0) return 'utf-16le';
  if (evenZeros > pairs * 0.4 && oddZeros === 0) return 'utf-16be';
  return undefined;
}

/** True when the sample has bytes that never occur in text: NUL and most C0 controls. */
function looksBinary(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, 65536);
  let controls = 0;
  for (let i = 0; i < end; i++) {
    const byte = bytes[i] ?? 0;
    if (byte === 0) return true;
    if (byte < 0x09 || (byte > 0x0d && byte < 0x20 && byte !== 0x1b)) controls++;
  }
  return controls > end / 100;
}

function hasTextBom(bytes: Uint8Array): boolean {
  return startsWith(bytes, [0xef, 0xbb, 0xbf]) || startsWith(bytes, [0xff, 0xfe]) || startsWith(bytes, [0xfe, 0xff]);
}

export function sniffFile(bytes: Uint8Array, fileName: string): SniffedFile {
  const extension = fileExtension(fileName);
  const named = extension ? `named .${extension}` : 'without an extension';
  if (bytes.length === 0) throw new SpreadsheetReadError('invalid_file', 'The file is empty.');

  if (startsWith(bytes, ZIP) || startsWith(bytes, EMPTY_ZIP)) {
    const refusal = describeZip(bytes);
    if (refusal) throw new SpreadsheetReadError('unsupported_file', refusal);
    return { kind: 'xlsx' };
  }
  if (startsWith(bytes, COMPOUND_FILE)) return { kind: 'xls' };
  for (const { bytes: signature, what } of SIGNATURES) {
    if (startsWith(bytes, signature)) {
      throw new SpreadsheetReadError('unsupported_file', `This file is ${what}, not a spreadsheet.`);
    }
  }

  if (!hasTextBom(bytes)) {
    const utf16 = utf16Without(bytes);
    if (utf16) return { kind: 'text', utf16WithoutBom: utf16 };
    if (looksBinary(bytes)) {
      if (WORKBOOK_EXTENSIONS.has(extension)) {
        throw new SpreadsheetReadError('invalid_file', `This file is ${named} but is not an Excel workbook; it may be damaged.`);
      }
      throw new SpreadsheetReadError('unsupported_file', 'This file holds binary data, not a spreadsheet or CSV text.');
    }
  }

  if (WORKBOOK_EXTENSIONS.has(extension)) {
    // Old systems export HTML tables or SpreadsheetML 2003 as ".xls"; others save CSV as ".xls".
    const start = new TextDecoder('latin1').decode(bytes.subarray(0, 512)).replace(/^(\u00EF\u00BB\u00BF)?\s*/, '');
    return start.startsWith('<') ? { kind: 'xls-text' } : { kind: 'text' };
  }
  if (!TEXT_EXTENSIONS.has(extension)) {
    throw new SpreadsheetReadError(
      'unsupported_file',
      `Only CSV, XLS and XLSX files can be imported; this is a .${extension} file.`,
    );
  }
  return { kind: 'text' };
}
