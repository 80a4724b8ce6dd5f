// The ETA of a job from the observed processing rate (DESIGN §5): smoothed
// with an exponential moving average over successive samples, unknown ("—") until two samples,
// and with the time the budget makes the uploads still to send wait added on top.
import { Observable } from '../api/observable';

export interface ProgressSample {
  at: number;
  /** Rows processed so far (Σ completed_requests). */
  done: number;
}

export interface EtaState {
  samples: ProgressSample[];
  /** Smoothed rows per millisecond; null until two samples with time between them. */
  rate: number | null;
}

const SMOOTHING = 0.3;
const KEPT_SAMPLES = 20;

export const emptyEta = (): EtaState => ({ samples: [], rate: null });

export function addSample(state: EtaState, sample: ProgressSample): EtaState {
  const last = state.samples.at(-1);
  if (last && (sample.at <= last.at || sample.done < last.done)) return state;
  if (last && sample.done === last.done && state.rate === null) return { ...state, samples: [...state.samples.slice(-KEPT_SAMPLES + 1), sample] };
  let rate = state.rate;
  if (last) {
    const observed = (sample.done - last.done) / (sample.at - last.at);
    rate = rate === null ? observed : SMOOTHING * observed + (1 - SMOOTHING) * rate;
  }
  return { samples: [...state.samples.slice(-KEPT_SAMPLES + 1), sample], rate };
}

/** Milliseconds until every row is processed, or null ("—") when it cannot be told yet. */
export function estimateRemainingMs(state: EtaState, rowsLeft: number, budgetWaitMs: number): number | null {
  if (rowsLeft <= 0) return 0;
  if (state.samples.length < 2 || state.rate === null || state.rate <= 0) return null;
  return Math.round(rowsLeft / state.rate + Math.max(0, budgetWaitMs));
}

/**
 * Samples every job's processed count whenever the job store changes (in any tab), so the job
 * page reads an ETA through useSyncExternalStore instead of keeping samples in component state.
 * Its snapshot is each job's ETA state by job id; it follows the store while someone reads it.
 */
export class JobEtaTracker extends Observable<ReadonlyMap<string, EtaState>> {
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly source: {
      subscribe: (listener: () => void) => () => void;
      getSnapshot: () => { jobs: readonly { id: string; batches: Record<string, { completed: number }> }[] };
    },
    private readonly now: () => number = Date.now,
  ) {
    super(new Map());
  }

  get = (jobId: string): EtaState => this.getSnapshot().get(jobId) ?? EMPTY;

  protected override onFirstListener(): void {
    this.unsubscribe = this.source.subscribe(() => this.observe());
  }

  protected override onSubscribe(): void {
    this.observe();
  }

  protected override onLastListener(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
  }

  private observe(): void {
    let states: Map<string, EtaState> | null = null;
    const at = this.now();
    for (const job of this.source.getSnapshot().jobs) {
      const done = Object.values(job.batches).reduce((sum, b) => sum + b.completed, 0);
      const before = this.get(job.id);
      const last = before.samples.at(-1);
      if (last && last.done === done) continue;
      states ??= new Map(this.getSnapshot());
      states.set(job.id, addSample(before, { at, done }));
    }
    if (states) this.set(states);
  }
}

const EMPTY: EtaState = emptyEta();
