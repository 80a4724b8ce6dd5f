// What the Shipments page needs of an import job (read from the job store, never written): its
// batches in the order they were sent and what each one created and updated, to list each batch's
// shipments and check the list's counts against the job's.
import type { ImportJob } from '../../jobs/import-job';
import { jobName } from '../../jobs/job-name';

export interface JobBatch {
  batchId: string;
  /** 1-based, in the order the batches were sent. */
  position: number;
  created: number;
  updated: number;
  /** The batch has finished: its counts are final. */
  finished: boolean;
}

/** The job's accepted chunks' batches, in the order sent. */
export function jobBatches(job: ImportJob): JobBatch[] {
  const batches: JobBatch[] = [];
  for (const chunk of job.chunks) {
    if (chunk.state.status !== 'accepted') continue;
    const progress = job.batches[chunk.state.batchId];
    batches.push({
      batchId: chunk.state.batchId,
      position: batches.length + 1,
      created: progress?.counts.created ?? 0,
      updated: progress?.counts.updated ?? 0,
      finished: progress?.finishedAt != null,
    });
  }
  return batches;
}

/** A job as a person recognises it: what was imported, and when. */
export function jobLabel(job: Pick<ImportJob, 'source' | 'createdAt'>): string {
  const when = new Date(job.createdAt).toLocaleString('en-GB', { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });
  return `${jobName(job)} (${when})`;
}

export type CountCheck =
  | { status: 'pending' }
  | { status: 'unknown' }
  | { status: 'agrees'; total: number }
  | { status: 'differs'; listed: number; counted: number };

/**
 * Whether the service's lists of the job's batches hold as many shipments as the job counted
 * created + updated. `listed[i]` is the total the list of batch i states (null: it did not say;
 * undefined: not known yet). Only finished batches have final counts.
 */
export function checkCounts(batches: readonly JobBatch[], listed: readonly (number | null | undefined)[]): CountCheck {
  if (batches.some((batch) => !batch.finished) || listed.some((total) => total === undefined)) return { status: 'pending' };
  if (listed.some((total) => total === null)) return { status: 'unknown' };
  const total = listed.reduce<number>((sum, value) => sum + (value ?? 0), 0);
  const counted = batches.reduce((sum, batch) => sum + batch.created + batch.updated, 0);
  return total === counted ? { status: 'agrees', total } : { status: 'differs', listed: total, counted };
}
