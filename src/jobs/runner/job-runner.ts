// The one runner per browser (DESIGN §5). A Web Lock elects the tab that sends and polls; the
// other tabs watch the same jobs through the store (its storage tells them of every change). When
// the lock is won the runner first settles what a closed tab left behind (a chunk still `sending`
// may have been imported: the `interrupted` event makes it `unknown`), then sends every running
// job's pending chunks, one request at a time, a chunk of each job in turn (oldest job first),
// and wakes again whenever the store changes. It changes jobs only by the events of job-machine.ts, and touches no browser
// global: the lock manager, the page's origin and notifications are given (job-runtime.ts).
//
//   runner.start(reader, client) → stop()   from the app, once, with the reader of batch bodies
//                                    and the QueryClient the poll loop's observers live in
//   getSnapshot().role               'runner' | 'watcher' | 'no-locks' (this tab runs, but cannot
//                                    coordinate with others) | 'stopped'
//   getSnapshot().unrecorded         the batches whose last answer could not be recorded, with the
//                                    sentence the job page shows until a later poll records it
//   recordPoll(jobId, digest)        a poll's answer, as the poll loop (poll-loop.ts) records it
import type { QueryClient } from '@tanstack/query-core';
import { type ApiTarget, type HttpDeps, httpDepsWith } from '../../api/http-client';
import { fetchShipmentPage, type ShipmentPage } from '../../api/shipments';
import { Observable } from '../../api/observable';
import type { RateLimitBudget } from '../../api/rate-limit-budget';
import { applyDigest } from '../batch-summary';
import type { BatchDigest, BatchReader, ImportJob } from '../import-job';
import { POLL_BUDGET_RESERVE } from '../job-settings';
import { isJobFinished } from '../job-machine';
import type { JobStore } from '../job-store';
import { type PollHooks, PollLoop, type RunningBatch, runningBatches } from './poll-loop';
import { planPolls } from './poll-scheduler';
import { payloadSender, sendPendingChunks, type SubmitDeps } from './submit-queue';
import { applyFollowUp, dueFollowUps, followUpQuery, nextFollowUpAt, recordShipmentPage, type TrackingFollowUp } from './tracking-follow-up';

export type RunnerRole = 'stopped' | 'waiting' | 'runner' | 'watcher' | 'no-locks';

export interface RunnerSnapshot {
  role: RunnerRole;
  /** A sentence for the page when this tab cannot coordinate with others. */
  notice: string | null;
  /** Batches whose last poll answer was not recorded (the job keeps its earlier state), oldest first. */
  unrecorded: readonly UnrecordedPoll[];
}

export interface UnrecordedPoll {
  jobId: string;
  batchId: string;
  sentence: string;
}

export const LOCK_NAME = 'import-console-runner';
const NO_LOCKS_NOTICE =
  'This browser cannot tell its tabs apart (no Web Locks): this tab sends and polls. Keep the console open in one tab only, or two tabs may send the same rows.';

export interface RunnerDeps {
  store: JobStore;
  budget: RateLimitBudget;
  getTarget: () => ApiTarget | null;
  subscribeTarget: (listener: () => void) => () => void;
  locks: LockManager | null;
  /** The page's origin: imports to it carry the chunk's Idempotency-Key (undefined in Node). */
  pageOrigin?: string;
  now: () => number;
  random: () => number;
  /** Shows a notification when an opted-in job finishes while the page is hidden. */
  notify: (job: ImportJob) => void;
  /** The database the reader saves a final batch's outcome into (the browser's results worker does). */
  outcomeDatabase?: string;
  /** Where requests are made; by default through the started reader's fetch (the results worker). */
  http?: HttpDeps;
  /** The poll plan's spacing between two polls of one batch, and its jitter (job-settings.ts by default). */
  pollSpacing?: { spacingMs: number; jitterMs: number };
  /** Tests send without HTTP; the console sends through payloadSender and the started reader. */
  send?: (target: ApiTarget) => SubmitDeps['send'];
  /** Which jobs of the store this runner sends and polls (all by default): a browser leaves the console server's to it. */
  runsJob?: (job: ImportJob) => boolean;
  /** Tests read shipment pages without HTTP; the console through api/shipments.ts. */
  shipmentPage?: (target: ApiTarget, query: ReturnType<typeof followUpQuery>, signal: AbortSignal) => Promise<ShipmentPage>;
}

export class JobRunner extends Observable<RunnerSnapshot> {
  private abort: AbortController | null = null;
  private wake: (() => void) | null = null;
  private readonly lastPolled = new Map<string, number>();
  private readonly rowNumbers = new Map<string, number[]>();
  private reader: BatchReader | null = null;
  private client: QueryClient | null = null;

