import { useEffect, useLayoutEffect, useReducer, useRef } from 'react';
import type { RememberedMapping } from '../../contract/remembered-mapping';
import { describeMissingTargets, type ColumnTarget } from '../../spreadsheet/column-mapping';
import type { CsvChunk } from '../../spreadsheet/csv-output';
import type { ForesightFilter, ImportAnswers, ReadOptions, RetryRows, ReviewState, SubmissionRows, TableSummary } from '../../workers/import-protocol';
import { nextTask } from '../../spreadsheet/next-task';
import { CancelledError } from './import-session';
import { initialWizard, wizardReducer } from './import-wizard';
import { useImportSession } from './use-import-session';

/** What a job keeps of the dropped file: its size, and its SHA-256 (hex) once the worker has it. */
export interface SourceFacts {
  size: number;
  contentHash: Promise<string>;
}

type BuildAnswer = ImportAnswers['build-review'];

const sentence = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * The longest the worker's check of the rows waits after Continue: the page's render and the
 * frame that draws the review get the processor to themselves rather than share it with the
 * check (src/bench/README.md, "A lighter first render"). The page lifts the hold once the review
 * is drawn; this bounds it where no frame comes (a hidden tab).
 */
const HOLD_CHECK_MS = 250;

/** Runs `then` once the browser has drawn the next frame: a task after that frame's rendering. */
function afterNextFrame(then: () => void): void {
  requestAnimationFrame(() => setTimeout(then, 0));
}

/**
 * The wizard's state and the actions the steps call: each asks the worker and turns its answer,
 * or its failure, into an event for wizardReducer; and the hold of the worker's check while the
 * review is first drawn.
 */
