/**
 * Text and attribute helpers for the small XML parts (workbook, relationships, styles) and for
 * cell text. The parts are machine-written SpreadsheetML, so a tag scanner is enough: no DTDs, no
 * CDATA in cell text.
 */

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** `&amp;`, `&#10;`, `&#x1F600;` → characters; an unknown entity stays as written. */
function decodeXmlEntities(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (whole, body: string) => {
    if (body.charCodeAt(0) !== 35 /* # */) return NAMED_ENTITIES[body] ?? whole;
    const code = body.charCodeAt(1) === 120 /* x */ ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
    return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

/**
 * OOXML writes characters XML cannot hold as `_xHHHH_` (`_x000D_` for a carriage return), and a
 * literal `_x` sequence as `_x005F_x…`; one left-to-right pass undoes both.
 */
function decodeOoxmlEscapes(text: string): string {
  return text.replace(/_x([0-9a-fA-F]{4})_/g, (_whole, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** Raw element text → the characters a person sees. */
export function decodeCellText(raw: string): string {
  let text = raw;
  // XML parsers turn literal line breaks into \n before entities are expanded (`&#13;` stays \r).
  if (text.includes('\r')) text = text.replace(/\r\n?/g, '\n');
  if (text.includes('&')) text = decodeXmlEntities(text);
  if (text.includes('_x')) text = decodeOoxmlEscapes(text);
  return text;
}

/**
 * Tells whether a range of a text needs `decodeCellText` (holds `&`, a carriage return or `_x`)
 * with few searches: it remembers where the next of each is and searches again only once a range
 * starts past it. Scanners ask this for each of a million cells; three `includes` calls each
 * cost more than the rest of the work on a plain value.
 */
export class EscapeFinder {
  private text = '';
  private entity = -1;
  private carriageReturn = -1;
  private ooxmlEscape = -1;

  /** Starts over on another text. */
  reset(text: string): void {
    this.text = text;
    this.entity = this.carriageReturn = this.ooxmlEscape = -1;
  }

  /** Whether text[start, end) holds nothing `decodeCellText` would change. */
  isPlain(start: number, end: number): boolean {
    if (this.entity < start) this.entity = nextOrEnd(this.text, '&', start);
    if (this.carriageReturn < start) this.carriageReturn = nextOrEnd(this.text, '\r', start);
    if (this.ooxmlEscape < start) this.ooxmlEscape = nextOrEnd(this.text, '_x', start);
    return this.entity >= end && this.carriageReturn >= end && this.ooxmlEscape >= end;
  }
}

/** Where `search` next occurs in `text` from `from`, or the text's length when it does not. */
export function nextOrEnd(text: string, search: string, from: number): number {
  const found = text.indexOf(search, from);
  return found < 0 ? text.length : found;
}

/**
 * A copy of a string sliced from a large chunk of sheet XML. In V8, slices of 13 or more
 * characters refer to their parent, and a few kept cell values would keep every chunk alive.
 *
 * Joining an array builds a new flat string; concatenating and slicing again (`(' ' + s).slice(1)`)
 * would keep a slice of a private copy, twice the memory: 72 bytes for a 16-character value
 * instead of 40, which is 30 MB over a million cells.
 */
export function detach(text: string): string {
  return copyOf(text, 0, text.length);
}

/** `text.slice(start, end)` as a string of its own (see detach), without the slice in between. */
export function copyOf(text: string, start: number, end: number): string {
  return end - start < 13 ? text.slice(start, end) : [text.slice(start, start + 12), text.slice(start + 12, end)].join('');
}

type XmlAttributes = Map<string, string>;

/** The start tags of every element with this local name (any namespace prefix), with attributes. */
export function findElements(xml: string, localName: string): XmlAttributes[] {
  // Attribute values may contain `>` (number formats such as `[>=100]`), hence the quoted alternatives.
  const tag = new RegExp(`<(?:[A-Za-z_][\\w.-]*:)?${localName}(?=[\\s/>])((?:[^>"']|"[^"]*"|'[^']*')*)>`, 'g');
  const found: XmlAttributes[] = [];
  for (const match of xml.matchAll(tag)) found.push(parseAttributes(match[1] ?? ''));
  return found;
}

function parseAttributes(text: string): XmlAttributes {
  const attributes: XmlAttributes = new Map();
  for (const match of text.matchAll(/([^\s=/]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
    const name = match[1];
    if (name !== undefined) attributes.set(name, decodeXmlEntities(match[2] ?? match[3] ?? ''));
  }
  return attributes;
}

/** An attribute by local name, whatever its prefix (`r:id`, `relationships:id`). */
export function attributeByLocalName(attributes: XmlAttributes, localName: string): string | undefined {
  const plain = attributes.get(localName);
  if (plain !== undefined) return plain;
  for (const [name, value] of attributes) {
    if (name.endsWith(`:${localName}`) && !name.startsWith('xmlns:')) return value;
  }
  return undefined;
}

/** The namespace prefix of the root element (`x:` in `<x:worksheet>`) or '', null while its tag is incomplete. */
export function rootPrefix(xml: string): string | null {
  let at = 0;
  for (;;) {
    const lt = xml.indexOf('<', at);
    if (lt < 0 || lt + 1 >= xml.length) return null;
    const next = xml.charCodeAt(lt + 1);
    if (next === 63 /* ? */ || next === 33 /* ! */) {
      const end = xml.indexOf('>', lt);
      if (end < 0) return null;
      at = end + 1;
      continue;
    }
    const gt = xml.indexOf('>', lt);
    if (gt < 0) return null; // the root tag is not complete yet
    const match = /^<([A-Za-z_][\w.-]*:)?[A-Za-z_][\w.-]*[\s/>]/.exec(xml.slice(lt, gt + 1));
    return match ? (match[1] ?? '') : '';
  }
}
