import { decodeCellText } from './xml-text';

function isNameEnd(code: number): boolean {
  // '>', '/', or XML whitespace
  return code === 62 || code === 47 || code === 32 || code === 9 || code === 10 || code === 13;
}

/**
 * The text of a shared string (`<si>`) or inline string (`<is>`) whose content is xml[from, to):
 * plain `<t>` or the `<t>` of each rich-text run `<r>`, without the phonetic runs (`<rPh>`), which
 * hold the reading of Japanese text and are not shown in the cell.
 */
export function richText(xml: string, from: number, to: number, prefix: string): string {
  const textTag = `<${prefix}t`;
  const phoneticTag = `<${prefix}rPh`;
  const phoneticEnd = `</${prefix}rPh>`;
  let text = '';
  let at = from;
  for (;;) {
    const lt = xml.indexOf('<', at);
    if (lt < 0 || lt >= to) return text;
    const gt = xml.indexOf('>', lt);
    if (gt < 0 || gt >= to) return text;
    if (xml.startsWith(textTag, lt) && isNameEnd(xml.charCodeAt(lt + textTag.length))) {
      if (xml.charCodeAt(gt - 1) === 47 /* self-closing <t/> */) {
        at = gt + 1;
        continue;
      }
      const end = xml.indexOf('<', gt + 1);
      if (end < 0 || end > to) return text;
      const raw = xml.slice(gt + 1, end);
      // Most strings are one `<t>`: keep its decoded text as is instead of concatenating.
      text = text === '' ? decodeCellText(raw) : text + decodeCellText(raw);
      at = end;
    } else if (xml.startsWith(phoneticTag, lt) && isNameEnd(xml.charCodeAt(lt + phoneticTag.length))) {
      const end = xml.charCodeAt(gt - 1) === 47 ? gt : xml.indexOf(phoneticEnd, gt);
      if (end < 0 || end >= to) return text;
      at = end + 1;
    } else {
      at = gt + 1;
    }
  }
}
