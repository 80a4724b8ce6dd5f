// Who sends a job and where it runs, in the words the job page, History and the Team view use:
// this browser's runner (keep a tab open), or the console's server (every tab may close).
import type { ImportJob } from './import-job';

export type JobRunsOn = 'browser' | 'console-server';

/** Where a job runs, as a short label: the History column "Sent from". `browser` is the viewer's own browser. */
export function sentFromLabel(runsOn: JobRunsOn | undefined, viewer: 'mine' | 'team'): string {
  if (runsOn === 'console-server') return 'The console’s server';
  return viewer === 'mine' ? 'This browser' : 'A browser';
}

/** The job page's sentence: who sends it, where, and what that asks of the person. */
export function senderSentence(job: Pick<ImportJob, 'runsOn' | 'sentBy' | 'finishedAt'>): string {
  const by = job.sentBy ? ` for ${job.sentBy}` : '';
  if (job.runsOn === 'console-server') {
    return job.finishedAt === null
      ? `Sent by the console’s server${by}: it goes on with every tab closed, and any browser of this workspace can watch it.`
      : `Sent by the console’s server${by}.`;
  }
  return job.finishedAt === null ? 'Sent by this browser: keep a tab of the console open until every row has gone out.' : 'Sent by this browser.';
}

/** The ids of the jobs sent from this browser: its own runner's, and those it handed to the console's server (`handedHere`); the server lists the workspace's others too. */
export function jobsSentHere(jobs: readonly Pick<ImportJob, 'id' | 'runsOn'>[], handedHere: ReadonlySet<string>): string[] {
  return jobs.filter((job) => job.runsOn !== 'console-server' || handedHere.has(job.id)).map((job) => job.id);
}
