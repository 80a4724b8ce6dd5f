// The console's one job store and one runner, wired to the browser: IndexedDB (and other tabs,
// through the storage), the connection, the shared budget, Web Locks, the page's origin and
// browser notifications. Where the console's server runs jobs (/console.json runs_jobs), Send
// hands each new job to it and the store shows the server's jobs beside this browser's
// (storage/routed-storage.ts); this browser's runner sends only its own. Pages and the shell
// import these instances; the engine itself touches no browser global (eslint.config.js).
import { getConnection, subscribeConnection } from '../api/connection-store';
import { sharedBudget } from '../api/rate-limit-budget';
import { persistBudget } from '../api/rate-limit-budget-store';
import type { ImportJob } from './import-job';
import { JobEtaTracker } from './eta';
import { JobRunner } from './runner/job-runner';
import { jobName } from './job-name';
import { JobStore } from './job-store';
import { IndexedDbJobStorage } from './storage/indexeddb-storage';
import { ConsoleServerJobStorage } from './storage/console-server-storage';
import { RoutedJobStorage } from './storage/routed-storage';
import { consoleRunsJobs } from '../api/server-jobs';
import type { ApiTarget } from '../api/http-client';
import { TeamReporter } from './team-reporter';
import { notifyWhenServerJobsFinish } from './server-job-finish';
import { hasTeamHistory, keepTeamChunkRows, reportTeamJob, teamWorkspaceTag } from '../api/team-history';
import { getYourName } from '../api/your-name';

const jobStorage = new IndexedDbJobStorage();

/** Whether the console's server runs jobs, asked of /console.json once per page (again after a failed ask). */
let runsJobs: Promise<boolean> | null = null;
/** The connection, when the console's server runs its jobs; rejects while the server cannot say. */
async function askedServerRunTarget(): Promise<ApiTarget | null> {
  const connection = getConnection();
  if (!connection || connection.baseUrl !== '') return null;
  // Only a definite answer is kept: a failed ask is asked again next time.
  runsJobs ??= consoleRunsJobs(connection).catch((error: unknown) => {
    runsJobs = null;
    throw error;
  });
  return (await runsJobs) ? { baseUrl: connection.baseUrl, apiKey: connection.apiKey } : null;
}

/** For reading: while the server cannot say, this browser lists only its own jobs. */
const serverRunTarget = () => askedServerRunTarget().catch(() => null);

/** For Send: a job is never handed to the browser's runner on a guess. */
async function handsJobsToServer(): Promise<boolean> {
  try {
    return (await askedServerRunTarget()) !== null;
  } catch (error) {
    throw new Error(`${error instanceof Error ? error.message : String(error)}: nothing was sent; press Send again in a moment.`, { cause: error });
  }
}

const HANDED_KEY = 'import-console.handed-over';
/** The jobs this browser handed to the console's server (the meter's "yours"): on the device, never with the key. */
const handedHere = {
  read(): string[] {
    try {
      return typeof localStorage === 'undefined' ? [] : ((JSON.parse(localStorage.getItem(HANDED_KEY) ?? '[]') as string[] | null) ?? []);
    } catch {
      return [];
    }
  },
  add(id: string): void {
    if (typeof localStorage === 'undefined') return;
    const { status, jobs } = jobStore.getSnapshot();
    const known = new Set(jobs.map((job) => job.id));
    // Only the jobs still listed (once the list is read), so the record stays as small as History.
    const kept = handedHere.read().filter((earlier) => status !== 'ready' || known.has(earlier));
    localStorage.setItem(HANDED_KEY, JSON.stringify([...kept, id]));
  },
};

/** The ids of the jobs sent from this browser: its own, and those it handed to the console's server. */
export const jobsHandedHere = (): ReadonlySet<string> => new Set(handedHere.read());

const serverJobs = new ConsoleServerJobStorage({ target: serverRunTarget, sentBy: getYourName, handedOver: (id) => handedHere.add(id) });
export const jobStore = new JobStore(new RoutedJobStorage(jobStorage, serverJobs, handsJobsToServer));
/** The job store's database: the results thread reads a job's outcomes and payloads from it. */
export const jobDatabase = jobStorage.databaseName;
// Another connection may reach another workspace's server jobs, or none.
subscribeConnection(() => {
  serverJobs.targetChanged();
  void jobStore.reload();
});

