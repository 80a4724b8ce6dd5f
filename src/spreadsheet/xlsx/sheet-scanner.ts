import { type DateDisplay, formatIsoDateCell, formatSerial } from './date-format';
import { formatNumber } from './number-format';
import { richText } from './rich-text';
import { XlsxReadError, damaged } from './xlsx-errors';
import { decodeCellText, rootPrefix } from './xml-text';

export interface SheetLimits {
  maxRows: number;
  maxColumns: number;
  maxCellLength: number;
}

export interface SheetContext {
  sharedStrings: readonly string[];
  /** Date display of each cell format, by the cell's `s` index. */
  styles: readonly (DateDisplay | null)[];
  date1904: boolean;
  limits: SheetLimits;
}

// Cell types from the `t` attribute, as small integers for a cheap switch per cell.
const NUMBER = 0;
const SHARED = 1;
const INLINE = 2;
const TEXT = 3;
const BOOL = 4;
const DATE = 5;

/** `>`, `/` or XML whitespace: the end of an element name. */
function isNameEnd(code: number): boolean {
  return code === 62 || code === 47 || code === 32 || code === 9 || code === 10 || code === 13;
}

/**
 * Reads the rows of a worksheet part as it is decompressed: `push` the text of each chunk, `end`
 * after the last. Only complete `<row>` elements are scanned; the unfinished tail waits for the
 * next chunk, so memory holds one chunk plus the rows read. The scan works on string indices
 * (`indexOf`, `charCodeAt`) and slices only the values it keeps.
 */
export class SheetScanner {
  readonly rows: string[][] = [];
  readonly rowNumbers: number[] = [];
  /** Set at `</sheetData>`: the rest of the part holds nothing this reader needs. */
  finished = false;

  private pending = '';
  private inSheetData = false;
  private lastRowNumber = 0;
  private tags: ReturnType<typeof sheetTags> | null = null;
  // Position of the last `<v>` text found, set by findValue to avoid allocating a result object.
  private valueStart = 0;
  private valueEnd = 0;

  constructor(private readonly context: SheetContext) {}

  push(text: string): void {
    if (this.finished) return;
    const xml = this.pending + text;
    this.pending = xml.slice(this.scan(xml));
  }

  end(): void {
    if (this.inSheetData && !this.finished) throw damaged('the sheet ends in the middle of its rows');
  }

  /** Consumes every complete row and returns where the unconsumed rest begins. */
  private scan(xml: string): number {
    if (this.tags === null) {
      const prefix = rootPrefix(xml);
      if (prefix === null) return 0;
      this.tags = sheetTags(prefix);
    }
    const tags = this.tags;
    let at = 0;
    if (!this.inSheetData) {
      let open = xml.indexOf(tags.sheetData);
      while (open >= 0 && !isNameEnd(xml.charCodeAt(open + tags.sheetData.length))) {
        if (open + tags.sheetData.length >= xml.length) return open;
        open = xml.indexOf(tags.sheetData, open + 1);
      }
      if (open < 0) return Math.max(0, xml.length - tags.sheetData.length);
      const gt = xml.indexOf('>', open);
      if (gt < 0) return open;
      if (xml.charCodeAt(gt - 1) === 47 /* <sheetData/> */) {
        this.finished = true;
        return xml.length;
      }
      this.inSheetData = true;
      at = gt + 1;
    }
    for (;;) {
      const lt = xml.indexOf('<', at);
      if (lt < 0) return xml.length;
      if (xml.startsWith(tags.row, lt) && isNameEnd(xml.charCodeAt(lt + tags.row.length))) {
        const gt = xml.indexOf('>', lt);
        if (gt < 0) return lt;
        const rowNumber = this.readRowNumber(xml, lt + tags.row.length, gt);
        if (xml.charCodeAt(gt - 1) === 47 /* an empty <row/> */) {
          this.lastRowNumber = rowNumber > 0 ? rowNumber : this.lastRowNumber + 1;
          at = gt + 1;
          continue;
        }
        const end = xml.indexOf(tags.rowEnd, gt);
        if (end < 0) return lt;
        this.readRow(xml, gt + 1, end, rowNumber);
        at = end + tags.rowEnd.length;
      } else if (xml.startsWith(tags.sheetDataEnd, lt)) {
        this.finished = true;
        return xml.length;
      } else {
        const end = xml.startsWith('<!--', lt) ? xml.indexOf('-->', lt) : xml.indexOf('>', lt);
        if (end < 0) return lt;
        at = end + 1;
      }
    }
  }

