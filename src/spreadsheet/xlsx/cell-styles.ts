import { type DateDisplay, builtInDateDisplay, customDateDisplay } from './date-format';
import { attributeByLocalName, findElements } from './xml-text';

/**
 * For each cell format (`<xf>` of `<cellXfs>` in `styles.xml`, indexed by a cell's `s`), how it
 * shows a date or time, or null for formats that show a number. Other number formats (percent,
 * currency, thousands separators) are read as the plain value: the importer needs the number.
 */
export function parseCellStyles(xml: string): (DateDisplay | null)[] {
  const customCodes = new Map<number, string>();
  for (const numFmt of findElements(section(xml, 'numFmts'), 'numFmt')) {
    const id = Number(attributeByLocalName(numFmt, 'numFmtId'));
    const code = attributeByLocalName(numFmt, 'formatCode');
    if (Number.isInteger(id) && code !== undefined) customCodes.set(id, code);
  }
  return findElements(section(xml, 'cellXfs'), 'xf').map((xf) => {
    const id = Number(attributeByLocalName(xf, 'numFmtId') ?? 0);
    // A file may redefine a built-in id; its own code wins.
    const code = customCodes.get(id);
    return code !== undefined ? customDateDisplay(code) : builtInDateDisplay(id);
  });
}

/** The content of the first element with this local name, or '' (numFmt elements also occur in `<dxfs>`). */
function section(xml: string, localName: string): string {
  const match = new RegExp(`<((?:[A-Za-z_][\\w.-]*:)?${localName})[\\s>][\\s\\S]*?</\\1>`).exec(xml);
  return match?.[0] ?? '';
}
