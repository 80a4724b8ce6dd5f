/** Why a file could not be read, as a code for programs and one sentence for people. */
export type SpreadsheetReadErrorCode = 'unsupported_file' | 'invalid_file' | 'too_large';

export class SpreadsheetReadError extends Error {
  override readonly name = 'SpreadsheetReadError';

  constructor(
    readonly code: SpreadsheetReadErrorCode,
    message: string,
    /** 1-based line (CSV) or row (workbook) at fault, when there is one. */
    readonly line?: number,
  ) {
    super(message);
  }
}

const numberFormat = new Intl.NumberFormat('en-US');

/** 5000 → "5,000": every limit and count in a message is written this way. */
export function formatCount(value: number): string {
  return numberFormat.format(value);
}