  /** The `r` of a `<row>`, or 0 when absent (then the first cell's reference or the count decides). */
  private readRowNumber(xml: string, from: number, to: number): number {
    let at = from;
    while (at < to) {
      const eq = xml.indexOf('=', at);
      if (eq < 0 || eq >= to) return 0;
      let quoteAt = eq + 1;
      while (xml.charCodeAt(quoteAt) === 32) quoteAt++;
      const close = xml.indexOf(xml.charCodeAt(quoteAt) === 39 ? "'" : '"', quoteAt + 1);
      if (close < 0 || close > to) return 0;
      let nameEnd = eq;
      while (xml.charCodeAt(nameEnd - 1) === 32) nameEnd--;
      if (xml.charCodeAt(nameEnd - 1) === 114 /* r */ && isNameEnd(xml.charCodeAt(nameEnd - 2))) {
        return parseDigits(xml, quoteAt + 1, close);
      }
      at = close + 1;
    }
    return 0;
  }

  private readRow(xml: string, from: number, to: number, declaredNumber: number): void {
    const tags = this.tags;
    if (tags === null) return;
    const { limits } = this.context;
    let rowNumber = declaredNumber;
    const cells: string[] = [];
    let column = 0;
    let at = from;
    for (;;) {
      const lt = xml.indexOf('<', at);
      if (lt < 0 || lt >= to) break;
      const gt = xml.indexOf('>', lt);
      if (gt < 0 || gt > to) throw damaged('a row of the sheet is broken');
      if (!(xml.startsWith(tags.cell, lt) && isNameEnd(xml.charCodeAt(lt + tags.cell.length)))) {
        at = skipElement(xml, lt, gt, to);
        continue;
      }

      // Attributes r (reference), t (type), s (style); single-letter names, any order.
      let type = NUMBER;
      let style = 0;
      let attribute = lt + tags.cell.length;
      while (attribute < gt) {
        const eq = xml.indexOf('=', attribute);
        if (eq < 0 || eq > gt) break;
        let quoteAt = eq + 1;
        while (xml.charCodeAt(quoteAt) === 32) quoteAt++;
        const quote = xml.charCodeAt(quoteAt) === 39 ? "'" : '"';
        const valueStart = quoteAt + 1;
        const valueEnd = xml.indexOf(quote, valueStart);
        if (valueEnd < 0 || valueEnd > gt) break;
        let nameEnd = eq;
        while (xml.charCodeAt(nameEnd - 1) === 32) nameEnd--;
        if (isNameEnd(xml.charCodeAt(nameEnd - 2))) {
          const name = xml.charCodeAt(nameEnd - 1);
          if (name === 114 /* r */) {
            const referenced = referenceColumn(xml, valueStart, valueEnd);
            if (referenced >= 0) column = referenced;
            if (rowNumber === 0) rowNumber = parseDigits(xml, valueStart, valueEnd);
          } else if (name === 116 /* t */) {
            type = cellType(xml, valueStart, valueEnd);
          } else if (name === 115 /* s */) {
            style = parseDigits(xml, valueStart, valueEnd);
          }
        }
        attribute = valueEnd + 1;
      }

      if (xml.charCodeAt(gt - 1) === 47 /* <c/>: formatted but empty */) {
        column++;
        at = gt + 1;
        continue;
      }
      const end = xml.indexOf(tags.cellEnd, gt);
      if (end < 0 || end > to) throw damaged('a cell of the sheet is broken');
      const value = this.cellValue(xml, gt + 1, end, type, style);
      if (value !== '') {
        if (column >= limits.maxColumns) {
          throw new XlsxReadError('too_large', `The sheet has more than ${count(limits.maxColumns)} columns.`);
        }
        if (value.length > limits.maxCellLength) {
          throw new XlsxReadError('too_large', `A cell in row ${rowNumber || this.lastRowNumber + 1} is longer than ${count(limits.maxCellLength)} characters.`);
        }
        while (cells.length < column) cells.push('');
        cells[column] = value;
      }
      column++;
      at = end + tags.cellEnd.length;
    }

    const number = rowNumber > 0 ? rowNumber : this.lastRowNumber + 1;
    this.lastRowNumber = number;
    if (cells.length === 0) return;
    if (this.rows.length >= limits.maxRows) {
      throw new XlsxReadError('too_large', `The sheet has more than ${count(limits.maxRows)} rows.`);
    }
    this.rows.push(cells);
    this.rowNumbers.push(number);
  }

