// A job as this browser stored it (IndexedDB, the job store's `jobs` object store), read from the
// page: what a spec checks beside the screen, and what a failure reports of where the runner stopped.
import type { Page } from '@playwright/test';

function openJobId(page: Page): string | undefined {
  return /\/imports\/([0-9a-f-]{36})/.exec(page.url())?.[1];
}

/** The `source` of the job whose page is open. */
export async function storedJobSource(page: Page): Promise<unknown> {
  const jobId = openJobId(page);
  if (!jobId) throw new Error(`No job page is open: ${page.url()}`);
  return page.evaluate(
    (id) =>
      new Promise<unknown>((resolve, reject) => {
        const open = indexedDB.open('import-console-jobs');
        open.onerror = () => reject(new Error('IndexedDB would not open'));
        open.onsuccess = () => {
          const get = open.result.transaction('jobs').objectStore('jobs').get(id);
          get.onerror = () => reject(new Error('The job could not be read'));
          get.onsuccess = () => {
            open.result.close();
            resolve((get.result as { source: unknown } | undefined)?.source);
          };
        };
      }),
    jobId,
  );
}

/** The job of the page's address as stored: run state, each chunk's and batch's state, as text. */
export async function storedJobState(page: Page): Promise<string> {
  const jobId = openJobId(page);
  if (!jobId) return `(no job in ${page.url()})`;
  return page
    .evaluate(
      (id) =>
        new Promise<string>((resolve) => {
          const open = indexedDB.open('import-console-jobs');
          open.onerror = () => resolve('(IndexedDB would not open)');
          open.onsuccess = () => {
            const get = open.result.transaction('jobs').objectStore('jobs').get(id);
            get.onerror = () => resolve('(job not readable)');
            get.onsuccess = () => {
              type Stored = { runState: string; pausedReason: string | null; finishedAt: number | null; chunks: { id: number; attempts: number; state: { status: string } }[]; batches: Record<string, { status: string; finishedAt: number | null; lastPolledAt: number | null; completed: number; total: number }> };
              const job = get.result as Stored | undefined;
              if (!job) return resolve('(no such job stored)');
              const chunks = job.chunks.map((c) => `#${c.id} ${JSON.stringify(c.state)} ×${c.attempts}`).join('; ');
              const batches = Object.entries(job.batches).map(([b, p]) => `${b.slice(0, 8)} ${p.status} ${p.completed}/${p.total} finished=${p.finishedAt} polled=${p.lastPolledAt}`).join('; ');
              resolve(`job ${job.runState}${job.pausedReason ? ` (${job.pausedReason})` : ''} finishedAt=${job.finishedAt} now=${Date.now()}\nchunks: ${chunks}\nbatches: ${batches}`);
            };
          };
        }),
      jobId,
    )
    .catch((error: unknown) => `(could not read the job: ${String(error)})`);
}
