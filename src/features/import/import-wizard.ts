// The import wizard as a reducer over its steps: every transition is an event, so the whole flow
// (and each failure) is testable in Node. The async work that produces the events lives in
// use-import-wizard.ts; components only dispatch.
import { type ColumnMapping, type ColumnTarget, setColumnTarget, suggestColumnMapping } from '../../spreadsheet/column-mapping';
import type { RememberedMapping } from '../../contract/remembered-mapping';
import { detectHeaderRow } from '../../spreadsheet/header-row';
import { applyRememberedMapping, findRememberedMapping, type MissingRememberedColumn } from '../../spreadsheet/remembered-mapping';
import type { FirstRows, PreparedSubmission, ReviewState, TableSummary } from '../../workers/import-protocol';

/** The remembered mapping a file was mapped from, and its columns the file lacks. */
export interface MappedFromMemory {
  memory: RememberedMapping;
  missing: MissingRememberedColumn[];
}

interface Mapped {
  summary: TableSummary;
  headerRow: number;
  /** The header row the rules alone pick: a different one was chosen by hand, or from memory. */
  detectedHeaderRow: number;
  mapping: ColumnMapping;
  remembered: MappedFromMemory | null;
}

/** `busy`: a worker request for this step is under way; `error`: the sentence of the last one that failed. */
interface Status {
  busy: boolean;
  error: string | null;
}

type WizardStep =
  | { step: 'drop'; error: string | null }
  | { step: 'reading'; fileName: string; progress: number | null }
  | ({ step: 'map' } & Mapped & Status)
  | ({ step: 'review'; columns: ColumnTarget[]; review: ReviewState; firstRows?: FirstRows } & Mapped & Status)
  | ({ step: 'ready'; columns: ColumnTarget[]; review: ReviewState; submission: PreparedSubmission } & Mapped);

export type StepLabel = 'File' | 'Columns' | 'Review' | 'Ready';

/** The step indicator's label of each step. */
export const STEP_LABELS = { drop: 'File', reading: 'File', map: 'Columns', review: 'Review', ready: 'Ready' } as const satisfies Record<WizardStep['step'], StepLabel>;
export const STEP_ORDER: readonly StepLabel[] = ['File', 'Columns', 'Review', 'Ready'];

export interface WizardState {
  current: WizardStep;
  /** Steps Back returns to, newest last. */
  history: WizardStep[];
}

export type WizardEvent =
  | { type: 'file-chosen'; fileName: string }
  | { type: 'read-progress'; fraction: number }
  /** A read or re-read finished: the header row is detected and the columns suggested. */
  /** `memories`: the remembered mappings known (this browser's and the workspace's), tried before any rule. */
  | { type: 'read-done'; summary: TableSummary; customFieldSlugs?: readonly string[]; memories?: readonly RememberedMapping[] }
  | { type: 'read-failed'; message: string | null }
  | { type: 'reread-started' }
  | { type: 'header-row-chosen'; headerRow: number; customFieldSlugs?: readonly string[]; memories?: readonly RememberedMapping[] }
  | { type: 'target-chosen'; column: number; target: ColumnTarget | null; customFieldSlugs?: readonly string[] }
  | { type: 'review-requested' }
  | { type: 'review-built'; columns: ColumnTarget[]; review: ReviewState; firstRows?: FirstRows }
  | { type: 'review-changed'; review: ReviewState }
  /** More rows of the review are checked (its counts come whole with review-changed). */
  | { type: 'review-checking'; checkedRows: number }
  | { type: 'prepare-requested' }
  | { type: 'prepared'; submission: PreparedSubmission }
  /** Any request of the current step failed; the step stays, with the sentence. */
  | { type: 'failed'; message: string }
  | { type: 'back' }
  | { type: 'start-over' };

export const initialWizard: WizardState = { current: { step: 'drop', error: null }, history: [] };

/**
 * The map step of a file read: a remembered mapping of its headers first (it may name the header
 * row), else the detected header row and the rules. A header row chosen by hand is mapped from
 * memory only when its own headers are remembered.
 */
