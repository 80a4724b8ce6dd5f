import { scanChunk } from './chunk-joiner';
import { type DateDisplay, formatIsoDateCell, formatSerial } from './date-format';
import { formatNumber } from './number-format';
import { richText } from './rich-text';
import { shortenCell } from '../table-limits';
import { XlsxReadError, damaged } from './xlsx-errors';
import { EscapeFinder, copyOf, decodeCellText, detach, nextOrEnd, rootPrefix } from './xml-text';

interface SheetLimits {
  maxRows: number;
  maxColumns: number;
  maxCellLength: number;
  /** Characters of XML one row may span: a row that never closes must not grow memory without end. */
  maxRowXmlChars: number;
}

export interface SheetContext {
  sharedStrings: readonly string[];
  /** Date display of each cell format, by the cell's `s` index. */
  styles: readonly (DateDisplay | null)[];
  date1904: boolean;
  limits: SheetLimits;
}

/** An unfinished row this long is only appended to until a chunk brings its `</row>` (see push). */
const LONG_PENDING = 1024 * 1024;

/** Whether `</row>` is in `text` or straddles the end of `pending` and the start of `text`. */
function endsRowIn(pending: string, text: string, rowEnd: string): boolean {
  if (text.includes(rowEnd)) return true;
  const seam = rowEnd.length - 1;
  return (pending.slice(-seam) + text.slice(0, seam)).includes(rowEnd);
}

/** readRow's answer when the text ends before the row does. */
const INCOMPLETE = -1;

// Cell types from the `t` attribute, as small integers for a cheap switch per cell.
const NUMBER = 0;
const SHARED = 1;
const INLINE = 2;
const TEXT = 3;
const BOOL = 4;
const DATE = 5;

/** XML whitespace. */
function isSpace(code: number): boolean {
  return code === 32 || code === 10 || code === 9 || code === 13;
}

/** `>`, `/` or XML whitespace: the end of an element name. */
function isNameEnd(code: number): boolean {
  return code === 62 || code === 47 || isSpace(code);
}

