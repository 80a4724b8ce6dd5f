import { scanChunk } from './chunk-joiner';
import { damaged } from './xlsx-errors';
import { richText } from './rich-text';
import { EscapeFinder, decodeCellText, rootPrefix } from './xml-text';

/**
 * Reads the shared-string table (`sharedStrings.xml`) as it is decompressed: `push` the text of
 * each chunk, `end` after the last one. Every `<si>` keeps its index, an empty `<si/>` included.
 *
 * The strings stay slices of the decompressed text: the table is mostly the strings themselves,
 * so keeping its chunks costs about what copying every string out would.
 */
export class SharedStringsScanner {
  private readonly strings: string[] = [];
  private pending = '';
  private tags: { prefix: string; open: string; close: string; plainOpen: string; plainClose: string } | null = null;
  private readonly scanFrom = (xml: string, from: number) => this.scan(xml, from);
  private readonly escapes = new EscapeFinder();

  push(text: string): void {
    this.pending = scanChunk(this.pending, text, this.tags?.close ?? null, this.scanFrom);
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
        this.strings.push('');
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
          this.strings.push(this.escapes.isPlain(textStart, textEnd) ? raw : decodeCellText(raw));
          at = textEnd + plainClose.length;
          continue;
        }
      }
      const end = xml.indexOf(close, gt);
      if (end < 0) return lt;
      this.strings.push(richText(xml, gt + 1, end, prefix));
      at = end + close.length;
    }
  }
}