function mapped(
  summary: TableSummary,
  chosenRow: number | undefined,
  customFieldSlugs: readonly string[] | undefined,
  memories: readonly RememberedMapping[] = [],
): WizardStep {
  const slugs = customFieldSlugs ? [...customFieldSlugs] : undefined;
  const detectedHeaderRow = detectHeaderRow(summary.preview, slugs);
  const found =
    chosenRow === undefined
      ? findRememberedMapping(summary.preview, memories, detectedHeaderRow)
      : findRememberedMapping([summary.preview[chosenRow] ?? []], memories, 0);
  const row = chosenRow ?? found?.headerRow ?? detectedHeaderRow;
  const header = summary.preview[row] ?? [];
  if (found) {
    const applied = applyRememberedMapping(header, found.memory, { customFieldSlugs: slugs });
    return { step: 'map', summary, headerRow: row, detectedHeaderRow, mapping: applied.mapping, remembered: { memory: found.memory, missing: applied.missing }, busy: false, error: null };
  }
  const mapping = suggestColumnMapping(header, { customFieldSlugs: slugs });
  return { step: 'map', summary, headerRow: row, detectedHeaderRow, mapping, remembered: null, busy: false, error: null };
}

const mappedOf = ({ summary, headerRow, detectedHeaderRow, mapping, remembered }: Mapped): Mapped => ({ summary, headerRow, detectedHeaderRow, mapping, remembered });
const stay = (state: WizardState, current: WizardStep): WizardState => ({ ...state, current });
const forward = (state: WizardState, current: WizardStep): WizardState => ({ current, history: [...state.history, state.current] });

/**
 * The next state of the wizard. An event that does not belong to the current step (an answer
 * that arrives after the user went elsewhere) leaves the state as it is.
 */
export function wizardReducer(state: WizardState, event: WizardEvent): WizardState {
  const s = state.current;
  switch (event.type) {
    case 'start-over':
      return initialWizard;
    case 'file-chosen':
      return s.step === 'drop' ? { current: { step: 'reading', fileName: event.fileName, progress: null }, history: [] } : state;
    case 'read-progress':
      return s.step === 'reading' ? stay(state, { ...s, progress: event.fraction }) : state;
    case 'read-done':
      if (s.step !== 'reading' && !(s.step === 'map' && s.busy)) return state;
      return stay(state, mapped(event.summary, undefined, event.customFieldSlugs, event.memories));
    case 'read-failed':
      return s.step === 'reading' ? { current: { step: 'drop', error: event.message }, history: [] } : state;
    case 'reread-started':
    case 'review-requested':
      return s.step === 'map' ? stay(state, { ...s, busy: true, error: null }) : state;
    case 'header-row-chosen':
      return s.step === 'map' && !s.busy ? stay(state, mapped(s.summary, event.headerRow, event.customFieldSlugs, event.memories)) : state;
    case 'target-chosen': {
      if (s.step !== 'map' || s.busy) return state;
      const mapping = setColumnTarget(s.mapping, event.column, event.target, { customFieldSlugs: event.customFieldSlugs ? [...event.customFieldSlugs] : undefined });
      return stay(state, { ...s, mapping });
    }
    case 'review-built':
      if (s.step !== 'map' || !s.busy) return state;
      return forward(
        { ...state, current: { ...s, busy: false } },
        { ...mappedOf(s), step: 'review', columns: event.columns, review: event.review, ...(event.firstRows ? { firstRows: event.firstRows } : {}), busy: false, error: null },
      );
    case 'review-changed':
      // The Ready step's foresight answers with the review's state too (its counts).
      return s.step === 'review' || s.step === 'ready' ? stay(state, { ...s, review: event.review }) : state;
    case 'review-checking':
      if (s.step !== 'review' || event.checkedRows <= s.review.checkedRows || event.checkedRows >= s.review.counts.rows) return state;
      return stay(state, { ...s, review: { ...s.review, checkedRows: event.checkedRows } });
    case 'prepare-requested':
      return s.step === 'review' ? stay(state, { ...s, busy: true, error: null }) : state;
    case 'prepared':
      if (s.step !== 'review' || !s.busy) return state;
      return forward(
        { ...state, current: { ...s, busy: false } },
        { ...mappedOf(s), step: 'ready', columns: s.columns, review: s.review, submission: event.submission },
      );
    case 'failed':
      return s.step === 'map' || s.step === 'review' ? stay(state, { ...s, busy: false, error: event.message }) : state;
    case 'back': {
      const previous = state.history.at(-1);
      if (!previous || s.step === 'reading') return state;
      // Back from Ready, the review keeps what the Ready step learned of it (its foresight counts).
      const current = s.step === 'ready' && previous.step === 'review' ? { ...previous, review: s.review } : previous;
      return { current, history: state.history.slice(0, -1) };
    }
  }
}
