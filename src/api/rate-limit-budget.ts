// The request budget the service announces in X-RateLimit-* headers (spec §8). Every request
// waits here first, so the console paces itself instead of collecting 429s. Import and PATCH
// endpoints have their own, tighter buckets on the service, so their headers are tracked apart.
import type { RateLimitState } from '../contract/rate-limit';
import { Observable } from './observable';

export type BudgetBucket = 'general' | 'import' | 'patch';

export interface BudgetSnapshot {
  general: RateLimitState | null;
  import: RateLimitState | null;
  patch: RateLimitState | null;
  /** Epoch ms until which a 429 told us to hold off; 0 when not paused. */
  pausedUntil: number;
}

type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export const sleep: Sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason as Error);
      },
      { once: true },
    );
  });

export class RateLimitBudget extends Observable<BudgetSnapshot> {
  constructor(
    private readonly now: () => number = Date.now,
    private readonly wait: Sleep = sleep,
  ) {
    super({ general: null, import: null, patch: null, pausedUntil: 0 });
  }

  /**
   * Starts from a budget kept earlier (a reloaded tab, another connection): buckets whose window
   * has reset since are dropped (the next answer tells), a 429's pause that is over too.
   */
  restore(saved: BudgetSnapshot | null): void {
    const now = this.now();
    const live = (state: RateLimitState | null | undefined) => (state && state.resetAt !== null && state.resetAt > now ? state : null);
    this.set({
      general: live(saved?.general),
      import: live(saved?.import),
      patch: live(saved?.patch),
      pausedUntil: saved && saved.pausedUntil > now ? saved.pausedUntil : 0,
    });
  }

  /** Records the headers of a response to a request of `bucket`. */
  record(bucket: BudgetBucket, state: RateLimitState | null): void {
    if (!state) return;
    this.set({ ...this.getSnapshot(), [bucket]: state });
  }

  /** A 429 said to hold off for `ms`: nothing is sent before then. */
  pause(ms: number): void {
    this.set({ ...this.getSnapshot(), pausedUntil: Math.max(this.getSnapshot().pausedUntil, this.now() + ms) });
  }

  /** Resolves when a request of `bucket` may go out, and counts it against the budget. */
  async acquire(bucket: BudgetBucket, signal?: AbortSignal): Promise<void> {
    for (;;) {
      const delay = this.delayFor(bucket);
      if (delay <= 0) break;
      await this.wait(delay, signal);
    }
    this.consume('general');
    if (bucket !== 'general') this.consume(bucket);
  }

  /**
   * Resolves when a request of `bucket` could go out, without counting one: the submit queue
   * waits here before it marks a chunk as sending, so a closed tab never leaves a chunk that
   * was only waiting looking as if it had been sent.
   */
  async waitUntilReady(bucket: BudgetBucket, signal?: AbortSignal): Promise<void> {
    for (;;) {
      const delay = this.delayFor(bucket);
      if (delay <= 0) return;
      await this.wait(delay, signal);
    }
  }

  /** Milliseconds a request of `bucket` would have to wait now. */
  delayFor(bucket: BudgetBucket): number {
    const now = this.now();
    let until = this.getSnapshot().pausedUntil;
    for (const name of bucket === 'general' ? (['general'] as const) : (['general', bucket] as const)) {
      const state = this.getSnapshot()[name];
      if (state && state.remaining <= 0 && state.resetAt !== null) until = Math.max(until, state.resetAt);
    }
    // A reset time in the past means the window rolled over: the next response refreshes it.
    return until > now ? until - now : 0;
  }

  private consume(name: BudgetBucket): void {
    const state = this.getSnapshot()[name];
    if (!state) return;
    const expired = state.resetAt !== null && state.resetAt <= this.now();
    if (expired || state.remaining <= 0) return;
    this.set({ ...this.getSnapshot(), [name]: { ...state, remaining: state.remaining - 1 } });
  }
}

/** One budget for the whole console: every request of every panel spends from it. */
export const sharedBudget = new RateLimitBudget();
