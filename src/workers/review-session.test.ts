import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { suggestColumnMapping } from '../spreadsheet/column-mapping';
import { bytesSource } from '../spreadsheet/file-rows';
import { readIndexedCsv, readTable, type TableReadResult } from '../spreadsheet/read-table';
import type { ReviewCommand, SeenKeysUpdate } from './import-protocol';
import { userRows } from '../spreadsheet/sample-rows';
import { matchRetryRows, ReviewSession } from './review-session';
import { readOf } from './test-support';

const HEADER = ['tracking_number', 'tracking_type', 'reference', 'carrier'];

function sessionOf(rows: string[][]): ReviewSession {
  return ReviewSession.build(readOf([HEADER, ...rows]), 0, suggestColumnMapping(HEADER));
}

const ROWS = [
  ['CSQU3054383', 'container', 'R1', 'maeu'], // auto-fixed carrier
  ['CSQU3054384', 'container', 'R2', 'MAEU'], // wrong check digit: error
  ['MAEU123456789', 'BL', 'R3', 'MAEU'], // auto-fixed type
  ['', 'booking', 'R4', 'MSCU'], // no number: error
  ['MSKU1234565', 'container', 'R5', 'MAEU'], // clean
];

describe('ReviewSession', () => {
  it('a review built ahead is kept for the same read, header row and mapping while untouched; anything else builds anew', () => {
    const all = [HEADER, ...ROWS];
    const read = readOf(all);
    const mapping = suggestColumnMapping(HEADER);
    const ahead = ReviewSession.buildOrKeep(null, read, 0, mapping);
    // Continue with the mapping the Columns step proposed: the same rows, not built again.
    expect(ReviewSession.buildOrKeep(ahead, read, 0, structuredClone(mapping))).toBe(ahead);
    // Another mapping, another header row, another read: built anew.
    const carrierUnmapped = mapping.map((entry) => (entry.target === 'carrier' ? { ...entry, target: null } : entry));
    const remapped = ReviewSession.buildOrKeep(ahead, read, 0, carrierUnmapped);
    expect(remapped).not.toBe(ahead);
    expect(remapped.getRows(0, 1)[0]?.values[remapped.table.columns.indexOf('carrier')]).toBe('');
    expect(ReviewSession.buildOrKeep(ahead, read, 1, mapping)).not.toBe(ahead);
    expect(ReviewSession.buildOrKeep(ahead, { ...read }, 0, mapping)).not.toBe(ahead);
    // Touched (a filter, an edit, a foresight): back on Columns and Continue builds it anew, as before.
    const touched = ReviewSession.buildOrKeep(null, read, 0, mapping);
    touched.run({ type: 'set-filter', filter: 'errors' });
    const again = ReviewSession.buildOrKeep(touched, read, 0, mapping);
    expect(again).not.toBe(touched);
    expect(again.state().filter).toBe('all');
  });

  it('a review built for the grid answers with its first rows checked and checks the rest a block a task, ending as a review checked at once', async () => {
    const all = userRows(3000);
    // Every 500th row repeats the reference above it: duplicates are flagged only at the end.
    for (let r = 500; r < all.length; r += 500) (all[r] as string[])[2] = all[r - 1]?.[2] ?? '';
    const read = readOf(all);
    const mapping = suggestColumnMapping(all[0] ?? [], { customFieldSlugs: ['po_number', 'eta'] });
    const atOnce = ReviewSession.build(read, 0, mapping);
    const session = ReviewSession.buildOrKeep(null, read, 0, mapping, undefined, 0);
    const first = session.state();
    expect(first.checkedRows).toBeGreaterThanOrEqual(100);
    expect(first.checkedRows).toBeLessThan(3000);
    expect(session.getRows(0, 100).map((row) => row.values)).toEqual(atOnce.getRows(0, 100).map((row) => row.values));
    // What needs every row refuses until then; the worker waits for whenChecked first.
    expect(() => session.run({ type: 'set-filter', filter: 'errors' })).toThrow(/still being checked/);
    expect(() => session.prepare(300)).toThrow(/still being checked/);
    expect(() => session.getRows(2990, 2999)).toThrow(/still being checked/);
    // Continue with the same mapping keeps it, checked or not.
    expect(ReviewSession.buildOrKeep(session, read, 0, structuredClone(mapping))).toBe(session);
    const seen: number[] = [];
    await session.whenChecked((checked) => seen.push(checked));
    expect(seen.length).toBeGreaterThan(1);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(seen.at(-1)).toBe(3000);
    const done = session.state();
    expect(done.checkedRows).toBe(3000);
    expect(done.counts).toEqual(atOnce.state().counts);
    expect(done.counts.errorRows).toBeGreaterThan(0);
    // A new version: rows answered before lacked their duplicate references.
    expect(done.version).toBeGreaterThan(first.version);
    expect(session.getRows(0, 3000)).toEqual(atOnce.getRows(0, 3000));
    expect(session.prepare(300)).toEqual(atOnce.prepare(300));
  });

  it('an edit of a row shown while later rows are still checked applies at once, and the check ends as if it came after', async () => {
    const all = userRows(3000);
    const read = readOf(all);
    const mapping = suggestColumnMapping(all[0] ?? [], { customFieldSlugs: ['po_number', 'eta'] });
    const reference = mapping.find((entry) => entry.target === 'reference')?.column ?? -1;
    const referenceColumn = ReviewSession.build(read, 0, mapping).table.columns.indexOf('reference');
    // Row 0 takes the reference of row 5 (both checked) and of row 2,500 (not checked yet).
    const shared = all[6]?.[reference] ?? '';
    (all[2501] as string[])[reference] = shared;
    const edits = [{ type: 'edit', row: 0, column: referenceColumn, value: shared }] as const;
    const session = ReviewSession.buildOrKeep(null, read, 0, mapping, undefined, 0);
    expect(session.canRunNow(edits[0])).toBe(true);
    expect(session.canRunNow({ type: 'edit', row: 2999, column: 0, value: 'x' })).toBe(false);
    const edited = session.run(edits[0]);
    expect(edited.checkedRows).toBeLessThan(3000);
    // At once: the edited row and row 5 clash already; row 2,500 joins them when the check reaches it.
    expect(session.getRows(0, 1)[0]?.issues.map((issue) => issue.code)).toContain('duplicate_reference');
    await session.whenChecked();
    const atOnce = ReviewSession.build(read, 0, mapping);
    atOnce.run(edits[0]);
    expect(session.state().counts).toEqual(atOnce.state().counts);
    for (const row of [0, 5, 2500]) expect(session.rowView(row)).toEqual(atOnce.rowView(row));
    expect(session.rowView(0).issues.find((issue) => issue.code === 'duplicate_reference')?.message).toMatch(/also on lines 7 and 2502/);
    expect(session.getRows(0, 3000)).toEqual(atOnce.getRows(0, 3000));
  });

  it('a check that stops on a row (memory running out) fails whoever waits, with its reason', async () => {
    const all = userRows(3000);
    // Row 2,000 cannot be read: what a RangeError of a full heap looks like to the check.
    const rows = new Proxy(all, {
      get: (target, key, receiver): unknown => {
        if (key === '2000') throw new RangeError('Array buffer allocation failed');
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    const read = { ...readOf(all), rows };
    const mapping = suggestColumnMapping(all[0] ?? []);
    const session = ReviewSession.buildOrKeep(null, read, 0, mapping, undefined, 0);
    expect(session.getRows(0, 100)).toHaveLength(100);
    await expect(session.whenChecked()).rejects.toThrow('Array buffer allocation failed');
    expect(session.isChecked).toBe(false);
    // Rows are read a block at a time: the check stops before the block holding row 2,000, its counts true to the rows checked.
    expect(session.checkedRows).toBeGreaterThan(1000);
    expect(session.checkedRows).toBeLessThan(2000);
    const { counts } = session.state();
    expect(counts.readyRows + counts.errorRows).toBe(session.checkedRows);
    expect(() => session.prepare(300)).toThrow(/still being checked/);
    // Continue again with the same mapping checks anew rather than keep the failed review.
    expect(ReviewSession.buildOrKeep(session, read, 0, mapping, undefined, 0)).not.toBe(session);
  });

  it('a review dropped while it is checked stops, and whoever waits for it goes on', async () => {
    const all = userRows(3000);
    const read = readOf(all);
    const mapping = suggestColumnMapping(all[0] ?? []);
    const session = ReviewSession.buildOrKeep(null, read, 0, mapping, undefined, 0);
    const waiting = session.whenChecked();
    const rebuilt = ReviewSession.buildOrKeep(session, read, 1, mapping, undefined, 0);
    expect(rebuilt).not.toBe(session);
    await waiting;
    expect(session.isChecked).toBe(false);
    await rebuilt.whenChecked();
    expect(rebuilt.isChecked).toBe(true);
    // No reference on two rows: the rows answered before are as they were, the grid keeps them.
    expect(rebuilt.state().version).toBe(0);
  });

  it('starts on all rows, with the table counts', () => {
    const state = sessionOf(ROWS).state();
    expect(state).toMatchObject({ filter: 'all', viewLength: 5, canUndo: false, note: null });
    expect(state.counts).toEqual({ rows: 5, errorRows: 2, warningRows: 0, autoFixedRows: 2, excludedRows: 0, readyRows: 3 });
  });

  it('filters the view and gives rows by view position, with their file line numbers', () => {
    const session = sessionOf(ROWS);
    const state = session.run({ type: 'set-filter', filter: 'errors' });
    expect(state.viewLength).toBe(2);
    expect(session.getRows(0, 2).map((row) => [row.index, row.rowNumber])).toEqual([[1, 3], [3, 5]]);
    expect(session.run({ type: 'set-filter', filter: 'auto_fixed' }).viewLength).toBe(2);
    expect(session.getRows(0, 10).map((row) => row.index)).toEqual([0, 2]);
  });

  it('revalidates an edit, keeps a steady view for single edits and says what a bulk change did', () => {
    const session = sessionOf(ROWS);
    session.run({ type: 'set-filter', filter: 'errors' });
    const edited = session.run({ type: 'edit', row: 1, column: 0, value: 'CSQU3054383' });
    expect(edited.counts.errorRows).toBe(1);
    expect(edited.viewLength).toBe(2); // the fixed row stays in sight until the view is refreshed
    expect(session.rowView(1).issues.filter((issue) => issue.level === 'error')).toEqual([]);

    const excluded = session.run({ type: 'exclude', rows: 'view', excluded: true });
    expect(excluded.note).toBe('Excluded 2 rows.');
    expect(excluded.counts.excludedRows).toBe(2);
    expect(session.run({ type: 'exclude', rows: [4], excluded: true }).note).toBe('Excluded 1 row.');
    expect(session.run({ type: 'undo' }).note).toBe('Undid the last change.');
  });

  it('names the outcome of a replace, including none', () => {
    const session = sessionOf(ROWS);
    expect(session.run({ type: 'replace', column: 3, find: 'MAEU', replace: 'MSCU' }).note).toBe('Replaced 4 values.') // the normalized maeu too;
    expect(session.run({ type: 'replace', column: null, find: 'nowhere', replace: 'x' }).note).toBe('No value contains “nowhere”.');
    expect(session.run({ type: 'set-column', column: 3, value: 'HLCU' }).note).toBe('Set carrier on 5 rows.');
  });

  it('refuses a row or column that does not exist with a sentence', () => {
    const session = sessionOf(ROWS);
    expect(() => session.rowView(9)).toThrow('There is no row 9.');
    expect(() => session.run({ type: 'set-column', column: 42, value: 'x' })).toThrow('There is no column 42.');
  });

  it('summarises the submission: chunks, skipped rows with reasons and the first CSV lines', () => {
    const session = sessionOf(ROWS);
    session.run({ type: 'exclude', rows: [4], excluded: true });
    const submission = session.prepare(1);
    expect(submission.submittedRows).toBe(2);
    expect(submission.chunkRows).toEqual([1, 1]);
    expect(submission.skippedTotal).toBe(3);
    expect(submission.skipped.map((row) => row.rowNumber)).toEqual([3, 5, 6]);
    expect(submission.skipped[2]?.reasons).toEqual(['excluded by you']);
    expect(submission.previewCsv.split('\n')[0]).toBe('tracking_number,tracking_type,reference,carrier,name,viewers,tags,assignees');
  });
});

describe('ReviewSession submission in parts', () => {
  const MANY = Array.from({ length: 7 }, (_, i) => ['MSKU1234565', 'container', i === 3 ? '' : `R${i}`, 'MAEU']);

  it('hands over chunks that add up to the whole submission, then keeps nothing', () => {
    const session = sessionOf([...ROWS, ...MANY]);
    session.run({ type: 'exclude', rows: [4], excluded: true });
    const start = session.startSubmission(3);
    const prepared = session.prepare(3);
    expect(start.chunkCount).toBe(prepared.chunkRows.length);
    const chunks = Array.from({ length: start.chunkCount }, (_, index) => session.submissionChunk(start, index));
    const sent = chunks.reduce((sum, chunk) => sum + chunk.rowNumbers.length, 0);
    // The accounting createJob checks: rows read = rows in the chunks + rows skipped.
    expect(sent + start.skipped.length).toBe(start.rowsRead);
    expect(start.rowsRead).toBe(12);
    expect(chunks.map((chunk) => chunk.rowNumbers.length)).toEqual(prepared.chunkRows);
    // Every data line (2–13) is in one chunk or skipped, never both, in file order.
    const inChunks = chunks.flatMap((chunk) => chunk.rowNumbers);
    expect([...inChunks, ...start.skipped.map((row) => row.rowNumber)].sort((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, i) => i + 2));
    expect(inChunks).toEqual([...inChunks].sort((a, b) => a - b));
    expect(inChunks).toContain(10); // the row without a reference
    expect(chunks.reduce((sum, chunk) => sum + chunk.withoutReference, 0)).toBe(1);
    // Each chunk's CSV: the header line, then one line per row.
    expect(chunks.map((chunk) => chunk.csv.split('\r\n').filter(Boolean).length - 1)).toEqual(prepared.chunkRows);
    expect(session.keepsSubmission).toBe(false);
    expect(() => session.submissionChunk(start, 0)).toThrow(/are no longer kept/);
  });

  it('sends the rows as they are at Send: an edit after the Ready step counted them is in the chunks', () => {
    const session = sessionOf(MANY);
    expect(session.prepare(3).chunkRows).toEqual([3, 3, 1]);
    session.run({ type: 'edit', row: 3, column: 2, value: 'R-edited' });
    session.run({ type: 'exclude', rows: [0], excluded: true });
    const start = session.startSubmission(3);
    const chunks = Array.from({ length: start.chunkCount }, (_, index) => session.submissionChunk(start, index));
    expect(chunks.map((chunk) => chunk.rowNumbers)).toEqual([[3, 4, 5], [6, 7, 8]]);
    expect(chunks[0]?.csv).toContain('R-edited');
    expect(chunks.reduce((sum, chunk) => sum + chunk.withoutReference, 0)).toBe(0);
  });

  it('hands over the chunks of a Send when what is known of the rows arrives after it: the rows did not change', () => {
    const session = sessionOf(MANY);
    const start = session.startSubmission(3);
    session.submissionChunk(start, 0);
    // The team history answers late: the foresight changes, the rows to send do not.
    session.foresee({ references: [['R3', Date.UTC(2026, 10, 12)]] });
    expect(session.submissionChunk(start, 1).rowNumbers).toEqual([5, 6, 7]);
  });

  it('hands each chunk over once, and refuses a chunk it does not have', () => {
    const session = sessionOf(MANY);
    const start = session.startSubmission(3);
    session.submissionChunk(start, 1);
    expect(() => session.submissionChunk(start, 1)).toThrow('Chunk 1 of the rows to send was already handed over.');
    expect(() => session.submissionChunk(start, 3)).toThrow('The rows to send have 3 chunks; there is no chunk 3.');
    expect(session.keepsSubmission).toBe(true);
  });

  it('refuses a part of a table edited since Send, and of a submission started again, with a sentence', () => {
    const session = sessionOf(MANY);
    const start = session.startSubmission(3);
    session.submissionChunk(start, 0);
    session.run({ type: 'edit', row: 4, column: 2, value: 'R-edited' });
    expect(() => session.submissionChunk(start, 1)).toThrow(
      `The rows changed after Send was pressed (table version ${start.version}, now ${start.version + 1}). Nothing was sent; press Send again.`,
    );
    expect(session.keepsSubmission).toBe(false); // the stale submission is dropped

    const again = session.startSubmission(3);
    const latest = session.startSubmission(3);
    expect(latest.submission).not.toBe(again.submission);
    expect(() => session.submissionChunk(again, 0)).toThrow(/submission \d+\) are no longer kept: Send was pressed again/);
    expect(session.submissionChunk(latest, 0).rowNumbers).toHaveLength(Math.min(3, session.prepare(3).submittedRows));
  });

  it('never takes the key of another session’s submission, though both tables are at version 0', () => {
    const first = sessionOf(MANY);
    const rebuilt = sessionOf(MANY);
    const start = first.startSubmission(3);
    rebuilt.startSubmission(3);
    expect(() => rebuilt.submissionChunk(start, 0)).toThrow(/are no longer kept/);
  });
});

describe('ReviewSession.findError', () => {
  it('walks the error cells of the view forward and back, wrapping around, skipping excluded rows', () => {
    const session = sessionOf([
      ['CSQU3054384', 'container', 'R1', 'MAEU'], // check digit: column 0
      ['MSKU1234565', 'container', 'R2', 'MAEU'],
      ['', 'containr', 'R3', 'MAEU'], // columns 0 and 1
      ['MSKU1234566', 'container', 'R4', 'MAEU'], // excluded below
    ]);
    session.run({ type: 'exclude', rows: [3], excluded: true });
    expect(session.findError(0, -1, 1)).toEqual({ position: 0, column: 0 });
    expect(session.findError(0, 0, 1)).toEqual({ position: 2, column: 0 });
    expect(session.findError(2, 0, 1)).toEqual({ position: 2, column: 1 });
    expect(session.findError(2, 1, 1)).toEqual({ position: 0, column: 0 }); // wraps, past the excluded row
    expect(session.findError(0, 0, -1)).toEqual({ position: 2, column: 1 });
    session.run({ type: 'set-filter', filter: 'warnings' });
    expect(session.findError(0, -1, 1)).toBeNull();
  });
});

describe('fix & retry’s rows', () => {
  const retryTable = (rows: string[][]): TableReadResult => {
    const all = [HEADER, ...rows];
    return { kind: 'csv', sheets: [{ name: 'f', rowCount: all.length }], sheet: 'f', rows: all, rowNumbers: all.map((_, i) => i + 1) };
  };

  it('keep their numbers from the original file and show the service’s notes beside their own checks', () => {
    const table = retryTable([ROWS[1]!, ROWS[4]!]);
    const match = matchRetryRows(table, {
      numbering: 'Row',
      rowNumbers: [17, 40],
      notes: [[{ level: 'error', column: 'tracking_number', message: 'Unknown container.' }], [{ level: 'warning', column: 'assignees', message: 'nobody@example.com is not a member.' }]],
    });
    expect(match?.numbering).toBe('Row');
    const session = ReviewSession.build(table, 0, suggestColumnMapping(HEADER), match);
    const [first, second] = session.getRows(0, 2);
    expect(first).toMatchObject({ rowNumber: 17, serviceNotes: [{ level: 'error', column: 'tracking_number', message: 'Unknown container.' }] });
    // The console's own check still runs: the wrong check digit is an error of its own.
    expect(first?.issues.some((issue) => issue.level === 'error' && issue.code === 'check_digit')).toBe(true);
    // A row that passes the console's checks still says why the service refused it.
    expect(second).toMatchObject({ rowNumber: 40, issues: [], serviceNotes: [{ level: 'warning', message: 'nobody@example.com is not a member.' }] });
    const start = session.startSubmission(10);
    expect(session.submissionChunk(start, 0).rowNumbers).toEqual([40]);
  });

  it('keep the file’s own numbers, without notes, when the file no longer holds one row per number', () => {
    const table = retryTable([ROWS[1]!, ROWS[4]!]);
    expect(matchRetryRows(table, { numbering: 'Line', rowNumbers: [17], notes: [[]] })).toBeUndefined();
    expect(table.rowNumbers).toEqual([1, 2, 3]);
    expect(ReviewSession.build(table, 0, suggestColumnMapping(HEADER)).getRows(0, 2).map((row) => row.serviceNotes)).toEqual([undefined, undefined]);
  });
});

describe('ReviewSession foresight', () => {
  const NOV_12 = Date.UTC(2026, 10, 12);
  const rows = [
    ['MSKU1234565', 'container', 'R1', 'MAEU'],
    ['CSQU3054383', 'container', 'R2', 'MAEU'],
    ['CSQU3054384', 'container', 'R3', 'MAEU'], // wrong check digit: not sent
    ['MSKU1234565', 'container', '', 'MAEU'],
    ['TGHU0000013', 'container', '', 'MAEU'],
  ];

  it('asks about the references of the rows to send and the numbers of those without one', () => {
    expect(sessionOf(rows).foresightKeys(0)).toEqual({ references: ['R1', 'R2'], trackingNumbers: ['MSKU1234565', 'TGHU0000013'], more: false });
  });

  it('counts what the rows to send will do, filters the grid by it, and marks each chunk row with it', () => {
    const session = sessionOf(rows);
    expect(session.state().foresight).toBeNull();
    expect(() => session.run({ type: 'set-filter', filter: 'updates' })).toThrow(/not been foreseen/);
    const state = session.foresee({ references: [['R2', NOV_12]], sent: [{ sentAt: NOV_12, body: { format: 'csv', csv: 'tracking_number,reference\r\nMSKU1234565,R0' } }] });
    expect(state.foresight).toEqual({ creates: 1, updates: 1, withoutReference: 2, possibleDuplicates: 1, duplicatesSentFrom: NOV_12, duplicatesSentTo: NOV_12 });
    expect(session.run({ type: 'set-filter', filter: 'updates' }).viewLength).toBe(1);
    expect(session.getRows(0, 5).map((row) => row.values[2])).toEqual(['R2']);
    session.run({ type: 'set-filter', filter: 'possible_duplicates' });
    expect(session.getRows(0, 5).map((row) => row.rowNumber)).toEqual([5]);
    expect(session.run({ type: 'set-filter', filter: 'no_reference' }).viewLength).toBe(2);

    // Foreseen again after an edit: R1 renamed to R9, a reference seen, updates.
    session.run({ type: 'set-filter', filter: 'all' });
    session.run({ type: 'edit', row: 0, column: 2, value: 'R9' });
    session.foresee({ references: [['R9', NOV_12]] });
    const start = session.startSubmission(10);
    expect(start.chunkCount).toBe(1);
    expect(session.submissionChunk(start, 0).foreseen).toBe('uudn');
  });

  it('forgets the keys given before on reset', () => {
    const session = sessionOf(rows);
    session.foresee({ references: [['R1', NOV_12]] });
    expect(session.foresee({}, { reset: true }).foresight).toMatchObject({ creates: 2, updates: 0 });
  });

  it('keeps keys that more will follow without foreseeing, then foresees with the last', () => {
    const session = sessionOf(rows);
    session.foresee({});
    expect(session.foresee({ references: [['R1', NOV_12]] }, { more: true }).foresight).toMatchObject({ creates: 2, updates: 0 });
    expect(session.foresee({ references: [['R2', NOV_12]] }).foresight).toMatchObject({ creates: 0, updates: 2 });
  });
});

describe('ReviewSession over a CSV read as an index of its file', () => {
  it('reviews, foresees and cuts the rows to send exactly as the same file read into memory', async () => {
    const all = userRows(3000);
    for (let r = 700; r < all.length; r += 700) (all[r] as string[])[2] = all[r - 3]?.[2] ?? '';
    const bytes = new TextEncoder().encode(Papa.unparse(all, { newline: '\r\n' }));
    const inMemory = await readTable(bytes, 'shipments.csv');
    const indexed = readIndexedCsv(bytesSource(bytes), 'shipments.csv', { fromBytes: 0 });
    if (!indexed) throw new Error('The file was not indexed.');
    expect(indexed.rows).not.toBeInstanceOf(Array);
    const mapping = suggestColumnMapping(inMemory.rows[0] ?? [], { customFieldSlugs: ['po_number', 'eta'] });
    const sessions = [ReviewSession.build(inMemory, 0, mapping), ReviewSession.build(indexed, 0, mapping)];
    const reference = sessions[0]?.table.columns.indexOf('reference') ?? -1;
    const commands: ReviewCommand[] = [
      { type: 'edit', row: 0, column: reference, value: all[2]?.[2] ?? '' },
      { type: 'set-filter', filter: 'errors' },
      { type: 'exclude', rows: 'view', excluded: true },
      { type: 'undo' },
      { type: 'replace', column: null, find: 'MAEU', replace: 'MSCU' },
      { type: 'set-filter', filter: 'warnings' },
      { type: 'set-column', column: reference, value: '' },
      { type: 'set-filter', filter: 'all' },
    ];
    const sentAt = Date.UTC(2026, 10, 20);
    const seen: SeenKeysUpdate = {
      references: all.slice(1, 60).map((row): [string, number] => [row[2] ?? '', sentAt]),
      trackingNumbers: all.slice(1, 60).map((row): [string, number] => [row[0] ?? '', sentAt]),
    };
    const [memory, file] = sessions.map((session) => ({
      states: commands.map((command) => session.run(command)),
      rows: session.getRows(0, 3000),
      keys: session.foresightKeys(0),
      foreseen: session.foresee(seen),
      prepared: session.prepare(500),
      errorAt: session.findError(0, 0, 1),
    }));
    expect(file).toEqual(memory);
    // The commands did change the rows: the comparison is not of two untouched reviews.
    expect(memory?.states.map((state) => state.note)).toEqual([
      null,
      null,
      expect.stringMatching(/^Excluded [1-9][\d,]* rows\.$/),
      'Undid the last change.',
      expect.stringMatching(/^Replaced [1-9][\d,]* values\.$/),
      null,
      expect.stringMatching(/^Set reference on [1-9][\d,]* rows\.$/),
      null,
    ]);
    expect(memory?.prepared.skippedTotal).toBeGreaterThan(0);
    expect(memory?.foreseen.foresight?.updates).toBeGreaterThan(0);
  });
});
