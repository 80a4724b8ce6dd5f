import { nextTask } from '../next-task';
import { parseCellStyles } from './cell-styles';
import { type SharedStringLimits, SharedStringsScanner } from './shared-strings';
import { SheetScanner } from './sheet-scanner';
import type { DateDisplay } from './date-format';
import { type WorkbookParts, type WorkbookSheet, partDecoder, partText, readWorkbookParts } from './workbook-parts';
import { XlsxReadError, damaged } from './xlsx-errors';
import { type InflateMode, type PartLimits, type ZipEntry, ZipArchive, openEntryStream } from './zip-archive';

// The errors are defined beside the modules that throw them; callers import everything from here.
export { XlsxDeclinedError, XlsxReadError } from './xlsx-errors';

export interface XlsxSheet {
  name: string;
  hidden: boolean;
}

export interface XlsxReadOptions {
  /** By name; default: the first visible worksheet. */
  sheet?: string;
  /** Cancels the read: the promise rejects with the signal's reason (an `AbortError`). */
  signal?: AbortSignal;
  /** Share of the work done, 0–1, at most about every percent. */
  onProgress?: (fraction: number) => void;
  /**
   * Exceeding one rejects with an `XlsxReadError` of code `too_large`. Rows count non-empty rows;
   * a cell over maxCellLength is kept shortened instead (see shortenCell). The part and
   * shared-string caps are the workbook's (openXlsx).
   */
  limits?: { maxRows?: number; maxColumns?: number; maxCellLength?: number; maxRowXmlChars?: number };
  /** @internal Tests and benchmarks: force an inflater instead of the platform's when it has one. */
  inflate?: InflateMode;
}

export interface XlsxReadResult {
  /** All sheets in workbook order, for the sheet picker. */
  sheets: XlsxSheet[];
  /** The sheet read. */
  sheet: string;
  /** Non-empty rows only; each cell as a person sees it, '' for blanks, no trailing blanks. */
  rows: string[][];
  /** The 1-based sheet row number of each entry of `rows`. */
  rowNumbers: number[];
}

/**
 * Reads one sheet of an `.xlsx` workbook into rows of text (see XlsxWorkbook.read). To read
 * several sheets of one workbook, open it once with `openXlsx`: its shared strings are then read
 * once for all of them.
 */
export async function readXlsx(bytes: Uint8Array, options: XlsxReadOptions = {}): Promise<XlsxReadResult> {
  options.signal?.throwIfAborted();
  return openXlsx(bytes, options.limits).read(options);
}

/** The caps a workbook is opened with: what any part may inflate to, and the shared-string table. */
export interface XlsxWorkbookLimits extends Partial<PartLimits>, Partial<SharedStringLimits> {}

/**
 * Opens an `.xlsx` workbook: its zip directory, workbook part, relationships and styles are read
 * now, no cells. Throws `XlsxDeclinedError` for workbooks to hand to SheetJS (encrypted,
 * `.xlsb`, strict OOXML) and `XlsxReadError` for damaged files.
 */
export function openXlsx(bytes: Uint8Array, limits: XlsxWorkbookLimits = {}): XlsxWorkbook {
  return new XlsxWorkbook(bytes, limits);
}

export class XlsxWorkbook {
  /** All sheets in workbook order, for the sheet picker. */
  readonly sheets: XlsxSheet[];
  private readonly archive: ZipArchive;
  private readonly parts: WorkbookParts;
  private readonly styles: (DateDisplay | null)[];
  /** The shared-string table once read: every sheet of the workbook uses the same one. */
  private sharedStrings: string[] | null = null;

  private readonly stringLimits: SharedStringLimits;

  constructor(bytes: Uint8Array, limits: XlsxWorkbookLimits = {}) {
    this.archive = new ZipArchive(bytes, { maxPartBytes: limits.maxPartBytes ?? Infinity, maxInflateRatio: limits.maxInflateRatio ?? Infinity });
    this.stringLimits = {
      maxSharedStrings: limits.maxSharedStrings ?? Infinity,
      maxSharedStringChars: limits.maxSharedStringChars ?? Infinity,
      maxCellLength: limits.maxCellLength ?? Infinity,
      maxRowXmlChars: limits.maxRowXmlChars ?? Infinity,
    };
    this.parts = readWorkbookParts(this.archive);
    this.sheets = this.parts.sheets.map(toXlsxSheet);
    this.styles = this.parts.styles ? parseCellStyles(partText(this.archive.read(this.parts.styles))) : [];
  }

