// A job as the console keeps it, read from the page: this browser's IndexedDB (the job store's
// `jobs` object store) for a job its own runner sends, else the console's server
// (`/console/api/server-jobs/:id`, asked with the page's connection) for one the server runs.
// What a spec checks beside the screen, and what a failure reports of where the runner stopped.
import type { Page } from '@playwright/test';

function openJobId(page: Page): string | undefined {
  return /\/imports\/([0-9a-f-]{36})/.exec(page.url())?.[1];
}

/** The job with this id as the page's console keeps it, or null when neither place has it. */
function keptJob(page: Page, jobId: string): Promise<Record<string, unknown> | null> {
  return page.evaluate(async (id) => {
    // Opening a database that does not exist would make an empty one under the console's name.
    const hasDatabase = (await indexedDB.databases()).some((database) => database.name === 'import-console-jobs');
    const fromIndexedDb = !hasDatabase ? null : await new Promise<Record<string, unknown> | null>((resolve, reject) => {
      const open = indexedDB.open('import-console-jobs');
      open.onerror = () => reject(new Error('IndexedDB would not open'));
      open.onsuccess = () => {
        const stores = open.result.objectStoreNames;
        if (!stores.contains('jobs')) {
          open.result.close();
          resolve(null);
          return;
        }
        const get = open.result.transaction('jobs').objectStore('jobs').get(id);
        get.onerror = () => reject(new Error('The job could not be read'));
        get.onsuccess = () => {
          open.result.close();
          resolve((get.result as Record<string, unknown> | undefined) ?? null);
        };
      };
    });
    if (fromIndexedDb) return fromIndexedDb;
    const raw = sessionStorage.getItem('import-console.connection') ?? localStorage.getItem('import-console.connection');
    const apiKey = raw ? (JSON.parse(raw) as { apiKey?: string }).apiKey : undefined;
    const response = await fetch(`/console/api/server-jobs/${id}`, { headers: apiKey ? { Authorization: `Bearer ${apiKey}` } : {} });
    return response.ok ? ((await response.json()) as { job: Record<string, unknown> }).job : null;
  }, jobId);
}

/** The `source` of the job whose page is open. */
export async function storedJobSource(page: Page): Promise<unknown> {
  const jobId = openJobId(page);
  if (!jobId) throw new Error(`No job page is open: ${page.url()}`);
  return (await keptJob(page, jobId))?.source;
}

/** The job of the page's address as kept: run state, each chunk's and batch's state, as text. */
export async function storedJobState(page: Page): Promise<string> {
  const jobId = openJobId(page);
  if (!jobId) return `(no job in ${page.url()})`;
  type Kept = { runState: string; pausedReason: string | null; finishedAt: number | null; runsOn?: string; chunks: { id: number; attempts: number; state: { status: string } }[]; batches: Record<string, { status: string; finishedAt: number | null; lastPolledAt: number | null; completed: number; total: number }> };
  return keptJob(page, jobId)
    .then((found) => {
      const job = found as Kept | null;
      if (!job) return '(no such job kept)';
      const chunks = job.chunks.map((c) => `#${c.id} ${JSON.stringify(c.state)} ×${c.attempts}`).join('; ');
      const batches = Object.entries(job.batches).map(([b, p]) => `${b.slice(0, 8)} ${p.status} ${p.completed}/${p.total} finished=${p.finishedAt} polled=${p.lastPolledAt}`).join('; ');
      return `job ${job.runState}${job.pausedReason ? ` (${job.pausedReason})` : ''}${job.runsOn ? ` on ${job.runsOn}` : ''} finishedAt=${job.finishedAt} now=${Date.now()}\nchunks: ${chunks}\nbatches: ${batches}`;
    })
    .catch((error: unknown) => `(could not read the job: ${String(error)})`);
}
