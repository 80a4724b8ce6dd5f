import { useId } from 'react';
import { plural } from '../../components/plural';
import type { TableSummary } from '../../workers/import-protocol';

const ENCODINGS = [
  ['utf-8', 'UTF-8'],
  ['windows-1252', 'Windows-1252 (Western)'],
  ['utf-16le', 'UTF-16 LE'],
  ['utf-16be', 'UTF-16 BE'],
  ['iso-8859-2', 'ISO-8859-2 (Central European)'],
  ['shift_jis', 'Shift JIS'],
] as const;

const DELIMITERS = [
  [',', 'Comma ,'],
  [';', 'Semicolon ;'],
  ['\t', 'Tab'],
  ['|', 'Pipe |'],
] as const;

const selectClass = 'mt-1 block w-full rounded-md border border-slate-300 bg-white px-2.5 py-1.5 text-sm shadow-sm';

/**
 * How the file was read — sheet, header row, and for CSV the encoding and delimiter — each
 * shown and changeable; a change re-reads the file in the worker and the preview follows.
 */
export function SourceOptions({
  summary,
  headerRow,
  onReread,
  onHeaderRow,
  disabled,
}: {
  summary: TableSummary;
  headerRow: number;
  onReread: (options: { sheet?: string; encoding?: string; delimiter?: string }) => void;
  onHeaderRow: (index: number) => void;
  disabled?: boolean;
}) {
  const id = useId();
  const nonEmptySheets = summary.sheets.filter((sheet) => sheet.rowCount > 0);
  const current = { sheet: summary.sheet, encoding: summary.encoding, delimiter: summary.delimiter };

  return (
    <fieldset disabled={disabled} className="grid gap-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:grid-cols-2 lg:grid-cols-4">
      <legend className="sr-only">How the file is read</legend>
      {summary.kind !== 'csv' && nonEmptySheets.length > 1 && (
        <div>
          <label htmlFor={`${id}-sheet`} className="block text-sm font-medium text-slate-800">Sheet</label>
          <select id={`${id}-sheet`} className={selectClass} value={summary.sheet} onChange={(e) => onReread({ ...current, sheet: e.target.value, encoding: undefined, delimiter: undefined })}>
            {nonEmptySheets.map((sheet) => (
              <option key={sheet.name} value={sheet.name}>
                {sheet.name} ({plural(sheet.rowCount, 'row')})
              </option>
            ))}
          </select>
        </div>
      )}
      <div>
        <label htmlFor={`${id}-header`} className="block text-sm font-medium text-slate-800">Header row</label>
        <select id={`${id}-header`} className={selectClass} value={headerRow} onChange={(e) => onHeaderRow(Number(e.target.value))}>
          {summary.preview.slice(0, 20).map((row, index) => (
            <option key={index} value={index}>
              {summary.numbering} {summary.previewRowNumbers[index]}: {row.filter(Boolean).slice(0, 4).join(', ').slice(0, 60) || '(empty)'}
            </option>
          ))}
        </select>
      </div>
      {summary.kind === 'csv' && (
        <>
          <div>
            <label htmlFor={`${id}-encoding`} className="block text-sm font-medium text-slate-800">Encoding</label>
            <select id={`${id}-encoding`} className={selectClass} value={summary.encoding} onChange={(e) => onReread({ ...current, encoding: e.target.value })}>
              {ENCODINGS.some(([value]) => value === summary.encoding) ? null : <option value={summary.encoding}>{summary.encoding}</option>}
              {ENCODINGS.map(([value, label]) => (
                <option key={value} value={value}>{label}</option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor={`${id}-delimiter`} className="block text-sm font-medium text-slate-800">Delimiter</label>
            <select id={`${id}-delimiter`} className={selectClass} value={summary.delimiter} onChange={(e) => onReread({ ...current, delimiter: e.target.value })}>
              {DELIMITERS.map(([value, label]) => (
                <option key={label} value={value}>{label}</option>
              ))}
            </select>
          </div>
        </>
      )}
    </fieldset>
  );
}