export function useImportWizard(customFieldSlugs: readonly string[] | undefined, chunkRows: number, memories: readonly RememberedMapping[]) {
  const session = useImportSession();
  const [state, dispatch] = useReducer(wizardReducer, initialWizard);
  // The remembered mappings known when a read's answer arrives (the workspace's may load meanwhile).
  const memoriesNow = useRef(memories);
  useEffect(() => {
    memoriesNow.current = memories;
  }, [memories]);
  const s = state.current;
  // The file being imported, for the job's source facts (size, content hash); not state: nothing renders it.
  const sourceFile = useRef<File | null>(null);

  /** Moves on with every review asked for and every file read: a check's end is said only for the review it belongs to. */
  const reviewGeneration = useRef(0);

  // The check held at Continue goes on once the review step is committed and drawn. Told only to
  // a worker still running: after a cancel (the page left) a request would start another.
  const holdCheck = (forMs: number) => session.tell('hold-check', { forMs });
  const checkHeld = useRef(false);
  useLayoutEffect(() => {
    if (s.step !== 'review' || !checkHeld.current) return;
    checkHeld.current = false;
    afterNextFrame(() => holdCheck(0));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the step's commit, not each render's session
  }, [s.step]);

  /** `retry`: the file is fix & retry's rows (their original numbers and the service's notes). */
  const readFile = (file: File, retry?: RetryRows) => {
    reviewGeneration.current++;
    dispatch({ type: 'file-chosen', fileName: file.name });
    sourceFile.current = retry ? null : file;
    session
      .request('read', { file, options: retry ? {} : { rememberedHeaders: memoriesNow.current.map((memory) => memory.fingerprint) }, retry }, (fraction) => dispatch({ type: 'read-progress', fraction }))
      .then(({ summary }) => dispatch({ type: 'read-done', summary, customFieldSlugs, memories: retry ? [] : memoriesNow.current }))
      .catch((error: unknown) => dispatch({ type: 'read-failed', message: error instanceof CancelledError ? null : sentence(error) }));
  };

  const reread = (options: ReadOptions) => {
    if (s.step !== 'map') return;
    reviewGeneration.current++;
    dispatch({ type: 'reread-started' });
    session
      .request('reread', { options })
      .then(({ summary }) => dispatch({ type: 'read-done', summary, customFieldSlugs, memories: summary.retried ? [] : memoriesNow.current }))
      .catch((error: unknown) => dispatch({ type: 'failed', message: sentence(error) }));
  };

  /**
   * A built review once every row is checked: itself when it already is, else what the worker
   * answers when the rest of the rows are (a large file's are checked after its first rows are
   * shown), with its first rows again. Meanwhile, how far the check is, as the worker says now and then.
   */
  const wholeReview = (built: BuildAnswer): Promise<BuildAnswer> => {
    const rows = built.state.counts.rows;
    if (built.state.checkedRows >= rows) return Promise.resolve(built);
    return session
      .request('review-checked', {}, (fraction) => dispatch({ type: 'review-checking', checkedRows: Math.round(fraction * rows) }))
      .then(({ state, firstRows }) => ({ columns: built.columns, state, firstRows }));
  };

  // The review built while the Columns step is shown, from the mapping it proposes for the file
  // just read: a person reads the step for a second or more, and Continue with that mapping takes
  // this answer, once (the worker keeps the review while nothing has touched it): checked whole
  // by then (`whole`), or its first rows and the rest to come. Once per read; a mapping changed
  // by hand is built at Continue.
  const ahead = useRef<{
    summary: TableSummary;
    headerRow: number;
    mapping: string;
    answer: Promise<BuildAnswer>;
    wholeAnswer: Promise<BuildAnswer>;
    /** The answers once they came: Continue shows them at once, without a round trip to the worker. */
    first: BuildAnswer | null;
    whole: BuildAnswer | null;
  } | null>(null);
  const proposedFor = s.step === 'map' ? s.summary : null;
  useEffect(() => {
    ahead.current = null;
    if (s.step !== 'map' || s.busy || describeMissingTargets(s.mapping) !== null) return;
    const answer = session.request('build-review', { headerRow: s.headerRow, mapping: s.mapping });
    const wholeAnswer = answer.then(wholeReview);
    const kept = { summary: s.summary, headerRow: s.headerRow, mapping: JSON.stringify(s.mapping), answer, wholeAnswer, first: null as BuildAnswer | null, whole: null as BuildAnswer | null };
    // Its failure, or a cancel, is Continue's to meet and say.
    answer.then((first) => (kept.first = first)).catch(() => undefined);
    wholeAnswer.then((whole) => (kept.whole = whole)).catch(() => undefined);
    ahead.current = kept;
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per file read: the proposal, not each change of it
  }, [proposedFor]);

  const buildReview = () => {
    if (s.step !== 'map') return;
    dispatch({ type: 'review-requested' });
    holdCheck(HOLD_CHECK_MS);
    checkHeld.current = true;
    const built = ahead.current;
    ahead.current = null;
    const same = built !== null && built.summary === s.summary && built.headerRow === s.headerRow && built.mapping === JSON.stringify(s.mapping);
    const shown = (answer: BuildAnswer) => dispatch({ type: 'review-built', columns: answer.columns, review: answer.state, firstRows: { version: answer.state.version, rows: answer.firstRows } });
    const failed = (error: unknown) => {
      checkHeld.current = false;
      holdCheck(0);
      dispatch({ type: 'failed', message: `The rows could not be checked: ${sentence(error)}` });
    };
    // The counts come whole when the check ends. A review rebuilt, or a file read again, meanwhile
    // says its own; a check that stopped (memory ran out) is said as a failed build would be.
    const generation = ++reviewGeneration.current;
    const whenWhole = (whole: Promise<BuildAnswer>) =>
      whole
        .then(({ state }) => dispatch({ type: 'review-changed', review: state }))
        .catch((error: unknown) => {
          if (generation === reviewGeneration.current && !(error instanceof CancelledError)) dispatch({ type: 'failed', message: `The rows could not all be checked: ${sentence(error)}` });
        });
    const partly = (first: BuildAnswer) => {
      shown(first);
      if (first.state.checkedRows < first.state.counts.rows) void whenWhole(same ? built.wholeAnswer : wholeReview(first));
    };
    const atHand = same ? (built.whole ?? built.first) : null;
    // In a task of its own, as an answer from the worker would come: the click's task renders the
    // step busy, the next one the review (and takes the Columns step down), each well under 50 ms.
    if (atHand) void nextTask().then(() => partly(atHand));
    else (same ? built.answer : session.request('build-review', { headerRow: s.headerRow, mapping: s.mapping })).then(partly).catch(failed);
  };

  const prepare = () => {
    if (s.step !== 'review') return;
    dispatch({ type: 'prepare-requested' });
    session
      .request('prepare', { chunkSize: chunkRows })
      .then(({ submission }) => dispatch({ type: 'prepared', submission }))
      .catch((error: unknown) => dispatch({ type: 'failed', message: `The rows to send could not be prepared: ${sentence(error)}` }));
  };

  /**
   * The Ready step's rows in chunks, for the Send panel to create the import job with: the worker
   * cuts them, then hands them over one chunk per message, each deserialised in its own task:
   * one message per chunk keeps each task on the page short, whatever the file's size.
   */
  const loadSubmissionRows = async (chunkSize: number): Promise<SubmissionRows> => {
    const { start } = await session.request('submission-start', { chunkSize });
    const key = { submission: start.submission, version: start.version };
    const chunks: CsvChunk[] = [];
    for (let index = 0; index < start.chunkCount; index++) {
      // Answers are paired with their requests by id; the worker refuses a part of a stale submission.
      const part = await session.request('submission-chunk', { key, index });
      chunks.push(part.chunk);
    }
    return { headers: start.headers, chunks, skipped: start.skipped, rowsRead: start.rowsRead };
  };

  /**
   * The dropped file's facts for the job: its size at once, its SHA-256 from the worker, which holds
   * its bytes (hashing on the page copied the file and digested it there at Send). Null for fix &
   * retry's rows, whose source is the job they came from.
   */
  const sourceFacts = (): SourceFacts | null => {
    const file = sourceFile.current;
    if (!file) return null;
    return { size: file.size, contentHash: session.request('source-hash', { fileName: file.name }).then(({ sha256 }) => sha256) };
  };

  /** From the Ready step's counts: back to the review grid, showing the rows of one count. */
  const showRows = (filter: ForesightFilter) => {
    if (s.step !== 'ready') return;
    session
      .request('review', { command: { type: 'set-filter', filter } })
      .then(({ state: review }) => {
        dispatch({ type: 'back' });
        dispatch({ type: 'review-changed', review });
      })
      .catch(() => undefined);
  };

  const startOver = () => {
    reviewGeneration.current++;
    session.cancel();
    session.warm();
    dispatch({ type: 'start-over' });
  };

  return {
    state,
    readFile,
    reread,
    buildReview,
    prepare,
    loadSubmissionRows,
    sourceFacts,
    showRows,
    startOver,
    back: () => dispatch({ type: 'back' }),
    chooseHeaderRow: (headerRow: number) => dispatch({ type: 'header-row-chosen', headerRow, customFieldSlugs, memories: s.step === 'map' && s.summary.retried ? [] : memoriesNow.current }),
    chooseTarget: (column: number, target: ColumnTarget | null) => dispatch({ type: 'target-chosen', column, target, customFieldSlugs }),
    reviewChanged: (review: ReviewState) => dispatch({ type: 'review-changed', review }),
  };
}
