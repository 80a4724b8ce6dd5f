// A job's state in words: the one set the job page and History both show, with a sentence under
// the word where it does not say it all. Pure, from the job record and the tab's connection.
import type { ImportJob } from './import-job';

export type JobPhase =
  | 'sending'
  | 'processing'
  | 'needs-you'
  | 'paused'
  | 'waiting-for-connection'
  | 'cancelled'
  | 'finished'
  | 'finished-with-failures';

export interface JobState {
  phase: JobPhase;
  /** The state as a person reads it: "Sending", "Finished with failures"… */
  word: string;
  /** Why it is paused, what it waits for, what failed; null when the word says it all. */
  detail: string | null;
}

const WORDS: Record<JobPhase, string> = {
  sending: 'Sending',
  processing: 'Processing',
  'needs-you': 'Needs your decision',
  paused: 'Paused',
  'waiting-for-connection': 'Waiting for a connection',
  cancelled: 'Cancelled',
  finished: 'Finished',
  'finished-with-failures': 'Finished with failures',
};

/** One formatter for every count (jobs/ may not use components/plural's): toLocaleString makes one per call. */
const counts = new Intl.NumberFormat('en');
const count = (value: number, one: string, many = `${one}s`) => `${counts.format(value)} ${value === 1 ? one : many}`;

/** How the job's service is named in sentences ("the local sandbox", a host name). */
export function serviceName(serviceUrl: string): string {
  if (serviceUrl === '') return 'this console’s service';
  try {
    return new URL(serviceUrl).host;
  } catch {
    return serviceUrl;
  }
}

/**
 * The job's state. `connectedTo` is the base URL this tab is connected to (null: not connected):
 * a job with work left waits for a connection to its own service, and says so.
 */
export function jobState(job: ImportJob, connectedTo: string | null): JobState {
  const state = (phase: JobPhase, detail: string | null = null): JobState => ({ phase, word: WORDS[phase], detail });
  const statuses = job.chunks.map((chunk) => chunk.state.status);
  const unknown = statuses.filter((status) => status === 'unknown').length;
  const toSend = statuses.filter((status) => status === 'pending' || status === 'sending').length;
  const watching = Object.values(job.batches).filter((batch) => batch.finishedAt === null).length;

  if (job.runState === 'cancelled') {
    return state('cancelled', watching > 0 ? `Nothing more is sent; ${count(watching, 'batch', 'batches')} already accepted still finishing.` : null);
  }
  if (job.runState === 'paused') return state('paused', job.pausedReason);
  if (unknown > 0) return state('needs-you', `${count(unknown, 'request')} lost ${unknown === 1 ? 'its' : 'their'} answer: open the job to resend or skip.`);
  if (job.finishedAt === null && (toSend > 0 || watching > 0) && connectedTo !== job.serviceUrl) {
    return state('waiting-for-connection', `It resumes once this browser is connected to ${serviceName(job.serviceUrl)}.`);
  }
  if (toSend > 0) return state('sending');
  if (watching > 0) return state('processing', `${count(watching, 'batch', 'batches')} processing.`);

  const rejected = statuses.filter((status) => status === 'rejected').length;
  const failedRows = Object.values(job.batches).reduce((sum, batch) => sum + batch.counts.failed, 0);
  const failedBatches = Object.values(job.batches).filter((batch) => batch.status === 'failed').length;
  if (failedRows > 0 || rejected > 0 || failedBatches > 0) {
    const parts = [
      failedRows > 0 ? `${count(failedRows, 'row')} failed` : null,
      rejected > 0 ? `${count(rejected, 'request')} refused` : null,
      failedBatches > 0 ? `${count(failedBatches, 'batch', 'batches')} failed` : null,
    ].filter(Boolean);
    return state('finished-with-failures', `${parts.join(', ')}.`);
  }
  return state('finished');
}
