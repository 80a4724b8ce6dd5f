/**
 * A row's problems as one line: `column: message` per problem, `; ` between them. A message that
 * already starts with its column (the sandbox writes "carrier: QQQQ is not…") is not prefixed
 * again, so people never read "carrier: carrier: …".
 */
export function describeProblems(problems: readonly { column: string | null; message: string }[]): string {
  return problems
    .map(({ column, message }) => (column && !message.startsWith(`${column}:`) ? `${column}: ${message}` : message))
    .join('; ');
}
