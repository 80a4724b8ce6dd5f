// The poll loop (DESIGN §5): while this tab runs the jobs, one TanStack Query observer per running
// batch of the connected service, each paced by the runner's one plan for all of them (dueAt) and
// stopped at a final status (batchQueryOptions' refetchInterval); each answer is recorded by the
// runner itself. The observers live in the app's QueryClient, under the batch's key, so any page
// may read the last digest from the same cache. An answer that could not be recorded is asked
// for again at the batch's next turn in the plan: the regular poll while it runs, one more poll
// once it is final (its observer polls no more by itself).
import { type QueryClient, QueryObserver } from '@tanstack/query-core';
import type { ApiTarget, HttpDeps, KeptBody } from '../../api/http-client';
import { batchQueryOptions } from '../../api/imports';
import { sleep } from '../../api/rate-limit-budget';
import { isFinalBatchStatus } from '../../contract/batch';
import type { BatchDigest, ImportJob } from '../import-job';

/** What the loop needs of the runner. */
export interface PollHooks {
  /** When the batch may next be polled (epoch ms), by the one plan for every running batch. */
  dueAt(batchId: string): number;
  pollStarted(batchId: string): void;
  now(): number;
  /** The batch's body read against its chunk's rows. */
  read(batch: RunningBatch, body: ArrayBuffer | KeptBody): Promise<BatchDigest>;
  /** Records an answer in the batch's job; a rejection means the answer is not recorded. */
  record(batch: RunningBatch, digest: BatchDigest): Promise<void>;
  /** Where the batch's polls are made, when not the loop's own (a fetch that reads the answer too). */
  httpFor?(batch: RunningBatch): HttpDeps | undefined;
}

export interface RunningBatch {
  jobId: string;
  batchId: string;
  chunkId: number;
  acceptedAt: number;
}

/** Batches still processing of the jobs sent to `serviceUrl`. */
export function runningBatches(jobs: readonly ImportJob[], serviceUrl: string): RunningBatch[] {
  return jobs
    .filter((job) => job.serviceUrl === serviceUrl)
    .flatMap((job) =>
      Object.values(job.batches)
        .filter((batch) => batch.finishedAt === null)
        .map((batch) => ({ jobId: job.id, batchId: batch.batchId, chunkId: batch.chunkId, acceptedAt: batch.acceptedAt })),
    );
}

export class PollLoop {
  private readonly polls = new Map<string, () => void>();
  private target: ApiTarget | null = null;

  constructor(
    private readonly client: QueryClient,
    private readonly hooks: PollHooks,
    private readonly http: HttpDeps | undefined,
  ) {}

  /** Observes each running batch of `jobs` on `target` (null: none) and stops observing the others. */
  sync(jobs: readonly ImportJob[], target: ApiTarget | null): void {
    if (target?.baseUrl !== this.target?.baseUrl || target?.apiKey !== this.target?.apiKey) {
      // Another service or key: its observers start afresh (the app clears the cache for it too).
      this.stop();
      this.target = target;
    }
    if (!target) return;
    const running = runningBatches(jobs, target.baseUrl);
    const wanted = new Set(running.map((batch) => batch.batchId));
    for (const [batchId, stop] of this.polls) {
      if (wanted.has(batchId)) continue;
      stop();
      this.polls.delete(batchId);
    }
    for (const batch of running) {
      if (!this.polls.has(batch.batchId)) this.polls.set(batch.batchId, this.observe(target, batch));
    }
  }

  stop(): void {
    this.polls.forEach((stop) => stop());
    this.polls.clear();
    this.target = null;
  }

  private observe(target: ApiTarget, batch: RunningBatch): () => void {
    const { batchId } = batch;
    const schedule = {
      waitUntilDue: async (signal: AbortSignal) => {
        const wait = this.hooks.dueAt(batchId) - this.hooks.now();
        if (wait > 0) await sleep(wait, signal);
        this.hooks.pollStarted(batchId);
      },
      nextPollIn: () => this.hooks.dueAt(batchId) - this.hooks.now(),
    };
    const observer = new QueryObserver(this.client, batchQueryOptions(target, batchId, schedule, (body) => this.hooks.read(batch, body), this.hooks.httpFor?.(batch) ?? this.http, batch.jobId));
    let recordedAt = 0;
    let retry: ReturnType<typeof setTimeout> | undefined;
    const unsubscribe = observer.subscribe((result) => {
      if (!result.data || result.dataUpdatedAt === recordedAt) return;
      recordedAt = result.dataUpdatedAt;
      const final = isFinalBatchStatus(result.data.status);
      this.hooks.record(batch, result.data).catch(() => {
        if (!final) return; // the next regular poll records again
        clearTimeout(retry);
        retry = setTimeout(() => void observer.refetch(), Math.max(1_000, schedule.nextPollIn()));
      });
    });
    return () => {
      clearTimeout(retry);
      unsubscribe();
      observer.destroy();
    };
  }
}
