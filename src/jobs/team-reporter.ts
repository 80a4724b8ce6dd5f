// What this browser tells the console server's team history about the jobs it sends (DESIGN §1
// journey 12), so support staff elsewhere find them: each job's state, counts, chunks and batch
// ids as they change, its skipped rows once, and each chunk's rows as sent once it has gone out.
// Only jobs made in this browser while connected through the console's own server are reported,
// to the workspace they were sent in (`claim`: the server's opaque tag, kept on the device). The
// team history is a copy for others to read: a report that fails is tried again at the job's
// next change, and nothing here ever holds up sending.
import type { TeamChunk, TeamChunkRows, TeamJobReceipt, TeamJobReport } from '../contract/team-history';
import type { ChunkPayload, ImportJob } from './import-job';
import { accountJob } from './accounting';
import { jobName } from './job-name';
import { jobState } from './job-state';

/** Chunks whose rows have gone out: their rows as sent belong in the history. */
const WENT_OUT = new Set(['sending', 'accepted', 'rejected', 'unknown']);

/** The job as the team history keeps it; `withSkipped` false leaves the (unchanging) skipped rows out. */
export function teamReport(job: ImportJob, sentBy: string | null, withSkipped: boolean): TeamJobReport {
  const state = jobState(job, job.serviceUrl);
  const accounting = accountJob(job);
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
      retryOf: source.kind === 'retry' ? (source.batchId ?? source.jobId) : null,
    },
    numbering: job.numbering,
    sentBy,
    createdAt: job.createdAt,
    version: job.updatedAt,
    state: state.detail ? `${state.word}: ${state.detail}` : state.word,
    finished: job.finishedAt !== null,
    rowsRead: job.rowsRead,
    rowsSkipped: accounting.skipped,
    counts: accounting.counts,
    chunks,
    ...(withSkipped ? { skipped: job.skippedBeforeSend.map(({ rowNumber, reason }) => ({ rowNumber, reason })) } : {}),
  };
}

function teamChunkRows(payload: ChunkPayload): TeamChunkRows {
  return { rowNumbers: payload.rowNumbers, body: payload.body };
}

export interface TeamReporterDeps {
  jobs: { subscribe: (listener: () => void) => () => void; getSnapshot: () => { jobs: readonly ImportJob[] } };
  getPayload: (jobId: string, chunkId: number) => Promise<ChunkPayload | undefined>;
  /** Whether this browser is connected through the console's own server now. */
  connected: () => boolean;
  /** The opaque tag of the workspace the connection speaks for now (the server's), null when it has none. */
  workspaceTag: () => Promise<string | null>;
  /** Which workspace each job was sent in, by its tag: kept on the device, written when the job is made. */
  claims: { get: (jobId: string) => string | null; set: (jobId: string, tag: string) => void };
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

  /**
   * Marks a job just made in this tab as sent in the connection's workspace: only such jobs are
   * reported, and only while connected to that workspace, so a job never lands in the history of
   * another key's workspace (another tab's connection, a key changed later, an older job).
   */
  async claim(jobId: string): Promise<void> {
    const tag = await this.deps.workspaceTag().catch(() => null);
    if (tag === null) return;
    this.deps.claims.set(jobId, tag);
    await this.drain();
  }

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
      const tag = await this.deps.workspaceTag().catch(() => null);
      if (tag === null) return;
      const jobs = this.deps.jobs.getSnapshot().jobs;
      for (const job of jobs) {
        // A job the console's server runs is reported there, by the server itself.
        if (job.runsOn === 'console-server') continue;
        if (job.serviceUrl !== '' || this.deps.claims.get(job.id) !== tag || this.reported.get(job.id) === job.updatedAt) continue;
        await this.reportOne(job).catch(() => undefined);
      }
    } while (this.again);
  }

  private async reportOne(job: ImportJob): Promise<void> {
    const first = !this.reported.has(job.id);
    const receipt = await this.deps.report(job.id, teamReport(job, this.deps.sentBy(), first));
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
