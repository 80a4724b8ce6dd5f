// What History says about one job, read from its record alone: where the rows came from, its
// state in words, its counts, and which actions make sense now.
import { PHASE_TONE } from '../../components/phase-tone';
import type { StatusTone } from '../../components/status-badge';
import { accountJob } from '../../jobs/accounting';
import type { ImportJob, JobSource } from '../../jobs/import-job';
import { jobName } from '../../jobs/job-name';
import { type JobState, jobState } from '../../jobs/job-state';
import { plural as count } from '../../components/plural';

/** The job page's words (jobs/job-state.ts), with History's badge colour. */
export interface JobStateSummary extends JobState {
  tone: StatusTone;
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


/** The job's name (jobs/job-name.ts) with what History adds: a file's sheet and size; a retry says so. */
export function describeSource(source: JobSource): string {
  switch (source.kind) {
    case 'file':
      return `${jobName({ source })}${source.sheet ? ` (sheet ${source.sheet})` : ''}${source.size === null ? '' : `, ${formatBytes(source.size)}`}`;
    case 'quick-add':
      return jobName({ source });
    case 'retry':
      return `Retry of ${jobName({ source })}`;
  }
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return count(bytes, 'byte');
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** History's columns, counted as the job page counts them (jobs/accounting.ts). */
export function jobCounts(job: ImportJob): JobCounts {
  const { read, sent, skipped, counts } = accountJob(job);
  return { read, sent, skipped, created: counts.created, updated: counts.updated, failed: counts.failed };
}

/** `connectedTo`: the base URL this tab is connected to, null when it is not. */
export function describeJobState(job: ImportJob, connectedTo: string | null): JobStateSummary {
  const state = jobState(job, connectedTo);
  return { ...state, tone: PHASE_TONE[state.phase] };
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

/** formatTime's two halves ("24 Nov 2026" and "01:55"), for a table cell that may wrap between them. */
export function formatTimeParts(epochMs: number): { date: string; time: string } {
  const at = new Date(epochMs);
  return { date: at.toLocaleDateString('en-GB', { dateStyle: 'medium' }), time: at.toLocaleTimeString('en-GB', { timeStyle: 'short' }) };
}
