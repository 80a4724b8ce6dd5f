// What the spreadsheet tests share.

/** What a read gives, or the error it throws as its sentence and line: two readers compared on one text. */
export function outcome(read: () => unknown): unknown {
  try {
    return read();
  } catch (error) {
    return { error: String(error), line: (error as { line?: number }).line };
  }
}
