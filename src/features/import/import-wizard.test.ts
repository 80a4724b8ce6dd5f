import { describe, expect, it } from 'vitest';
import type { PreparedSubmission, TableSummary } from '../../workers/import-protocol';
import type { RememberedMapping } from '../../contract/remembered-mapping';
import { headerFingerprint } from '../../spreadsheet/remembered-mapping';
import { freshReview } from './test-support';
import { initialWizard, STEP_LABELS, type WizardEvent, type WizardState, wizardReducer } from './import-wizard';

const summary: TableSummary = {
  fileName: 'shipments.csv',
  kind: 'csv',
  sheets: [{ name: 'shipments', rowCount: 3 }],
  sheet: 'shipments',
  rowCount: 3,
  preview: [
    ['Shipment list'],
    ['Container No', 'Type', 'Ref'],
    ['MSKU1234565', 'container', 'PO-1'],
  ],
  previewRowNumbers: [1, 2, 3],
  numbering: 'Line',
  retried: false,
};
const review = freshReview;
const submission: PreparedSubmission = { headers: ['tracking_number'], chunkSize: 1000, chunkRows: [1], submittedRows: 1, skipped: [], skippedTotal: 0, previewCsv: 'tracking_number' };

const run = (events: WizardEvent[], from: WizardState = initialWizard) => events.reduce(wizardReducer, from);
const toMap: WizardEvent[] = [{ type: 'file-chosen', fileName: 'shipments.csv' }, { type: 'read-done', summary }];
const toReview: WizardEvent[] = [...toMap, { type: 'review-requested' }, { type: 'review-built', columns: ['tracking_number'], review }];
const toReady: WizardEvent[] = [...toReview, { type: 'prepare-requested' }, { type: 'prepared', submission }];

