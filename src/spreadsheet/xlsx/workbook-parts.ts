import { XlsxDeclinedError, damaged } from './xlsx-errors';
import type { ZipArchive, ZipEntry } from './zip-archive';
import { attributeByLocalName, findElements } from './xml-text';

/** What `workbook.xml` and the relationships say: the sheets and where the shared parts are. */
export interface WorkbookParts {
  sheets: WorkbookSheet[];
  date1904: boolean;
  sharedStrings: ZipEntry | null;
  styles: ZipEntry | null;
}

export interface WorkbookSheet {
  name: string;
  hidden: boolean;
  /** A worksheet, as opposed to a chart sheet or dialog sheet, which hold no cells. */
  worksheet: boolean;
  part: ZipEntry | null;
}

const STRICT_NAMESPACE = 'purl.oclc.org/ooxml/';

export function readWorkbookParts(archive: ZipArchive): WorkbookParts {
  const workbookPath = mainPartPath(archive);
  if (workbookPath.toLowerCase().endsWith('.bin')) throw new XlsxDeclinedError('The workbook is a binary .xlsb workbook.');
  const workbookEntry = archive.find(workbookPath);
  if (!workbookEntry) {
    if (archive.find('xl/workbook.bin')) throw new XlsxDeclinedError('The workbook is a binary .xlsb workbook.');
    throw damaged('it has no workbook part (xl/workbook.xml)');
  }
  const workbook = partText(archive.read(workbookEntry));
  if (workbook.includes(STRICT_NAMESPACE)) throw new XlsxDeclinedError('The workbook is saved as strict Open XML.');

  const relationships = readRelationships(archive, workbookPath);
  const byType = (suffix: string, fallback: string): ZipEntry | null => {
    for (const relationship of relationships.values()) {
      if (relationship.type.endsWith(suffix)) return archive.find(relationship.target) ?? null;
    }
    return archive.find(fallback) ?? null;
  };

  const sheets = findElements(workbook, 'sheet').map((sheet, index): WorkbookSheet => {
    const relationship = relationships.get(attributeByLocalName(sheet, 'id') ?? '');
    const state = sheet.get('state');
    return {
      name: sheet.get('name') ?? `Sheet${index + 1}`,
      hidden: state === 'hidden' || state === 'veryHidden',
      worksheet: relationship === undefined || relationship.type.endsWith('/worksheet'),
      part: relationship ? (archive.find(relationship.target) ?? null) : null,
    };
  });
  const date1904 = findElements(workbook, 'workbookPr')[0]?.get('date1904');
  return {
    sheets,
    date1904: date1904 === '1' || date1904 === 'true',
    sharedStrings: byType('/sharedStrings', 'xl/sharedStrings.xml'),
    styles: byType('/styles', 'xl/styles.xml'),
  };
}

/** Parts are UTF-8 in practice; UTF-16 is allowed when the part starts with its byte-order mark. */
export function partDecoder(firstBytes: Uint8Array): TextDecoder {
  if (firstBytes[0] === 0xff && firstBytes[1] === 0xfe) return new TextDecoder('utf-16le');
  if (firstBytes[0] === 0xfe && firstBytes[1] === 0xff) return new TextDecoder('utf-16be');
  return new TextDecoder('utf-8');
}

export function partText(bytes: Uint8Array): string {
  return partDecoder(bytes).decode(bytes);
}

/** The workbook part named by the package relationships, `xl/workbook.xml` by default. */
function mainPartPath(archive: ZipArchive): string {
  const packageRels = archive.find('_rels/.rels');
  if (!packageRels) return 'xl/workbook.xml';
  const xml = partText(archive.read(packageRels));
  for (const relationship of findElements(xml, 'Relationship')) {
    const type = relationship.get('Type') ?? '';
    if (!type.endsWith('/officeDocument')) continue;
    if (type.includes(STRICT_NAMESPACE)) throw new XlsxDeclinedError('The workbook is saved as strict Open XML.');
    return resolveTarget('', relationship.get('Target') ?? '');
  }
  return 'xl/workbook.xml';
}

interface Relationship {
  type: string;
  target: string;
}

function readRelationships(archive: ZipArchive, partPath: string): Map<string, Relationship> {
  const slash = partPath.lastIndexOf('/');
  const folder = partPath.slice(0, slash + 1);
  const entry = archive.find(`${folder}_rels/${partPath.slice(slash + 1)}.rels`);
  const relationships = new Map<string, Relationship>();
  if (!entry) return relationships;
  for (const relationship of findElements(partText(archive.read(entry)), 'Relationship')) {
    if (relationship.get('TargetMode') === 'External') continue;
    relationships.set(relationship.get('Id') ?? '', {
      type: relationship.get('Type') ?? '',
      target: resolveTarget(folder, relationship.get('Target') ?? ''),
    });
  }
  return relationships;
}

/** A relationship target is relative to the source part's folder unless it starts with `/`. */
function resolveTarget(folder: string, target: string): string {
  const segments: string[] = [];
  const path = target.startsWith('/') ? target : folder + target;
  for (const segment of path.split('/')) {
    if (segment === '..') segments.pop();
    else if (segment !== '' && segment !== '.') segments.push(segment);
  }
  return segments.join('/');
}