// The budget outlives the tab, per connection (never the key): a reopened console is not blind.
if (typeof localStorage !== 'undefined') persistBudget(sharedBudget, localStorage, getConnection, subscribeConnection);

function notifyFinished(job: ImportJob): void {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted' || document.visibilityState === 'visible') return;
  const name = jobName(job);
  new Notification('Import finished', { body: `${name}: every batch has finished. Open the console to see the results.`, tag: job.id });
}

export const jobRunner = new JobRunner({
  store: jobStore,
  budget: sharedBudget,
  getTarget: () => {
    const connection = getConnection();
    return connection ? { baseUrl: connection.baseUrl, apiKey: connection.apiKey } : null;
  },
  subscribeTarget: subscribeConnection,
  locks: typeof navigator !== 'undefined' && 'locks' in navigator ? navigator.locks : null,
  pageOrigin: globalThis.location?.origin,
  // The results worker saves a final batch's outcome into this storage's database itself.
  outcomeDatabase: jobStorage.databaseName,
  now: Date.now,
  random: Math.random,
  notify: notifyFinished,
  // The console's server sends its jobs itself; this browser only watches them.
  runsJob: (job) => job.runsOn !== 'console-server',
});

/** The server's jobs finish there: the page gives their notification as the runner does for its own; returns the stop. */
export const watchServerJobsFinish = () => notifyWhenServerJobsFinish(jobStore, notifyFinished);

export const jobEta = new JobEtaTracker(jobStore);

/** The connection, when it reaches the console's own server (which keeps the team history). */
function teamTarget() {
  const connection = getConnection();
  return connection && hasTeamHistory(connection) ? { baseUrl: connection.baseUrl, apiKey: connection.apiKey } : null;
}

function withTeamTarget<T>(use: (target: NonNullable<ReturnType<typeof teamTarget>>) => Promise<T>): Promise<T> {
  const target = teamTarget();
  return target ? use(target) : Promise.reject(new Error('not connected through the console server'));
}

/** The connection's workspace tag, asked once per connection. */
let tagOf: { baseUrl: string; apiKey: string; tag: Promise<string | null> } | null = null;
function currentWorkspaceTag(): Promise<string | null> {
  const target = teamTarget();
  if (!target) return Promise.resolve(null);
  if (tagOf?.baseUrl !== target.baseUrl || tagOf.apiKey !== target.apiKey) {
    const tag = teamWorkspaceTag(target).catch(() => null);
    tagOf = { ...target, tag };
    // A failed ask is asked again next time, not remembered.
    void tag.then((value) => {
      if (value === null && tagOf?.tag === tag) tagOf = null;
    });
  }
  return tagOf.tag;
}

const CLAIMS_KEY = 'import-console.team-claims';
/** Which workspace (tag) each job of this browser was sent in: on the device, never with the key. */
const claims = {
  read(): Record<string, string> {
    try {
      return (JSON.parse(localStorage.getItem(CLAIMS_KEY) ?? '{}') as Record<string, string> | null) ?? {};
    } catch {
      return {};
    }
  },
  get(jobId: string): string | null {
    return typeof localStorage === 'undefined' ? null : (claims.read()[jobId] ?? null);
  },
  set(jobId: string, tag: string): void {
    const known = new Set(jobStore.getSnapshot().jobs.map((job) => job.id));
    // Only the jobs this browser still keeps, so the record stays as small as History.
    const kept = Object.fromEntries(Object.entries(claims.read()).filter(([id]) => known.has(id)));
    localStorage.setItem(CLAIMS_KEY, JSON.stringify({ ...kept, [jobId]: tag }));
  },
};

export const teamReporter = new TeamReporter({
  jobs: jobStore,
  getPayload: (jobId, chunkId) => jobStore.getPayload(jobId, chunkId),
  connected: () => teamTarget() !== null,
  workspaceTag: currentWorkspaceTag,
  claims,
  sentBy: getYourName,
  report: (id, report) => withTeamTarget((target) => reportTeamJob(target, id, report)),
  keepRows: (id, chunkId, rows) => withTeamTarget((target) => keepTeamChunkRows(target, id, chunkId, rows)),
});
subscribeConnection(() => void teamReporter.drain());