describe('wizardReducer', () => {
  it('reads a file with progress, then maps it from the detected header row', () => {
    const reading = run([{ type: 'file-chosen', fileName: 'shipments.csv' }, { type: 'read-progress', fraction: 0.5 }]);
    expect(reading.current).toEqual({ step: 'reading', fileName: 'shipments.csv', progress: 0.5 });
    const map = run([{ type: 'read-done', summary }], reading).current;
    expect(map.step).toBe('map');
    if (map.step !== 'map') return;
    expect(map.headerRow).toBe(1); // the title line above the header is skipped
    expect(map.mapping.map((entry) => entry.target)).toEqual(['tracking_number', 'tracking_type', 'reference']);
  });

  it('goes back to the drop step with the sentence when a read fails, and quietly when it was cancelled', () => {
    const failed = run([{ type: 'file-chosen', fileName: 'a.csv' }, { type: 'read-failed', message: 'The file is empty.' }]);
    expect(failed.current).toEqual({ step: 'drop', error: 'The file is empty.' });
    expect(run([{ type: 'file-chosen', fileName: 'a.csv' }, { type: 'read-failed', message: null }]).current).toEqual({ step: 'drop', error: null });
  });

  it('keeps each step on a failure, not busy, with the sentence: re-read, review and prepare', () => {
    const map = run([...toMap, { type: 'reread-started' }, { type: 'failed', message: 'No such sheet.' }]).current;
    expect(map).toMatchObject({ step: 'map', busy: false, error: 'No such sheet.' });
    const noReview = run([...toMap, { type: 'review-requested' }, { type: 'failed', message: 'The rows could not be checked.' }]).current;
    expect(noReview).toMatchObject({ step: 'map', busy: false, error: 'The rows could not be checked.' });
    const noPrepare = run([...toReview, { type: 'prepare-requested' }, { type: 'failed', message: 'The rows to send could not be prepared.' }]).current;
    expect(noPrepare).toMatchObject({ step: 'review', busy: false, error: 'The rows to send could not be prepared.' });
  });

  it('moves forward through review to ready and back again through its history', () => {
    const ready = run(toReady);
    expect(ready.current.step).toBe('ready');
    expect(ready.history.map((step) => step.step)).toEqual(['map', 'review']);
    const review1 = wizardReducer(ready, { type: 'back' });
    expect(review1.current).toMatchObject({ step: 'review', busy: false, error: null });
    const map = wizardReducer(review1, { type: 'back' });
    expect(map.current).toMatchObject({ step: 'map', busy: false, headerRow: 1 });
    expect(wizardReducer(map, { type: 'back' })).toBe(map); // nothing further back
  });

  it('back from Ready, the review keeps the foresight counts the Ready step learned', () => {
    const foresight = { creates: 1, updates: 0, withoutReference: 0, possibleDuplicates: 0, duplicatesSentFrom: null, duplicatesSentTo: null };
    const ready = wizardReducer(run(toReady), { type: 'review-changed', review: { ...review, version: 3, foresight } });
    expect(ready.current).toMatchObject({ step: 'ready', review: { foresight } });
    expect(wizardReducer(ready, { type: 'back' }).current).toMatchObject({ step: 'review', review: { version: 3, foresight } });
  });

  it('a review whose rows are still being checked says how far it is, until its whole counts come', () => {
    const checking = { ...review, checkedRows: 256, counts: { ...review.counts, rows: 100_000, readyRows: 250 }, viewLength: 100_000 };
    const shown = run([...toMap, { type: 'review-requested' }, { type: 'review-built', columns: ['tracking_number'], review: checking }]);
    const further = wizardReducer(shown, { type: 'review-checking', checkedRows: 40_000 });
    expect(further.current).toMatchObject({ step: 'review', review: { checkedRows: 40_000 } });
    // A report older than what is shown, or one that claims the end (the whole counts say that), changes nothing.
    expect(wizardReducer(further, { type: 'review-checking', checkedRows: 30_000 })).toBe(further);
    expect(wizardReducer(further, { type: 'review-checking', checkedRows: 100_000 })).toBe(further);
    const whole = { ...checking, checkedRows: 100_000, counts: { ...checking.counts, readyRows: 99_000, errorRows: 1_000 } };
    expect(wizardReducer(further, { type: 'review-changed', review: whole }).current).toMatchObject({ step: 'review', review: whole });
    // On the Columns step (the review built ahead), a report is not the page's to show.
    const map = run(toMap);
    expect(wizardReducer(map, { type: 'review-checking', checkedRows: 40_000 })).toBe(map);
  });

  it('ignores an answer that arrives after the user went elsewhere', () => {
    const map = run(toMap);
    expect(wizardReducer(map, { type: 'prepared', submission })).toBe(map);
    expect(wizardReducer(map, { type: 'review-built', columns: [], review })).toBe(map); // not requested
    const over = wizardReducer(run(toReview), { type: 'start-over' });
    expect(wizardReducer(over, { type: 'read-done', summary })).toBe(over);
  });

  it('changes the mapping and the header row only while no request runs', () => {
    const map = run([...toMap, { type: 'target-chosen', column: 2, target: null }]);
    expect(map.current.step === 'map' && map.current.mapping[2]?.target).toBeNull();
    const busy = wizardReducer(map, { type: 'review-requested' });
    expect(wizardReducer(busy, { type: 'header-row-chosen', headerRow: 0 })).toBe(busy);
  });

  it('maps a file from a remembered mapping of its headers, finding its header row, and keeps where it came from to Ready', () => {
    const header = ['Equipment', 'Basis', 'Order'];
    const memory: RememberedMapping = {
      fingerprint: headerFingerprint(header),
      fileName: 'weekly-46.csv',
      sheet: null,
      headerRow: 0,
      columns: [
        { header: 'Equipment', target: 'tracking_number' },
        { header: 'Basis', target: 'tracking_type' },
        { header: 'Order', target: 'reference' },
      ],
      savedAt: Date.UTC(2026, 10, 12, 12),
      savedBy: 'Ana',
    };
    // The remembered headers name the header row, below a title, in another order and case.
    const weekly: TableSummary = { ...summary, preview: [['Weekly export'], ['order', 'EQUIPMENT', 'basis'], ['PO-1', 'MSKU1234565', 'container']] };
    const map = run([{ type: 'file-chosen', fileName: 'weekly-47.csv' }, { type: 'read-done', summary: weekly, memories: [memory] }]).current;
    if (map.step !== 'map') throw new Error(map.step);
    expect(map.headerRow).toBe(1);
    expect(map.mapping.map((entry) => [entry.target, entry.match])).toEqual([
      ['reference', 'remembered'],
      ['tracking_number', 'remembered'],
      ['tracking_type', 'remembered'],
    ]);
    expect(map.remembered?.memory.fileName).toBe('weekly-46.csv');
    expect(map.mapping[0]?.reason).toMatch(/^As mapped for weekly-46\.csv on 12 Nov, by Ana\.$/);

    const withoutMemory = run([{ type: 'file-chosen', fileName: 'weekly-47.csv' }, { type: 'read-done', summary: weekly }]).current;
    expect(withoutMemory.step === 'map' && withoutMemory.mapping.map((entry) => entry.match)).toEqual(['unknown', 'unknown', 'unknown']);

    // A header row chosen by hand whose headers are not remembered is mapped by the rules.
    const other = run([{ type: 'file-chosen', fileName: 'weekly-47.csv' }, { type: 'read-done', summary: weekly, memories: [memory] }, { type: 'header-row-chosen', headerRow: 0, memories: [memory] }]).current;
    expect(other).toMatchObject({ step: 'map', headerRow: 0, remembered: null });
  });

  it('names every step for the step indicator', () => {
    expect(STEP_LABELS).toEqual({ drop: 'File', reading: 'File', map: 'Columns', review: 'Review', ready: 'Ready' });
  });
});