  /**
   * Reads one sheet into rows of text. The shared strings (on the first read) and the sheet are
   * decoded and scanned a chunk at a time (see ZipEntryStream for how they are inflated);
   * between chunks the read reports progress and, every few dozen milliseconds, yields to the
   * event loop so that a cancel message can arrive.
   *
   * Throws `XlsxReadError` for damaged files and exceeded limits.
   */
  async read(options: XlsxReadOptions = {}): Promise<XlsxReadResult> {
    const { signal, onProgress, limits = {}, inflate } = options;
    signal?.throwIfAborted();
    const { archive, parts } = this;
    const sheet = pickSheet(parts.sheets, options.sheet);
    if (sheet.part === null && sheet.worksheet) throw damaged(`the sheet "${sheet.name}" has no cell data part`);

    const stringsToRead = this.sharedStrings === null ? parts.sharedStrings : null;
    const pacer = new Pacer(signal, onProgress, (stringsToRead?.compressedSize ?? 0) + (sheet.part?.compressedSize ?? 0));
    if (stringsToRead) {
      const scanner = new SharedStringsScanner(this.stringLimits);
      await scanPart(archive, stringsToRead, scanner, pacer, inflate);
      this.sharedStrings = scanner.end();
    }
    const sheetScanner = new SheetScanner({
      sharedStrings: this.sharedStrings ?? [],
      styles: this.styles,
      date1904: parts.date1904,
      limits: {
        maxRows: limits.maxRows ?? Infinity,
        maxColumns: limits.maxColumns ?? Infinity,
        maxCellLength: limits.maxCellLength ?? Infinity,
        maxRowXmlChars: limits.maxRowXmlChars ?? Infinity,
      },
    });
    if (sheet.part) await scanPart(archive, sheet.part, sheetScanner, pacer, inflate);
    sheetScanner.end();
    onProgress?.(1);
    return { sheets: [...this.sheets], sheet: sheet.name, rows: sheetScanner.rows, rowNumbers: sheetScanner.rowNumbers };
  }
}

function toXlsxSheet({ name, hidden }: WorkbookSheet): XlsxSheet {
  return { name, hidden };
}

function pickSheet(sheets: WorkbookSheet[], name: string | undefined): WorkbookSheet {
  if (sheets.length === 0) throw damaged('it lists no sheets');
  if (name !== undefined) {
    const lower = name.toLowerCase();
    // Excel treats sheet names case-insensitively; an exact match still wins.
    const found = sheets.find((sheet) => sheet.name === name) ?? sheets.find((sheet) => sheet.name.toLowerCase() === lower);
    if (!found) throw new XlsxReadError('invalid_file', `The workbook has no sheet named "${name}".`);
    return found;
  }
  return sheets.find((sheet) => !sheet.hidden && sheet.worksheet) ?? sheets.find((sheet) => !sheet.hidden) ?? (sheets[0] as WorkbookSheet);
}

interface TextScanner {
  finished?: boolean;
  push(text: string): void;
}

async function scanPart(archive: ZipArchive, entry: ZipEntry, scanner: TextScanner, pacer: Pacer, inflate: InflateMode | undefined): Promise<void> {
  const stream = openEntryStream(archive, entry, inflate);
  try {
    let decoder: TextDecoder | null = null;
    while (!stream.done && scanner.finished !== true) {
      // Each chunk is decoded before the next is asked for: the native stream reuses its buffer.
      for (const chunk of await stream.next()) {
        decoder ??= partDecoder(chunk);
        scanner.push(decoder.decode(chunk, { stream: true }));
      }
      await pacer.step(entry.compressedSize * stream.fraction);
    }
    if (decoder && scanner.finished !== true) scanner.push(decoder.decode());
  } finally {
    if (!stream.done) stream.close();
  }
  pacer.complete(entry.compressedSize);
}

/** Progress over the compressed bytes of the parts scanned, and the yields that let a cancel in. */
class Pacer {
  private done = 0;
  private reported = 0;
  private lastYield = Date.now();

  constructor(
    private readonly signal: AbortSignal | undefined,
    private readonly onProgress: ((fraction: number) => void) | undefined,
    private readonly total: number,
  ) {}

  async step(partDone: number): Promise<void> {
    this.report(this.done + partDone);
    this.signal?.throwIfAborted();
    if (Date.now() - this.lastYield < 40) return;
    await nextTask();
    this.lastYield = Date.now();
    this.signal?.throwIfAborted();
  }

  complete(partSize: number): void {
    this.done += partSize;
    this.report(this.done);
  }

  private report(bytesDone: number): void {
    if (!this.onProgress || this.total === 0) return;
    // Stop short of 1: readXlsx reports 1 itself once the rows are ready.
    const fraction = Math.min(0.99, bytesDone / this.total);
    if (fraction - this.reported < 0.01) return;
    this.reported = fraction;
    this.onProgress(fraction);
  }
}

