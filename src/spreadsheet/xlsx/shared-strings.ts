import { damaged } from './xlsx-errors';
import { richText } from './rich-text';
import { rootPrefix } from './xml-text';

/**
 * Reads the shared-string table (`sharedStrings.xml`) as it is decompressed: `push` the text of
 * each chunk, `end` after the last one. Every `<si>` keeps its index, an empty `<si/>` included.
 */
export class SharedStringsScanner {
  readonly strings: string[] = [];
  private pending = '';
  private prefix: string | null = null;

  push(text: string): void {
    const xml = this.pending + text;
    this.pending = xml.slice(this.scan(xml));
  }

  end(): string[] {
    if (this.pending.includes(`<${this.prefix ?? ''}si`)) throw damaged('the shared strings end in the middle of a string');
    return this.strings;
  }

  /** Consumes every complete `<si>` and returns where the unconsumed rest begins. */
  private scan(xml: string): number {
    if (this.prefix === null) {
      this.prefix = rootPrefix(xml);
      if (this.prefix === null) return 0;
    }
    const open = `<${this.prefix}si`;
    const close = `</${this.prefix}si>`;
    let at = 0;
    for (;;) {
      const lt = xml.indexOf(open, at);
      if (lt < 0) return Math.max(at, xml.length - open.length);
      const nameEnd = xml.charCodeAt(lt + open.length);
      if (Number.isNaN(nameEnd)) return lt;
      if (nameEnd !== 62 /* > */ && nameEnd !== 47 /* / */ && nameEnd !== 32) {
        at = lt + open.length; // another element, e.g. <sib>
        continue;
      }
      const gt = xml.indexOf('>', lt);
      if (gt < 0) return lt;
      if (xml.charCodeAt(gt - 1) === 47) {
        this.strings.push('');
        at = gt + 1;
        continue;
      }
      const end = xml.indexOf(close, gt);
      if (end < 0) return lt;
      this.strings.push(richText(xml, gt + 1, end, this.prefix));
      at = end + close.length;
    }
  }
}