  constructor(private readonly deps: RunnerDeps) {
    super({ role: 'stopped', notice: null, unrecorded: [] });
  }

  start(reader: BatchReader, client: QueryClient): () => void {
    this.reader = reader;
    this.client = client;
    if (this.abort) return () => this.stop();
    const abort = new AbortController();
    this.abort = abort;
    const { locks } = this.deps;
    if (!locks) {
      this.change({ role: 'no-locks', notice: NO_LOCKS_NOTICE });
      void this.lead(abort.signal);
    } else {
      this.change({ role: 'waiting', notice: null });
      // Ask once without waiting to learn whether another tab runs; then queue for the lock.
      void locks
        .request(LOCK_NAME, { ifAvailable: true }, async (lock) => {
          if (!lock) {
            this.change({ role: 'watcher', notice: null });
            return;
          }
          await this.lead(abort.signal);
        })
        .then(() => {
          if (abort.signal.aborted || this.getSnapshot().role === 'runner') return;
          return locks.request(LOCK_NAME, { signal: abort.signal }, () => this.lead(abort.signal));
        })
        .catch(() => undefined); // aborted: the page is going away
    }
    return () => this.stop();
  }

  stop(): void {
    this.abort?.abort();
    this.abort = null;
    this.wake?.();
    this.change({ role: 'stopped', notice: null, unrecorded: [] });
  }

  /** Holds the lock (its promise) for as long as this tab runs. */
  private async lead(signal: AbortSignal): Promise<void> {
    if (signal.aborted) return;
    if (this.getSnapshot().role !== 'no-locks') this.change({ role: 'runner', notice: null });
    const polls = this.reader && this.client ? new PollLoop(this.client, this.pollHooks(this.reader), this.http(this.reader)) : null;
    const syncPolls = () => {
      const { status, jobs } = this.deps.store.getSnapshot();
      if (status !== 'ready') return;
      polls?.sync(this.own(jobs), this.deps.getTarget());
      // A deleted job's answers have nowhere to go: nothing is left to say about them.
      const kept = this.getSnapshot().unrecorded.filter((u) => jobs.some((job) => job.id === u.jobId));
      if (kept.length !== this.getSnapshot().unrecorded.length) this.change({ unrecorded: kept });
    };
    const unsubscribePolls = [this.deps.store.subscribe(syncPolls), this.deps.subscribeTarget(syncPolls)];
    syncPolls();
    await this.settleInterrupted();
    const unsubscribeStore = this.deps.store.subscribe(() => this.wake?.());
    const unsubscribeTarget = this.deps.subscribeTarget(() => this.wake?.());
    try {
      while (!signal.aborted) {
        const woken = new Promise<void>((resolve) => (this.wake = resolve));
        await this.sendAll(signal);
        const nextCheck = await this.followUpTracking(signal);
        // Slow tracking is checked again when due, even if nothing else wakes the runner.
        const timer = nextCheck === null ? null : setTimeout(() => this.wake?.(), Math.max(1_000, nextCheck - this.deps.now()));
        await woken;
        if (timer !== null) clearTimeout(timer);
      }
    } finally {
      unsubscribeStore();
      unsubscribeTarget();
      unsubscribePolls.forEach((unsubscribe) => unsubscribe());
      polls?.stop();
    }
  }

  private http(reader: BatchReader): HttpDeps | undefined {
    return this.deps.http ?? (reader.fetch ? httpDepsWith(reader.fetch) : undefined);
  }

  /** The reader's fetch that reads each answer in the same step, where the runner has no HTTP of its own and a database for it. */
  private fetchReading(reader: BatchReader): { database: string; fetchReading: NonNullable<BatchReader['fetchReading']> } | null {
    const database = this.deps.outcomeDatabase;
    return !this.deps.http && reader.fetchReading && database !== undefined ? { database, fetchReading: reader.fetchReading } : null;
  }

  /** The poll loop's side of the runner: the plan, the reader, and recording each answer. */
  private pollHooks(reader: BatchReader): PollHooks {
    const database = this.deps.outcomeDatabase;
    const reading = this.fetchReading(reader);
    return {
      dueAt: (batchId) => this.dueAt(batchId),
      pollStarted: (batchId) => void this.lastPolled.set(batchId, this.deps.now()),
      now: this.deps.now,
      // One message per poll: the reader reads the chunk's row numbers and digests the answer itself.
      ...(reading && { httpFor: ({ jobId, chunkId }) => httpDepsWith(reading.fetchReading({ kind: 'digest', saveTo: { database: reading.database, jobId, chunkId } })) }),
      read: async ({ jobId, batchId, chunkId }, body) =>
        reader.digest(body, reading ? null : await this.rowNumbersOf(jobId, batchId), database === undefined ? undefined : { database, jobId, chunkId }),
      record: (batch, digest) => this.recordAnswer(batch, digest),
    };
  }

