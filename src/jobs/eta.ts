// The ETA of a job from the observed processing rate (DESIGN §5): smoothed
// with an exponential moving average over successive samples, unknown ("—") until two samples,
// and with the time the budget makes the uploads still to send wait added on top.

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
 */
export class JobEtaTracker {
  private readonly states = new Map<string, EtaState>();
  private readonly listeners = new Set<() => void>();
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly source: {
      subscribe: (listener: () => void) => () => void;
      getSnapshot: () => { jobs: readonly { id: string; batches: Record<string, { completed: number }> }[] };
    },
    private readonly now: () => number = Date.now,
  ) {}

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    this.unsubscribe ??= this.source.subscribe(() => this.observe());
    this.observe();
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) {
        this.unsubscribe?.();
        this.unsubscribe = null;
      }
    };
  };

  get = (jobId: string): EtaState => this.states.get(jobId) ?? EMPTY;

  private observe(): void {
    let changed = false;
    const at = this.now();
    for (const job of this.source.getSnapshot().jobs) {
      const done = Object.values(job.batches).reduce((sum, b) => sum + b.completed, 0);
      const before = this.states.get(job.id) ?? EMPTY;
      const last = before.samples.at(-1);
      if (last && last.done === done) continue;
      this.states.set(job.id, addSample(before, { at, done }));
      changed = true;
    }
    if (changed) this.listeners.forEach((listener) => listener());
  }
}

const EMPTY: EtaState = emptyEta();
