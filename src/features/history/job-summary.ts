// What History says about one job, read from its record alone: where the rows came from, its
// state in words, its counts, and which actions make sense now.
import type { StatusTone } from '../../components/status-badge';
import type { ImportJob, JobSource } from '../../jobs/import-job';

export type JobStateWord = 'sending' | 'watching' | 'waiting for you' | 'paused' | 'cancelled' | 'finished' | 'finished with failures';

export interface JobStateSummary {
  word: JobStateWord;
  tone: StatusTone;
  /** A sentence under the word: why it is paused, what it waits for… null when the word says it all. */
  detail: string | null;
}

export interface JobCounts {
  read: number;
  /** Rows in chunks the service accepted. */
  sent: number;
  /** Rows left out before sending, and rows of chunks refused or skipped. */
  skipped: number;
  created: number;
  updated: number;
  failed: number;
}

const count = (value: number, one: string, many = `${one}s`) => `${value.toLocaleString('en')} ${value === 1 ? one : many}`;

export function describeSource(source: JobSource): string {
  switch (source.kind) {
    case 'file':
      return `${source.fileName}${source.sheet ? ` (sheet ${source.sheet})` : ''}${source.size === null ? '' : `, ${formatBytes(source.size)}`}`;
    case 'quick-add':
      return 'Quick add';
    case 'retry':
      return `Retry of ${source.label}`;
  }
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return count(bytes, 'byte');
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export function jobCounts(job: ImportJob): JobCounts {
  let sent = 0;
  let skipped = job.skippedBeforeSend.length;
  for (const chunk of job.chunks) {
    if (chunk.state.status === 'accepted') sent += chunk.rowCount;
    else if (chunk.state.status === 'rejected' || chunk.state.status === 'skipped') skipped += chunk.rowCount;
  }
  const batches = Object.values(job.batches);
  const sum = (pick: (b: (typeof batches)[number]) => number) => batches.reduce((total, b) => total + pick(b), 0);
  return {
    read: job.rowsRead,
    sent,
    skipped,
    created: sum((b) => b.counts.created),
    updated: sum((b) => b.counts.updated),
    failed: sum((b) => b.counts.failed),
  };
}

function unfinishedBatches(job: ImportJob): number {
  return Object.values(job.batches).filter((batch) => batch.finishedAt === null).length;
}

export function describeJobState(job: ImportJob): JobStateSummary {
  const statuses = job.chunks.map((chunk) => chunk.state.status);
  const unknown = statuses.filter((status) => status === 'unknown').length;
  const toSend = statuses.filter((status) => status === 'pending' || status === 'sending').length;
  const watching = unfinishedBatches(job);

  if (job.runState === 'cancelled') {
    return {
      word: 'cancelled',
      tone: 'neutral',
      detail: watching > 0 ? `Nothing more is sent; ${count(watching, 'batch', 'batches')} already accepted still finishing.` : null,
    };
  }
  if (job.runState === 'paused') return { word: 'paused', tone: 'warning', detail: job.pausedReason };
  if (unknown > 0) {
    return {
      word: 'waiting for you',
      tone: 'warning',
      detail: `${count(unknown, 'request')} lost ${unknown === 1 ? 'its' : 'their'} answer: open the job to resend or skip.`,
    };
  }
  if (job.runState === 'running' && toSend > 0) return { word: 'sending', tone: 'progress', detail: null };
  if (job.runState === 'running' && watching > 0) return { word: 'watching', tone: 'progress', detail: `${count(watching, 'batch', 'batches')} processing.` };

  const counts = jobCounts(job);
  const rejected = statuses.filter((status) => status === 'rejected').length;
  const failedBatches = Object.values(job.batches).filter((batch) => batch.status === 'failed').length;
  if (counts.failed > 0 || rejected > 0 || failedBatches > 0) {
    const parts = [
      counts.failed > 0 ? `${count(counts.failed, 'row')} failed` : null,
      rejected > 0 ? `${count(rejected, 'request')} refused` : null,
      failedBatches > 0 ? `${count(failedBatches, 'batch', 'batches')} failed` : null,
    ].filter(Boolean);
    return { word: 'finished with failures', tone: 'danger', detail: `${parts.join(', ')}.` };
  }
  return { word: 'finished', tone: 'success', detail: null };
}

/**
 * Cancel stops sending; it makes sense while chunks are still to send or await an answer.
 * Resume takes up a paused job (the store resumes paused jobs only: a cancel skips the chunks
 * that were left, so a cancelled job has nothing left to send).
 */
export function jobActions(job: ImportJob): { canCancel: boolean; canResume: boolean } {
  const open = job.chunks.some((chunk) => ['pending', 'sending', 'unknown'].includes(chunk.state.status));
  return {
    canCancel: (job.runState === 'running' || job.runState === 'paused') && open,
    canResume: job.runState === 'paused',
  };
}

/** A job's label in sentences and accessible names: its source and when it started. */
export function jobLabel(job: ImportJob): string {
  return `${describeSource(job.source)}, started ${formatTime(job.createdAt)}`;
}

export function formatTime(epochMs: number): string {
  return new Date(epochMs).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
}
