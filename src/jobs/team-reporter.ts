// What this browser tells the console server's team history about the jobs it sends (DESIGN §1
// journey 12), so support staff elsewhere find them: each job's state, counts, chunks and batch
// ids as they change, its skipped rows once, and each chunk's rows as sent once it has gone out.
// Only jobs sent through the console's own server (service URL of this origin) are reported. The
// team history is a copy for others to read: a report that fails is tried again at the job's
// next change, and nothing here ever holds up sending.
import type { TeamChunk, TeamChunkRows, TeamJobReceipt, TeamJobReport } from '../contract/team-history';
import type { ChunkPayload, ImportJob } from './import-job';
import { jobName } from './job-name';
import { jobNumbering } from './job-numbering';
import { jobState } from './job-state';

/** Chunks whose rows have gone out: their rows as sent belong in the history. */
const WENT_OUT = new Set(['sending', 'accepted', 'rejected', 'unknown']);

/** The job as the team history keeps it; `withSkipped` false leaves the (unchanging) skipped rows out. */
export function teamReport(job: ImportJob, jobs: readonly ImportJob[], sentBy: string | null, withSkipped: boolean): TeamJobReport {
  const state = jobState(job, job.serviceUrl);
  const counts = { created: 0, updated: 0, failed: 0, withWarnings: 0, trackingFailed: 0 };
  for (const batch of Object.values(job.batches)) for (const key of Object.keys(counts) as (keyof typeof counts)[]) counts[key] += batch.counts[key];
  const chunks = job.chunks.map(
    (chunk): TeamChunk => ({
      id: chunk.id,
      firstRow: chunk.firstRow,
      lastRow: chunk.lastRow,
      rowCount: chunk.rowCount,
      status: chunk.state.status,
      batchId: chunk.state.status === 'accepted' ? chunk.state.batchId : null,
      note: chunk.state.status === 'rejected' || chunk.state.status === 'unknown' ? chunk.state.error : chunk.state.status === 'skipped' ? chunk.state.reason : null,
    }),
  );
  const source = job.source;
  return {
    source: {
      kind: source.kind,
      name: jobName(job),
      size: source.kind === 'file' ? source.size : null,
      contentHash: source.kind === 'file' ? source.contentHash : null,
      retryOf: source.kind === 'retry' ? source.jobId : null,
    },
    numbering: jobNumbering(job, jobs),
    sentBy,
    createdAt: job.createdAt,
    state: state.detail ? `${state.word}: ${state.detail}` : state.word,
    finished: job.finishedAt !== null,
    rowsRead: job.rowsRead,
    counts,
    chunks,
    ...(withSkipped ? { skipped: job.skippedBeforeSend.map(({ rowNumber, reason }) => ({ rowNumber, reason })) } : {}),
  };
}

export function teamChunkRows(payload: ChunkPayload): TeamChunkRows {
  return { rowNumbers: payload.rowNumbers, body: payload.body };
}

export interface TeamReporterDeps {
  jobs: { subscribe: (listener: () => void) => () => void; getSnapshot: () => { jobs: readonly ImportJob[] } };
  getPayload: (jobId: string, chunkId: number) => Promise<ChunkPayload | undefined>;
  /** Whether this browser is connected through the console's own server now. */
  connected: () => boolean;
  sentBy: () => string | null;
  report: (id: string, report: TeamJobReport) => Promise<TeamJobReceipt>;
  keepRows: (id: string, chunkId: number, rows: TeamChunkRows) => Promise<void>;
}

/**
 * Reports changed jobs one at a time, in the background. Remembers per job the last version
 * reported (its updatedAt); which chunks' rows the history holds, the server answers each time.
 */
export class TeamReporter {
  private readonly reported = new Map<string, number>();
  private inFlight: Promise<void> | null = null;
  private again = false;
  private unsubscribe: (() => void) | null = null;

  constructor(private readonly deps: TeamReporterDeps) {}

  start(): void {
    this.unsubscribe ??= this.deps.jobs.subscribe(() => void this.drain());
    void this.drain();
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
  }

  /** Resolves once every job changed so far is reported (or failed to be, until its next change). */
  drain(): Promise<void> {
    if (this.inFlight) {
      this.again = true;
      return this.inFlight;
    }
    this.inFlight = this.reportChanged().finally(() => {
      this.inFlight = null;
    });
    return this.inFlight;
  }

  private async reportChanged(): Promise<void> {
    do {
      this.again = false;
      if (!this.deps.connected()) return;
      const jobs = this.deps.jobs.getSnapshot().jobs;
      for (const job of jobs) {
        if (job.serviceUrl !== '' || this.reported.get(job.id) === job.updatedAt) continue;
        await this.reportOne(job, jobs).catch(() => undefined);
      }
    } while (this.again);
  }

  private async reportOne(job: ImportJob, jobs: readonly ImportJob[]): Promise<void> {
    const first = !this.reported.has(job.id);
    const receipt = await this.deps.report(job.id, teamReport(job, jobs, this.deps.sentBy(), first));
    const kept = new Set(receipt.rowsKept);
    for (const chunk of job.chunks) {
      if (!WENT_OUT.has(chunk.state.status) || kept.has(chunk.id)) continue;
      const payload = await this.deps.getPayload(job.id, chunk.id);
      if (!payload) continue;
      await this.deps.keepRows(job.id, chunk.id, teamChunkRows(payload));
      kept.add(chunk.id);
    }
    // Only once its rows are kept too: a failure above is tried again at the job's next change.
    this.reported.set(job.id, job.updatedAt);
  }
}
