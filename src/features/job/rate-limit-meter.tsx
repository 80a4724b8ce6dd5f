import { useId, useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { pacingQuery } from '../../api/pacing';
import { sharedBudget } from '../../api/rate-limit-budget';
import { useObservable } from '../../api/use-observable';
import { useConnection } from '../../api/use-connection';
import type { RateLimitState } from '../../contract/rate-limit';
import { formatCount } from '../../components/plural';
import { describeTeamPacing, type TeamPacingWords } from './team-pacing';

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

const NO_CONSOLE = { baseUrl: 'about:blank', apiKey: '' };

/**
 * The team's use of the workspace's budget, from the console server's pacer; null in direct mode
 * or until it answers. Asked only while something is sending (`sendingHere`, or the last answer).
 */
export function useTeamPacing(ownJobIds: readonly string[], sendingHere: boolean): TeamPacingWords | null {
  const connection = useConnection();
  // With no connection there is nothing to ask: a target no console server answers for leaves it disabled.
  const { data } = useQuery(pacingQuery(connection ?? NO_CONSOLE, sendingHere));
  const own = useMemo(() => new Set(ownJobIds), [ownJobIds]);
  return data ? describeTeamPacing(data, own) : null;
}

/** What the console's server is doing with the workspace's budget, in words; the jobs line is announced politely when it changes. */
function TeamPacing({ words }: { words: TeamPacingWords }) {
  const heading = useId();
  return (
    // Focusable, so a keyboard user reaches the statuses as a screen reader user hears them.
    <section aria-labelledby={heading} tabIndex={0} className="mt-3 border-t border-slate-200 pt-3 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600">
      <h4 id={heading} className="text-sm text-slate-600">Your team on this console</h4>
      <p role="status" className="mt-1 text-sm font-medium text-slate-900">{words.jobs}</p>
      {words.nextSlot && <p className="text-sm text-slate-600">{words.nextSlot}</p>}
      {words.waiting && <p className="text-sm text-slate-600">{words.waiting}</p>}
      {words.paused && <p role="status" className="text-sm font-medium text-amber-800">{words.paused}</p>}
    </section>
  );
}

export function RateLimitMeter({ budget, now, team = null }: { budget: BudgetSnapshotView; now: number; team?: TeamPacingWords | null }) {
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
      {team && <TeamPacing words={team} />}
    </div>
  );
}
