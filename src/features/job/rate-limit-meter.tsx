import { sharedBudget } from '../../api/rate-limit-budget';
import { useObservable } from '../../api/use-observable';
import type { RateLimitState } from '../../contract/rate-limit';
import { formatCount } from '../../components/plural';

export interface BudgetSnapshotView {
  general: RateLimitState | null;
  import: RateLimitState | null;
  pausedUntil: number;
}

const time = (ms: number) => new Date(ms).toLocaleTimeString('en-GB');

/** The most constrained bucket the service announced: remaining of limit, and when it resets. */
export function mostConstrained(budget: BudgetSnapshotView): { name: string; state: RateLimitState } | null {
  const buckets = [
    { name: 'Import requests', state: budget.import },
    { name: 'All requests', state: budget.general },
  ].filter((b): b is { name: string; state: RateLimitState } => b.state !== null);
  buckets.sort((a, b) => a.state.remaining / Math.max(1, a.state.limit) - b.state.remaining / Math.max(1, b.state.limit));
  return buckets[0] ?? null;
}

export function useBudget(): BudgetSnapshotView {
  return useObservable(sharedBudget);
}

export function RateLimitMeter({ budget, now }: { budget: BudgetSnapshotView; now: number }) {
  const tightest = mostConstrained(budget);
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <h3 className="text-sm text-slate-600">Rate limit</h3>
      {tightest ? (
        <>
          <p className="mt-1 text-lg font-semibold text-slate-900">
            {tightest.name}: {formatCount(tightest.state.remaining)} of {formatCount(tightest.state.limit)} left
          </p>
          <meter className="mt-1 w-full" min={0} max={tightest.state.limit} value={tightest.state.remaining} aria-label={`${tightest.name} left`} />
          <p className="text-sm text-slate-600">{tightest.state.resetAt !== null ? `Resets at ${time(tightest.state.resetAt)}` : 'Reset time not given'}</p>
        </>
      ) : (
        <p className="mt-1 text-sm text-slate-600">Not known yet: the service announces it with its first answer.</p>
      )}
      {budget.pausedUntil > now && <p className="mt-1 text-sm font-medium text-amber-800">Holding off until {time(budget.pausedUntil)}, as the service asked.</p>}
    </div>
  );
}