  /** Records a poll's answer; one that fails is said on the job page until a later poll records it. */
  private async recordAnswer(batch: RunningBatch, digest: BatchDigest): Promise<void> {
    const others = () => this.getSnapshot().unrecorded.filter((u) => u.batchId !== batch.batchId);
    try {
      await this.recordPoll(batch.jobId, digest);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const sentence = `The last answer for batch ${batch.batchId} could not be saved in this browser (${reason}); the runner asks the service again at its next poll.`;
      this.change({ unrecorded: [...others(), { jobId: batch.jobId, batchId: batch.batchId, sentence }] });
      throw error;
    }
    if (this.getSnapshot().unrecorded.some((u) => u.batchId === batch.batchId)) this.change({ unrecorded: others() });
  }

  /** A chunk left `sending` by a tab that closed may have reached the service: the user decides. */
  private async settleInterrupted(): Promise<void> {
    const jobs = this.own(await this.deps.store.listJobs().catch(() => []));
    for (const job of jobs) {
      if (!job.chunks.some((c) => c.state.status === 'sending')) continue;
      await this.deps.store.apply(job.id, { type: 'interrupted', at: this.deps.now() }).catch(() => undefined); // deleted meanwhile
    }
  }

  /**
   * Every job, from the store's snapshot once it has loaded: each write of this tab and each
   * other tab's change keep it current, and the runner wakes after those, so a wake costs the
   * same however many jobs History keeps. Each job is read afresh before it is sent.
   */
  private async knownJobs(): Promise<readonly ImportJob[]> {
    const snapshot = this.deps.store.getSnapshot();
    if (snapshot.status === 'ready') return this.own(snapshot.jobs);
    return this.own(await this.deps.store.listJobs().catch(() => []));
  }

  private own(jobs: readonly ImportJob[]): ImportJob[] {
    const runs = this.deps.runsJob;
    return runs ? jobs.filter(runs) : [...jobs];
  }

  private async sendAll(signal: AbortSignal): Promise<void> {
    const target = this.deps.getTarget();
    const reader = this.reader;
    if (!target || !reader) return;
    const submit: SubmitDeps = {
      store: this.deps.store,
      send: this.deps.send ? this.deps.send(target) : payloadSender(target, reader, this.deps.store, this.http(reader), this.deps.pageOrigin, this.fetchReading(reader)?.database),
      waitForBudget: (s) => this.deps.budget.waitUntilReady('import', s),
      now: this.deps.now,
    };
    // Round robin, one chunk a job a turn, oldest job first in each turn, the jobs read again
    // every turn: where one runner sends several people's jobs (the console's server), a job sent
    // a moment after a large one takes its turns at once rather than waiting for it to end.
    for (;;) {
      const jobs = (await this.knownJobs())
        .filter((job) => job.runState === 'running' && job.serviceUrl === target.baseUrl && job.chunks.some((c) => c.state.status === 'pending'))
        .reverse(); // oldest first
      let sentAny = false;
      for (const job of jobs) {
        if (signal.aborted) return;
        try {
          if ((await sendPendingChunks(job.id, submit, signal, 1)) === 'turn-over') sentAny = true;
        } catch {
          if (signal.aborted) return;
        }
      }
      if (!sentAny) return;
    }
  }

  /**
   * Checks the shipments whose tracking was still processing when their batch finished, slowly
   * and one page at a time through the shared budget, and writes what it finds
   * into the batch's outcome and counts. Returns when the next check is due (null: none left).
   */
  async followUpTracking(signal: AbortSignal): Promise<number | null> {
    const target = this.deps.getTarget();
    if (!target) return null;
    const readPage = this.deps.shipmentPage ?? ((t, q, s) => fetchShipmentPage(t, { batchId: q.batch_id, page: q.page, pageSize: q.page_size }, s));
    let next: number | null = null;
    const jobs = (await this.knownJobs()).filter((job) => job.serviceUrl === target.baseUrl && (job.trackingFollowUps?.length ?? 0) > 0);
    for (const job of jobs) {
      for (const due of dueFollowUps(job.trackingFollowUps ?? [], this.deps.now())) {
        if (signal.aborted) return null;
        let followUp: TrackingFollowUp = due;
        try {
          for (;;) {
            const page = await readPage(target, followUpQuery(followUp), signal);
            const read = recordShipmentPage(followUp, { shipments: page.shipments, lastPage: !page.pageInfo.hasNext }, this.deps.now());
            followUp = read.followUp;
            if (!read.readNextPage) break;
          }
        } catch {
          if (signal.aborted) return null;
          // The service did not answer: this check counts as fruitless and waits its spacing.
          followUp = { ...followUp, nextPage: 1, checks: followUp.checks + 1, lastCheckAt: this.deps.now() };
        }
        await this.recordFollowUp(job.id, followUp);
      }
      const stored = await this.deps.store.getJob(job.id);
      const at = nextFollowUpAt(stored?.trackingFollowUps ?? []);
      if (at !== null && (next === null || at < next)) next = at;
    }
    return next;
  }

