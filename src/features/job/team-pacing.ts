// The console server's pacing in a person's words, for the rate-limit meter: whose jobs are
// sending (this browser knows its own job ids), what waits, when the next import may go.
import type { PacingView } from '../../contract/pacing';
import { plural } from '../../components/plural';

export interface TeamPacingWords {
  /** "3 jobs sending: yours and 2 others.", then "1 job waiting for results: yours." — announced when it changes. */
  jobs: string;
  /** "Next import slot in 4 s" or "An import may go now"; null when no import waits. */
  nextSlot: string | null;
  /** "5 requests waiting at the console's server"; null when none. */
  waiting: string | null;
  /** The service's 429 holding the requests of the limit it named (not the whole workspace); null when none is held. */
  paused: string | null;
}

const secondsOf = (ms: number) => `${Math.max(1, Math.ceil(ms / 1000))} s`;

/** Whose of `ids` are this browser's: "yours and 2 others". */
function whoseOf(ids: readonly string[], ownJobIds: ReadonlySet<string>): string {
  const yours = ids.filter((id) => ownJobIds.has(id)).length;
  const others = ids.length - yours;
  if (yours === 0) return others === 1 ? 'another person’s' : `${others} others`;
  if (others === 0) return yours === 1 ? 'yours' : `all ${yours} yours`;
  return `${yours === 1 ? 'yours' : `${yours} of yours`} and ${plural(others, 'other')}`;
}

export function describeTeamPacing(view: PacingView, ownJobIds: ReadonlySet<string>): TeamPacingWords {
  const sending = view.jobsSending.length;
  const waitingForResults = view.jobsWaitingForResults.length;
  const lines = [
    sending > 0 ? `${plural(sending, 'job')} sending: ${whoseOf(view.jobsSending, ownJobIds)}.` : null,
    waitingForResults > 0 ? `${plural(waitingForResults, 'job')} waiting for results: ${whoseOf(view.jobsWaitingForResults, ownJobIds)}.` : null,
  ].filter((line) => line !== null);
  const jobs = lines.length === 0 ? 'No job is sending in this workspace.' : lines.join(' ');
  const queued = view.queued.imports + view.queued.polls + view.queued.people;
  return {
    jobs,
    nextSlot: sending === 0 ? null : view.nextImportSlotInMs > 0 ? `Next import slot in ${secondsOf(view.nextImportSlotInMs)}.` : 'An import may go now.',
    waiting: queued === 0 ? null : `${plural(queued, 'request')} waiting at the console’s server for the rate limit.`,
    paused: view.pausedForMs > 0 ? `The service answered “too many requests”: the console’s server waits ${secondsOf(view.pausedForMs)} before sending those again.` : null,
  };
}
