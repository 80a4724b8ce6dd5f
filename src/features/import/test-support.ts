// What the wizard's tests share: a review as the worker answers a fresh build of one clean row.
import type { ReviewState } from '../../workers/import-protocol';

export const freshReview: ReviewState = {
  version: 0,
  viewVersion: 0,
  checkedRows: 1,
  counts: { rows: 1, errorRows: 0, warningRows: 0, autoFixedRows: 0, excludedRows: 0, readyRows: 1 },
  filter: 'all',
  viewLength: 1,
  canUndo: false,
  note: null,
  foresight: null,
};
