/**
 * The workbook is valid but in a form this reader leaves to SheetJS: an encrypted workbook (a CFB
 * container, not a zip), a binary `.xlsb` workbook, or strict OOXML.
 */
export class XlsxDeclinedError extends Error {
  override name = 'XlsxDeclinedError';
}

type XlsxReadErrorCode = 'invalid_file' | 'too_large';

/** The workbook cannot be read (damaged, truncated, parts missing) or exceeds a limit. */
export class XlsxReadError extends Error {
  override name = 'XlsxReadError';
  readonly code: XlsxReadErrorCode;

  constructor(code: XlsxReadErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}

export function damaged(reason: string): XlsxReadError {
  return new XlsxReadError('invalid_file', `The workbook is damaged: ${reason}.`);
}
