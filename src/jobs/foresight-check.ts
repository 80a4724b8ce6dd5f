// After the import: which rows did not do what the Ready step foresaw. The service says per row
// whether it created or updated a shipment; the job kept, with its rows as sent, what each row
// was foreseen to do (ChunkPayload.foreseen). Failed rows did neither and are not compared.
import { FORESIGHT_LETTERS } from '../spreadsheet/row-foresight';
import type { OutcomeItem } from './import-job';

export type ForeseenAction = 'create' | 'update';

export interface RowNotAsForeseen {
  rowNumber: number;
  reference: string | null;
  foreseen: ForeseenAction;
  /** What the service said it did: `created` or `updated`. */
  outcome: 'created' | 'updated';
}

/** One sent chunk: what its rows were foreseen to do, one letter per row, and its batch's items in the same order. */
export interface ForeseenChunk {
  foreseen: string;
  items: readonly (OutcomeItem | null)[];
}

const foreseenAction = (letter: string | undefined): ForeseenAction | null => {
  const code = letter === undefined ? -1 : FORESIGHT_LETTERS.indexOf(letter);
  // A row without a reference always creates (code 3, 4); only an update foresees "update".
  if (code === 1 || code === 3 || code === 4) return 'create';
  if (code === 2) return 'update';
  return null;
};

/** The rows whose item says `created` where "update" was foreseen, or `updated` where "create" was, in row order. */
export function rowsNotAsForeseen(chunks: readonly ForeseenChunk[]): RowNotAsForeseen[] {
  const found: RowNotAsForeseen[] = [];
  for (const { foreseen, items } of chunks) {
    items.forEach((item, i) => {
      if (!item) return;
      const action = foreseenAction(foreseen[i]);
      const outcome = item.creationStatus.toLowerCase();
      if (action === 'create' && outcome === 'updated') found.push({ rowNumber: item.rowNumber, reference: item.reference, foreseen: action, outcome });
      else if (action === 'update' && outcome === 'created') found.push({ rowNumber: item.rowNumber, reference: item.reference, foreseen: action, outcome });
    });
  }
  return found.sort((a, b) => a.rowNumber - b.rowNumber);
}

/** "2 rows did not do what the Ready step foresaw: 1 foreseen to create updated an existing shipment, 1 foreseen to update created one." */
export function describeRowsNotAsForeseen(rows: readonly RowNotAsForeseen[], compared: number): string {
  const n = (count: number) => count.toLocaleString('en');
  if (rows.length === 0) return `All ${n(compared)} ${compared === 1 ? 'row' : 'rows'} the service took did what the Ready step foresaw.`;
  const updated = rows.filter((row) => row.foreseen === 'create').length;
  const created = rows.length - updated;
  const parts = [
    ...(updated > 0 ? [`${n(updated)} foreseen to create updated an existing shipment`] : []),
    ...(created > 0 ? [`${n(created)} foreseen to update created ${created === 1 ? 'a new one' : 'new ones'}`] : []),
  ];
  return `${n(rows.length)} ${rows.length === 1 ? 'row' : 'rows'} did not do what the Ready step foresaw: ${parts.join(', ')}.`;
}