  private cellValue(xml: string, from: number, to: number, type: number, style: number): string {
    const tags = this.tags;
    if (tags === null) return '';
    if (type === INLINE) return richText(xml, from, to, tags.prefix);
    if (!this.findValue(xml, from, to, tags.value)) return ''; // a formula without a cached value
    const start = this.valueStart;
    const end = this.valueEnd;
    if (start === end) return '';
    switch (type) {
      case SHARED: {
        const index = parseDigits(xml, start, end);
        const text = this.context.sharedStrings[index];
        if (text === undefined) throw damaged(`a cell refers to shared string ${index}, which does not exist`);
        return text;
      }
      case NUMBER: {
        const raw = xml.slice(start, end);
        const value = Number(raw);
        if (Number.isNaN(value) || (value === 0 && raw.trim() === '')) return decodeCellText(raw);
        const display = this.context.styles[style];
        if (display) return formatSerial(value, display, this.context.date1904) ?? formatNumber(value);
        return formatNumber(value);
      }
      case BOOL: {
        const code = xml.charCodeAt(start);
        return code === 49 /* 1 */ || code === 116 /* true */ ? 'TRUE' : 'FALSE';
      }
      case DATE:
        return formatIsoDateCell(xml.slice(start, end), this.context.styles[style] ?? null);
      default:
        return decodeCellText(xml.slice(start, end));
    }
  }

  /** Finds the text of the `<v>` child in xml[from, to); sets valueStart/valueEnd. */
  private findValue(xml: string, from: number, to: number, open: string): boolean {
    let at = xml.indexOf(open, from);
    while (at >= 0 && at < to) {
      const next = xml.charCodeAt(at + open.length);
      if (isNameEnd(next)) {
        const gt = next === 62 ? at + open.length : xml.indexOf('>', at);
        if (gt < 0 || gt >= to) return false;
        if (xml.charCodeAt(gt - 1) === 47) {
          this.valueStart = this.valueEnd = gt;
          return true;
        }
        const end = xml.indexOf('<', gt + 1);
        if (end < 0 || end > to) return false;
        this.valueStart = gt + 1;
        this.valueEnd = end;
        return true;
      }
      at = xml.indexOf(open, at + 1);
    }
    return false;
  }
}

function sheetTags(prefix: string) {
  return {
    prefix,
    sheetData: `<${prefix}sheetData`,
    sheetDataEnd: `</${prefix}sheetData`,
    row: `<${prefix}row`,
    rowEnd: `</${prefix}row>`,
    cell: `<${prefix}c`,
    cellEnd: `</${prefix}c>`,
    value: `<${prefix}v`,
  };
}

/** Past an element other than `<c>` inside a row (such as `<extLst>`), whole. */
function skipElement(xml: string, lt: number, gt: number, to: number): number {
  if (xml.charCodeAt(gt - 1) === 47 || xml.charCodeAt(lt + 1) === 47 || xml.charCodeAt(lt + 1) === 33) return gt + 1;
  let nameEnd = lt + 1;
  while (nameEnd < gt && !isNameEnd(xml.charCodeAt(nameEnd))) nameEnd++;
  const close = xml.indexOf(`</${xml.slice(lt + 1, nameEnd)}>`, gt);
  return close < 0 || close > to ? gt + 1 : close;
}

function cellType(xml: string, start: number, end: number): number {
  const first = xml.charCodeAt(start);
  const length = end - start;
  if (length === 1) {
    if (first === 115 /* s */) return SHARED;
    if (first === 98 /* b */) return BOOL;
    if (first === 101 /* e: the error text, e.g. #N/A */) return TEXT;
    if (first === 100 /* d */) return DATE;
    if (first === 110 /* n */) return NUMBER;
  }
  if (length === 9 && first === 105 /* inlineStr */) return INLINE;
  return TEXT;
}

/** "AB12" → column 27 (0-based); -1 when the reference has no column letters. */
function referenceColumn(xml: string, start: number, end: number): number {
  let column = 0;
  for (let at = start; at < end; at++) {
    const code = xml.charCodeAt(at) & ~32; // upper-case
    if (code < 65 || code > 90) break;
    column = column * 26 + (code - 64);
  }
  return column - 1;
}

/** The digits in xml[start, end) as a number, skipping anything else ("AB12" → 12, " 7 " → 7). */
function parseDigits(xml: string, start: number, end: number): number {
  let value = 0;
  for (let at = start; at < end; at++) {
    const digit = xml.charCodeAt(at) - 48;
    if (digit >= 0 && digit <= 9) value = value * 10 + digit;
  }
  return value;
}

function count(value: number): string {
  return value.toLocaleString('en-US');
}
