import { scanChunk } from './chunk-joiner';
import { shortenCell } from '../table-limits';
import { XlsxReadError, damaged } from './xlsx-errors';
import { richText } from './rich-text';
import { EscapeFinder, decodeCellText, rootPrefix } from './xml-text';

/**
 * Reads the shared-string table (`sharedStrings.xml`) as it is decompressed: `push` the text of
 * each chunk, `end` after the last one. Every `<si>` keeps its index, an empty `<si/>` included.
 *
 * The strings stay slices of the decompressed text: the table is mostly the strings themselves,
 * so keeping its chunks costs about what copying every string out would.
 */
export interface SharedStringLimits {
  maxSharedStrings: number;
  maxSharedStringChars: number;
  /** A longer string is kept shortened (see shortenCell): each cell using it is its row's error. */
  maxCellLength: number;
  /** Characters of XML one `<si>` may span before it ends. */
  maxRowXmlChars: number;
}

const NO_LIMITS: SharedStringLimits = { maxSharedStrings: Infinity, maxSharedStringChars: Infinity, maxCellLength: Infinity, maxRowXmlChars: Infinity };

export class SharedStringsScanner {
  private readonly strings: string[] = [];
  /** Characters of the strings kept so far, checked against maxSharedStringChars. */
  private chars = 0;
  private pending = '';
  private tags: { prefix: string; open: string; close: string; plainOpen: string; plainClose: string } | null = null;
  private readonly scanFrom = (xml: string, from: number) => this.scan(xml, from);
  private readonly escapes = new EscapeFinder();

  constructor(private readonly limits: SharedStringLimits = NO_LIMITS) {}

  push(text: string): void {
    this.pending = scanChunk(this.pending, text, this.tags?.close ?? null, this.scanFrom);
    if (this.pending.length > this.limits.maxRowXmlChars) {
      throw new XlsxReadError('too_large', `Shared string ${count(this.strings.length + 1)} of the workbook spans more than ${count(this.limits.maxRowXmlChars)} characters of XML without ending.`);
    }
  }

  /** Keeps one string, checked against the caps as it is added, never after the table is read. */
  private add(text: string): void {
    const { maxSharedStrings, maxSharedStringChars, maxCellLength } = this.limits;
    if (this.strings.length >= maxSharedStrings) {
      throw new XlsxReadError('too_large', `The workbook has more than ${count(maxSharedStrings)} shared strings, the most this reader takes.`);
    }
    const kept = text.length > maxCellLength ? shortenCell(text, maxCellLength) : text;
    this.chars += kept.length;
    if (this.chars > maxSharedStringChars) {
      throw new XlsxReadError('too_large', `The workbook's shared strings hold more than ${count(maxSharedStringChars)} characters, the most this reader takes.`);
    }
    this.strings.push(kept);
  }

  end(): string[] {
    if (this.pending.includes(this.tags?.open ?? '<si')) throw damaged('the shared strings end in the middle of a string');
    return this.strings;
  }

  /** Consumes every complete `<si>` from `from` and returns where the unconsumed rest begins. */
  private scan(xml: string, from: number): number {
    if (this.tags === null) {
      const prefix = rootPrefix(xml);
      if (prefix === null) return from;
      this.tags = { prefix, open: `<${prefix}si`, close: `</${prefix}si>`, plainOpen: `<${prefix}t>`, plainClose: `</${prefix}t></${prefix}si>` };
    }
    const { prefix, open, close, plainOpen, plainClose } = this.tags;
    let at = from;
    this.escapes.reset(xml);
    for (;;) {
      const lt = xml.indexOf(open, at);
      if (lt < 0) return Math.max(at, xml.length - open.length);
      const nameEnd = xml.charCodeAt(lt + open.length);
      if (Number.isNaN(nameEnd)) return lt;
      if (nameEnd !== 62 /* > */ && nameEnd !== 47 /* / */ && nameEnd !== 32) {
        at = lt + open.length; // another element, e.g. <sib>
        continue;
      }
      const gt = nameEnd === 62 ? lt + open.length : xml.indexOf('>', lt);
      if (gt < 0) return lt;
      if (xml.charCodeAt(gt - 1) === 47) {
        this.add('');
        at = gt + 1;
        continue;
      }
      // Most entries are `<si><t>text</t></si>`: read those without the general rich-text walk.
      if (xml.startsWith(plainOpen, gt + 1)) {
        const textStart = gt + 1 + plainOpen.length;
        const textEnd = xml.indexOf('<', textStart);
        if (textEnd < 0) return lt;
        if (xml.startsWith(plainClose, textEnd)) {
          const raw = xml.slice(textStart, textEnd);
          this.add(this.escapes.isPlain(textStart, textEnd) ? raw : decodeCellText(raw));
          at = textEnd + plainClose.length;
          continue;
        }
      }
      const end = xml.indexOf(close, gt);
      if (end < 0) return lt;
      this.add(richText(xml, gt + 1, end, prefix));
      at = end + close.length;
    }
  }
}

function count(value: number): string {
  return value.toLocaleString('en-US');
}
