// The console's one job store and one runner, wired to the browser: IndexedDB (and other tabs,
// through the storage), the connection, the shared budget, Web Locks, the page's origin and
// browser notifications. Pages and the shell import these instances; the engine itself touches
// no browser global (eslint.config.js).
import { getConnection, subscribeConnection } from '../api/connection-store';
import { sharedBudget } from '../api/rate-limit-budget';
import { persistBudget } from '../api/rate-limit-budget-store';
import type { ImportJob } from './import-job';
import { JobEtaTracker } from './eta';
import { JobRunner } from './runner/job-runner';
import { jobName } from './job-name';
import { JobStore } from './job-store';
import { IndexedDbJobStorage } from './storage/indexeddb-storage';
import { TeamReporter } from './team-reporter';
import { hasTeamHistory, keepTeamChunkRows, reportTeamJob, teamWorkspaceTag } from '../api/team-history';
import { getYourName } from '../api/your-name';

const jobStorage = new IndexedDbJobStorage();
export const jobStore = new JobStore(jobStorage);
/** The job store's database: the results thread reads a job's outcomes and payloads from it. */
export const jobDatabase = jobStorage.databaseName;

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
});

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
