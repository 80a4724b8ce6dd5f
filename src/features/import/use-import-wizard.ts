import { useReducer, useRef } from 'react';
import type { ColumnTarget } from '../../spreadsheet/column-mapping';
import type { ReadOptions, RetryRows, ReviewState } from '../../workers/import-protocol';
import { CancelledError } from './import-session';
import { initialWizard, wizardReducer } from './import-wizard';
import { useImportSession } from './use-import-session';

const sentence = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * The wizard's state and the actions the steps call: each asks the worker and turns its answer,
 * or its failure, into an event for wizardReducer. Nothing else happens here.
 */
export function useImportWizard(customFieldSlugs: readonly string[] | undefined, chunkRows: number) {
  const session = useImportSession();
  const [state, dispatch] = useReducer(wizardReducer, initialWizard);
  const s = state.current;
  // The file being imported, for the job's source facts (size, content hash); not state: nothing renders it.
  const sourceFile = useRef<File | null>(null);

  /** `retry`: the file is fix & retry's rows (their original numbers and the service's notes). */
  const readFile = (file: File, retry?: RetryRows) => {
    dispatch({ type: 'file-chosen', fileName: file.name });
    sourceFile.current = retry ? null : file;
    session
      .request('read', { file, options: {}, retry }, (fraction) => dispatch({ type: 'read-progress', fraction }))
      .then(({ summary }) => dispatch({ type: 'read-done', summary, customFieldSlugs }))
      .catch((error: unknown) => dispatch({ type: 'read-failed', message: error instanceof CancelledError ? null : sentence(error) }));
  };

  const reread = (options: ReadOptions) => {
    if (s.step !== 'map') return;
    dispatch({ type: 'reread-started' });
    session
      .request('reread', { options })
      .then(({ summary }) => dispatch({ type: 'read-done', summary, customFieldSlugs }))
      .catch((error: unknown) => dispatch({ type: 'failed', message: sentence(error) }));
  };

  const buildReview = () => {
    if (s.step !== 'map') return;
    dispatch({ type: 'review-requested' });
    session
      .request('build-review', { headerRow: s.headerRow, mapping: s.mapping })
      .then(({ columns, state: review }) => dispatch({ type: 'review-built', columns, review }))
      .catch((error: unknown) => dispatch({ type: 'failed', message: `The rows could not be checked: ${sentence(error)}` }));
  };

  const prepare = () => {
    if (s.step !== 'review') return;
    dispatch({ type: 'prepare-requested' });
    session
      .request('prepare', { chunkSize: chunkRows })
      .then(({ submission }) => dispatch({ type: 'prepared', submission }))
      .catch((error: unknown) => dispatch({ type: 'failed', message: `The rows to send could not be prepared: ${sentence(error)}` }));
  };

  /** The Ready step's rows in chunks, for the Send panel to create the import job with. */
  const loadSubmissionRows = async (chunkSize: number) => (await session.request('submission-rows', { chunkSize })).rows;

  const startOver = () => {
    session.cancel();
    dispatch({ type: 'start-over' });
  };

  return {
    state,
    readFile,
    reread,
    buildReview,
    prepare,
    loadSubmissionRows,
    /** The dropped file (null for fix & retry's rows, whose source is the job they came from). */
    sourceFile: () => sourceFile.current,
    startOver,
    back: () => dispatch({ type: 'back' }),
    chooseHeaderRow: (headerRow: number) => dispatch({ type: 'header-row-chosen', headerRow, customFieldSlugs }),
    chooseTarget: (column: number, target: ColumnTarget | null) => dispatch({ type: 'target-chosen', column, target, customFieldSlugs }),
    reviewChanged: (review: ReviewState) => dispatch({ type: 'review-changed', review }),
  };
}