/**
 * Reads the rows of a worksheet part as it is decompressed: `push` the text of each chunk, `end`
 * after the last. Only complete `<row>` elements are scanned; the unfinished tail waits for the
 * next chunk, so memory holds about one chunk plus the rows read.
 *
 * The scan runs for every cell of a sheet (a million for 100,000 rows × 10 columns), so it
 * avoids regular expressions, intermediate strings and objects, and copies out only the values
 * it keeps (see readRow for how it walks a row).
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
  private readonly cells: string[] = [];
  private readonly scanFrom = (xml: string, from: number) => this.scan(xml, from);
  private readonly escapes = new EscapeFinder();
  /** Where the next '=' of the text being scanned is (its length when there is none). */
  private nextEquals = -1;

  constructor(private readonly context: SheetContext) {}

  push(text: string): void {
    if (this.finished) return;
    const tags = this.tags;
    if (tags !== null && this.pending.length > LONG_PENDING && this.inSheetData && this.pending.startsWith(tags.row) && !endsRowIn(this.pending, text, tags.rowEnd)) {
      // Still inside one long unfinished row: rescanning it per chunk would cost the square of its size.
      this.pending += text;
    } else {
      this.pending = scanChunk(this.pending, text, tags?.rowEnd ?? null, this.scanFrom);
    }
    // The unconsumed tail is one unfinished row (or what precedes the rows): checked per chunk,
    // so a `<row>` that never closes is refused after a few chunks, not at the part's end.
    if (this.pending.length > this.context.limits.maxRowXmlChars) {
      throw new XlsxReadError(
        'too_large',
        `Row ${count(this.lastRowNumber + 1)} of the sheet spans more than ${count(this.context.limits.maxRowXmlChars)} characters of XML without ending; the file is damaged or not a real spreadsheet.`,
      );
    }
  }

  end(): void {
    if (this.inSheetData && !this.finished) throw damaged('the sheet ends in the middle of its rows');
  }

  /** Consumes every complete row from `from` and returns where the unconsumed rest begins. */
  private scan(xml: string, from: number): number {
    if (this.finished) return xml.length;
    if (this.tags === null) {
      const prefix = rootPrefix(xml);
      if (prefix === null) return from;
      this.tags = sheetTags(prefix);
    }
    const tags = this.tags;
    this.escapes.reset(xml);
    this.nextEquals = -1;
    let at = from;
    if (!this.inSheetData) {
      let open = xml.indexOf(tags.sheetData, at);
      while (open >= 0 && !isNameEnd(xml.charCodeAt(open + tags.sheetData.length))) {
        if (open + tags.sheetData.length >= xml.length) return open;
        open = xml.indexOf(tags.sheetData, open + 1);
      }
      if (open < 0) return Math.max(at, xml.length - tags.sheetData.length);
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
        const rowNumber = readRowNumber(xml, lt + tags.row.length, gt);
        if (xml.charCodeAt(gt - 1) === 47 /* an empty <row/> */) {
          this.lastRowNumber = rowNumber > 0 ? rowNumber : this.lastRowNumber + 1;
          at = gt + 1;
          continue;
        }
        const end = this.readRow(xml, gt + 1, rowNumber);
        if (end < 0) return lt;
        at = end;
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

  /**
   * The cells of the row whose content starts at `from`. Returns the position after its `</row>`,
   * or INCOMPLETE when the text ends first (the row is read again with the next chunk).
   *
   * This runs for every cell of a sheet, and as cold code: each file gets a new worker, so most
   * of a read happens before the JIT has optimized this loop. Builtins (`indexOf`,
   * `startsWith`) are fast from the first call, so they do the walking: the row's end is one
   * search (text escapes `<`, so `</row>` only ends rows), a cell's tag end another, attributes
   * are found by `=` and their quotes, and a lone `<v>` child, nearly every cell, is read without
   * the general walk over the children. (Loops over character codes were 1.8× slower here.)
   */
  private readRow(xml: string, from: number, declaredNumber: number): number {
    const tags = this.tags;
    if (tags === null) return INCOMPLETE;
    let rowEnd = xml.indexOf(tags.rowEnd, from);
    if (rowEnd < 0) return INCOMPLETE;
    const to = xml.length;
    const { limits, sharedStrings, styles } = this.context;
    const prefixLength = tags.prefix.length;
    const cellEndLength = 4 + prefixLength; // </c>
    const cells = this.cells;
    let width = 0;
    let rowNumber = declaredNumber;
    let column = 0;
    let at = from;
    for (;;) {
      if (xml.charCodeAt(at) !== 60 /* < */) {
        at = xml.indexOf('<', at);
        if (at < 0) return INCOMPLETE;
      }
      if (at >= rowEnd) {
        if (at === rowEnd) {
          at += tags.rowEnd.length;
          break;
        }
        // Something skipped over (a comment) held a `</row>`: the row ends at the next one.
        rowEnd = xml.indexOf(tags.rowEnd, at);
        if (rowEnd < 0) return INCOMPLETE;
        continue;
      }
      const nameAt = at + 1 + prefixLength;
      if (xml.charCodeAt(nameAt) !== 99 /* c */ || !isNameEnd(xml.charCodeAt(nameAt + 1)) || (prefixLength > 0 && !xml.startsWith(tags.cell, at))) {
        if (xml.charCodeAt(at + 1) === 47 /* a closing tag that is not </row> */) throw damaged('a row of the sheet is broken');
        at = skipElement(xml, at);
        if (at < 0) return INCOMPLETE;
        continue;
      }
      // Attributes: r (reference), t (type), s (style) matter; any order, any others skipped.
      let type = NUMBER;
      let style = 0;
      let gt = xml.indexOf('>', nameAt);
      if (gt < 0) return INCOMPLETE;
      for (let p = nameAt + 1; ; ) {
        // The next '=' of the text is remembered: past a cell's last attribute the search finds
        // the next cell's first, which is then not searched again (and where cells carry no
        // attributes, a search per cell would run to the chunk's end every time).
        if (this.nextEquals < p) this.nextEquals = nextOrEnd(xml, '=', p);
        const eq = this.nextEquals;
        if (eq > gt) break;
        let quoteAt = eq + 1;
        while (isSpace(xml.charCodeAt(quoteAt))) quoteAt++;
        const valueStart = quoteAt + 1;
        const valueEnd = xml.indexOf(xml.charCodeAt(quoteAt) === 39 ? "'" : '"', valueStart);
        if (valueEnd < 0) return INCOMPLETE;
        if (valueEnd > gt) {
          gt = xml.indexOf('>', valueEnd); // a `>` inside a quoted value
          if (gt < 0) return INCOMPLETE;
        }
        let nameEnd = eq;
        while (isSpace(xml.charCodeAt(nameEnd - 1))) nameEnd--;
        if (isSpace(xml.charCodeAt(nameEnd - 2))) {
          const name = xml.charCodeAt(nameEnd - 1);
          if (name === 114 /* r: letters then digits */) {
            let q = valueStart;
            let letters = 0;
            let code = xml.charCodeAt(q) & ~32; // upper case
            while (code >= 65 && code <= 90) {
              letters = letters * 26 + code - 64;
              code = xml.charCodeAt(++q) & ~32;
            }
            if (letters > 0) column = letters - 1;
            if (rowNumber === 0) rowNumber = parseDigits(xml, q, valueEnd);
          } else if (name === 116 /* t */) {
            type = cellType(xml, valueStart, valueEnd);
          } else if (name === 115 /* s */) {
            style = parseDigits(xml, valueStart, valueEnd);
          }
        }
        p = valueEnd + 1;
      }
      if (xml.charCodeAt(gt - 1) === 47 /* /> */) {
        column++;
        at = gt + 1;
        continue;
      }
      let p = gt + 1;

      // Children: <v> (the value or cached formula result), <is> (inline string), <f>, others.
      let valueStart = -1;
      let valueEnd = -1;
      let inline: string | null = null;
      const loneValueEnd = xml.startsWith(tags.value, p) ? xml.indexOf('<', p + tags.value.length) : -1;
      if (loneValueEnd >= 0 && xml.startsWith(tags.valueAndCellEnd, loneValueEnd)) {
        valueStart = p + tags.value.length;
        valueEnd = loneValueEnd;
        p = loneValueEnd + tags.valueAndCellEnd.length;
      } else {
        for (;;) {
          if (xml.charCodeAt(p) !== 60) p = xml.indexOf('<', p);
          if (p < 0) return INCOMPLETE;
          if (xml.charCodeAt(p + 1) === 47 /* </c> */) {
            p += cellEndLength;
            if (xml.charCodeAt(p - 1) !== 62) p = xml.indexOf('>', p - cellEndLength) + 1;
            if (p === 0 || p > to) return INCOMPLETE;
            break;
          }
          const child = p + 1 + prefixLength;
          const first = xml.charCodeAt(child);
          const next = xml.charCodeAt(child + 1);
          if (first === 118 /* v */ && isNameEnd(next)) {
            const childEnd = next === 62 ? child + 1 : xml.indexOf('>', child);
            if (childEnd < 0) return INCOMPLETE;
            if (xml.charCodeAt(childEnd - 1) === 47) {
              valueStart = valueEnd = childEnd;
              p = childEnd + 1;
            } else {
              valueStart = childEnd + 1;
              valueEnd = xml.indexOf('<', valueStart);
              if (valueEnd < 0) return INCOMPLETE;
              p = xml.indexOf('>', valueEnd) + 1;
              if (p === 0) return INCOMPLETE;
            }
          } else if (first === 105 /* is */ && next === 115 && isNameEnd(xml.charCodeAt(child + 2))) {
            const childEnd = xml.indexOf('>', child);
            if (childEnd < 0) return INCOMPLETE;
            if (xml.charCodeAt(childEnd - 1) === 47 /* <is/>: no text */) {
              inline = '';
              p = childEnd + 1;
            } else {
              const end = xml.indexOf(tags.inlineEnd, childEnd);
              if (end < 0) return INCOMPLETE;
              inline = richText(xml, child, end, tags.prefix);
              p = end + tags.inlineEnd.length;
            }
          } else if (first === 102 /* f */ && isNameEnd(next)) {
            const childEnd = xml.indexOf('>', child);
            const end = childEnd < 0 ? -1 : xml.charCodeAt(childEnd - 1) === 47 ? childEnd : xml.indexOf(tags.formulaEnd, childEnd);
            if (end < 0) return INCOMPLETE;
            p = xml.indexOf('>', end) + 1;
            if (p === 0) return INCOMPLETE;
          } else {
            p = skipElement(xml, p);
            if (p < 0) return INCOMPLETE;
          }
        }
      }
      at = p;

      let value: string;
      if (type === INLINE) {
        value = inline === null ? '' : detach(inline);
      } else if (valueStart === valueEnd) {
        value = ''; // no value, or a formula without a cached result
      } else if (type === SHARED) {
        const index = parseDigits(xml, valueStart, valueEnd);
        const text = sharedStrings[index];
        if (text === undefined) throw damaged(`a cell refers to shared string ${index}, which does not exist`);
        value = text;
      } else if (type === NUMBER) {
        const display = styles[style];
        value = display ? this.dateOrNumber(xml.slice(valueStart, valueEnd), display) : numberText(xml, valueStart, valueEnd);
      } else if (type === BOOL) {
        const code = xml.charCodeAt(valueStart);
        value = code === 49 /* 1 */ || code === 116 /* true */ ? 'TRUE' : 'FALSE';
      } else if (type === DATE) {
        value = formatIsoDateCell(xml.slice(valueStart, valueEnd), styles[style] ?? null);
      } else {
        value = this.escapes.isPlain(valueStart, valueEnd) ? copyOf(xml, valueStart, valueEnd) : detach(decodeCellText(xml.slice(valueStart, valueEnd)));
      }

      if (value !== '') {
        if (column >= limits.maxColumns) {
          throw new XlsxReadError('too_large', `The sheet has more than ${count(limits.maxColumns)} columns.`);
        }
        // An over-long cell is its row's error (validate-row), kept shortened: the sheet reads on.
        if (value.length > limits.maxCellLength) value = shortenCell(value, limits.maxCellLength);
        if (column < width) cells[column] = value;
        else {
          while (width < column) cells[width++] = '';
          cells[width++] = value;
        }
      }
      column++;
    }

    const number = rowNumber > 0 ? rowNumber : this.lastRowNumber + 1;
    this.lastRowNumber = number;
    if (width === 0) return at;
    if (this.rows.length >= limits.maxRows) {
      throw new XlsxReadError('too_large', `The sheet has more than ${count(limits.maxRows)} rows.`);
    }
    this.rows.push(cells.slice(0, width));
    this.rowNumbers.push(number);
    return at;
  }

  private dateOrNumber(raw: string, display: DateDisplay): string {
    const value = Number(raw);
    if (Number.isNaN(value) || raw.trim() === '') return detach(decodeCellText(raw));
    return formatSerial(value, display, this.context.date1904) ?? formatNumber(value);
  }
}

/**
 * A number cell's text. Most values are written the way a person reads them already ("42",
 * "-0.37"): those are kept as written, without parsing. Slices under 13 characters are copies in
 * V8, so they keep no chunk alive.
 */
function numberText(xml: string, start: number, end: number): string {
  if (end - start < 13 && isPlainDecimal(xml, start, end)) return xml.slice(start, end);
  const raw = xml.slice(start, end);
  const value = Number(raw);
  if (Number.isNaN(value) || raw.trim() === '') return detach(decodeCellText(raw));
  return formatNumber(value);
}

/** -?(0|[1-9][0-9]*)(.[0-9]*[1-9])? : no exponent, no redundant zeros, no "-0". */
function isPlainDecimal(xml: string, start: number, end: number): boolean {
  let at = start;
  if (xml.charCodeAt(at) === 45 /* - */) at++;
  const firstDigit = at;
  let code = xml.charCodeAt(at);
  while (at < end && code >= 48 && code <= 57) code = xml.charCodeAt(++at);
  const integerDigits = at - firstDigit;
  if (integerDigits === 0 || (integerDigits > 1 && xml.charCodeAt(firstDigit) === 48)) return false;
  if (at === end) return !(integerDigits === 1 && xml.charCodeAt(firstDigit) === 48 && firstDigit > start);
  if (code !== 46 /* . */ || at + 1 === end) return false;
  code = xml.charCodeAt(++at);
  while (at < end && code >= 48 && code <= 57) code = xml.charCodeAt(++at);
  return at === end && xml.charCodeAt(end - 1) !== 48;
}

function sheetTags(prefix: string) {
  return {
    prefix,
    sheetData: `<${prefix}sheetData`,
    sheetDataEnd: `</${prefix}sheetData`,
    row: `<${prefix}row`,
    rowEnd: `</${prefix}row>`,
    cell: `<${prefix}c`,
    value: `<${prefix}v>`,
    valueAndCellEnd: `</${prefix}v></${prefix}c>`,
    inlineEnd: `</${prefix}is>`,
    formulaEnd: `</${prefix}f>`,
  };
}

/** The `r` of a `<row>` tag in xml[from, to), or 0 when absent (then the cells or the count decide). */
function readRowNumber(xml: string, from: number, to: number): number {
  let at = from;
  while (at < to) {
    // A bounded search: indexOf would run to the chunk's end for every `<row/>` without attributes.
    let eq = at;
    while (eq < to && xml.charCodeAt(eq) !== 61 /* = */) eq++;
    if (eq >= to) return 0;
    let quoteAt = eq + 1;
    while (isSpace(xml.charCodeAt(quoteAt))) quoteAt++;
    const close = xml.indexOf(xml.charCodeAt(quoteAt) === 39 ? "'" : '"', quoteAt + 1);
    if (close < 0 || close > to) return 0;
    let nameEnd = eq;
    while (isSpace(xml.charCodeAt(nameEnd - 1))) nameEnd--;
    if (xml.charCodeAt(nameEnd - 1) === 114 /* r */ && isNameEnd(xml.charCodeAt(nameEnd - 2))) {
      return parseDigits(xml, quoteAt + 1, close);
    }
    at = close + 1;
  }
  return 0;
}

/** Past the element starting at `lt` (such as `<extLst>` in a row), whole; INCOMPLETE if it is cut. */
function skipElement(xml: string, lt: number): number {
  if (xml.startsWith('<!--', lt)) {
    const end = xml.indexOf('-->', lt);
    return end < 0 ? INCOMPLETE : end + 3;
  }
  const gt = xml.indexOf('>', lt);
  if (gt < 0) return INCOMPLETE;
  const second = xml.charCodeAt(lt + 1);
  if (xml.charCodeAt(gt - 1) === 47 || second === 33 || second === 63) return gt + 1;
  let nameEnd = lt + 1;
  while (nameEnd < gt && !isNameEnd(xml.charCodeAt(nameEnd))) nameEnd++;
  const closeTag = `</${xml.slice(lt + 1, nameEnd)}>`;
  const close = xml.indexOf(closeTag, gt);
  return close < 0 ? INCOMPLETE : close + closeTag.length;
}

function cellType(xml: string, start: number, end: number): number {
  const first = xml.charCodeAt(start);
  const length = end - start;
  if (length === 1) {
    if (first === 115 /* s */) return SHARED;
    if (first === 98 /* b */) return BOOL;
    if (first === 100 /* d */) return DATE;
    if (first === 110 /* n */) return NUMBER;
    // e: the error text as Excel shows it (#N/A, #DIV/0!)
  }
  if (length === 9 && first === 105 /* inlineStr */) return INLINE;
  return TEXT;
}

/** The digits in xml[start, end) as a number, skipping anything else (" 7 " → 7). */
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