  private async recordFollowUp(jobId: string, followUp: TrackingFollowUp): Promise<void> {
    const outcome = await this.deps.store.getOutcome(jobId, followUp.batchId);
    const updated = outcome ? applyFollowUp(outcome, followUp) : null;
    if (updated) await this.deps.store.saveOutcome(updated);
    await this.deps.store.apply(jobId, { type: 'followed-up', followUp, outcome: updated, at: this.deps.now() });
  }

  /** When `batchId` may next be polled (epoch ms), by the one plan for all running batches. */
  private dueAt(batchId: string): number {
    const jobs = this.own(this.deps.store.getSnapshot().jobs);
    const target = this.deps.getTarget();
    const running = runningBatches(jobs, target?.baseUrl ?? '');
    const uploadsAhead = jobs.reduce((sum, job) => sum + job.chunks.filter((c) => c.state.status === 'pending' || c.state.status === 'sending').length, 0);
    const general = this.deps.budget.getSnapshot().general;
    const plan = planPolls({
      batches: running.map((b) => ({ batchId: b.batchId, acceptedAt: b.acceptedAt, lastPolledAt: this.lastPolled.get(b.batchId) ?? this.storedLastPoll(jobs, b.batchId) })),
      budget: general ? { remaining: general.remaining, resetAt: general.resetAt } : null,
      uploadsAhead,
      now: this.deps.now(),
      random: this.deps.random,
      reserve: POLL_BUDGET_RESERVE,
      ...this.deps.pollSpacing,
    });
    return plan.find((p) => p.batchId === batchId)?.dueAt ?? this.deps.now();
  }

  /** The file row numbers of the batch's chunk, in the order sent: what a poll's digest matches items to. */
  private async rowNumbersOf(jobId: string, batchId: string): Promise<number[]> {
    const chunkId = this.deps.store.getSnapshot().jobs.find((job) => job.id === jobId)?.batches[batchId]?.chunkId ?? (await this.deps.store.getJob(jobId))?.batches[batchId]?.chunkId;
    if (chunkId === undefined) return [];
    const key = `${jobId}:${chunkId}`;
    let rowNumbers = this.rowNumbers.get(key);
    if (!rowNumbers) {
      rowNumbers = (await this.deps.store.getPayload(jobId, chunkId))?.rowNumbers ?? [];
      this.rowNumbers.set(key, rowNumbers);
    }
    return rowNumbers;
  }

  /**
   * Records a polled batch's digest in its job; a final batch's outcome is saved before it counts
   * as finished (here, or already by the reader: digest.outcomeSaved).
   */
  async recordPoll(jobId: string, digest: BatchDigest): Promise<void> {
    const { store, now } = this.deps;
    const saved = digest.outcomeSaved;
    if (saved && !saved.jobKept) return; // deleted before its outcome could be saved
    const job = await store.getJob(jobId);
    const progress = job?.batches[digest.id];
    if (!job || !progress) return;
    const at = now();
    const { outcome } = applyDigest(progress, digest, jobId, at);
    if (outcome) await store.saveOutcome(outcome);
    if (outcome || saved) this.rowNumbers.delete(`${jobId}:${progress.chunkId}`);
    const wasFinished = isJobFinished(job);
    const { job: updated } = await store.apply(jobId, { type: 'polled', digest, at });
    if (!wasFinished && updated.finishedAt !== null && updated.notify) this.deps.notify(updated);
  }

  private storedLastPoll(jobs: readonly ImportJob[], batchId: string): number | null {
    for (const job of jobs) {
      const batch = job.batches[batchId];
      if (batch) return batch.lastPolledAt;
    }
    return null;
  }

  private change(change: Partial<RunnerSnapshot>): void {
    this.set({ ...this.getSnapshot(), ...change });
  }
}
