import { environmentManager, QueryClient } from '@tanstack/query-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { HttpDeps } from '../../api/http-client';
import { RateLimitBudget } from '../../api/rate-limit-budget';
import type { ShipmentPage } from '../../api/shipments';
import type { BatchDigest, BatchOutcome, BatchReader, OutcomeItem } from '../import-job';
import { JobRunner } from './job-runner';
import { JobStore } from '../job-store';
import { MemoryJobStorage } from '../storage/memory-storage';
import { FOLLOW_UP_SPACING_MS } from './tracking-follow-up';

const stores: JobStore[] = [];
afterEach(async () => {
  await Promise.all(stores.splice(0).map((store) => store.close()));
});

const item = (rowNumber: number, shipmentId: string, trackingStatus: string): OutcomeItem => ({
  rowNumber, creationStatus: 'created', trackingStatus, shipmentId, reference: null, problems: [],
});

/** A job whose one batch finished with s1 and s2 still tracking, recorded as a poll would. */
async function jobWithSlowTracking(clock: { now: number }, pages: (query: { page: number }) => ShipmentPage) {
  const store = new JobStore(new MemoryJobStorage(), () => clock.now);
  stores.push(store);
  const requests: { batch_id: string; page: number }[] = [];
  const runner = new JobRunner({
    store,
    budget: new RateLimitBudget(() => clock.now),
    getTarget: () => ({ baseUrl: '', apiKey: 'k' }),
    subscribeTarget: () => () => undefined,
    locks: null,
    now: () => clock.now,
    random: () => 0.5,
    notify: () => undefined,
    shipmentPage: (_target, query) => {
      requests.push({ batch_id: query.batch_id, page: query.page });
      return Promise.resolve(pages(query));
    },
  });
  const job = await store.createJob({
    source: { kind: 'quick-add' }, serviceUrl: '', rowsRead: 3, numbering: 'Row', skipped: [], chunkRows: 10,
    rows: { format: 'json', requests: [{}, {}, {}], rowNumbers: [1, 2, 3] },
  });
  const headline = { id: 'b1', status: 'processing', total: 3, completed: 0, failureReason: null };
  await store.apply(job.id, { type: 'claim', chunkId: 0, at: 0 });
  await store.apply(job.id, { type: 'accepted', chunkId: 0, batch: headline, at: 0 });
  const digest: BatchDigest = {
    ...headline, status: 'completed', completed: 3, counts: { created: 3, updated: 0, failed: 0, withWarnings: 0, trackingFailed: 0 },
    problems: [], problemCount: 0, unmatchedItems: 0,
    items: [item(1, 's1', 'processing'), item(2, 's2', 'processing'), item(3, 's3', 'succeeded')],
  };
  await runner.recordPoll(job.id, digest);
  return { store, runner, jobId: job.id, requests };
}

const shipment = (id: string, status: string, reason: string | null = null) =>
  ({ id, last_process_status: status, last_process_failure_reason: reason }) as ShipmentPage['shipments'][number];
const page = (shipments: ShipmentPage['shipments'], hasNext = false): ShipmentPage => ({
  shipments, pageInfo: { page: 1, total: null, totalPages: null, hasNext, nextPage: hasNext ? 2 : null },
});

describe('recording a poll whose outcome the reader saved', () => {
  it('finishes the batch with the digest’s counts and follow-ups, and writes no outcome of its own', async () => {
    const clock = { now: 1_000 };
    const store = new JobStore(new MemoryJobStorage(), () => clock.now);
    stores.push(store);
    const runner = new JobRunner({
      store, budget: new RateLimitBudget(() => clock.now), getTarget: () => ({ baseUrl: '', apiKey: 'k' }), subscribeTarget: () => () => undefined,
      locks: null, now: () => clock.now, random: () => 0.5, notify: () => undefined,
    });
    const job = await store.createJob({
      source: { kind: 'quick-add' }, serviceUrl: '', rowsRead: 2, numbering: 'Row', skipped: [], chunkRows: 10,
      rows: { format: 'json', requests: [{}, {}], rowNumbers: [1, 2] },
    });
    const headline = { id: 'b1', status: 'processing', total: 2, completed: 0, failureReason: null };
    await store.apply(job.id, { type: 'claim', chunkId: 0, at: 0 });
    await store.apply(job.id, { type: 'accepted', chunkId: 0, batch: headline, at: 0 });
    const followUp = { batchId: 'b1', pending: ['s1'], failures: {}, checks: 0, lastCheckAt: null, nextPage: 1 };
    const counts = { created: 2, updated: 0, failed: 0, withWarnings: 0, trackingFailed: 0 };
    const digest: BatchDigest = {
      ...headline, status: 'completed', completed: 2, counts, problems: [], problemCount: 0, unmatchedItems: 0, items: null,
      outcomeSaved: { jobKept: true, trackingPending: ['s1'] },
    };
    await runner.recordPoll(job.id, digest);
    const after = await store.getJob(job.id);
    expect(after?.batches.b1).toMatchObject({ status: 'completed', completed: 2, counts, finishedAt: 1_000 });
    expect(after?.finishedAt).toBe(1_000);
    expect(after?.trackingFollowUps).toEqual([followUp]);
    expect(await store.getOutcomes(job.id)).toEqual([]); // the reader's to save, not saved twice
  });
});

describe('tracking follow-up in the runner', () => {
  it('checks a finished batch’s slow tracking until it ends, and the outcome and counts show the failure with its reason', async () => {
    const clock = { now: 1_000 };
    let round = 0;
    const { store, runner, jobId, requests } = await jobWithSlowTracking(clock, (query) =>
      round === 0
        ? page([shipment('s1', 'processing'), shipment('s2', 'processing')])
        : query.page === 1
          ? page([shipment('s1', 'track_failed', 'not_found')], true)
          : page([shipment('s2', 'track_succeeded')]),
    );
    expect((await store.getJob(jobId))?.trackingFollowUps).toMatchObject([{ batchId: 'b1', pending: ['s1', 's2'] }]);

    const signal = new AbortController().signal;
    const next = await runner.followUpTracking(signal);
    expect(requests).toEqual([{ batch_id: 'b1', page: 1 }]);
    expect(next).toBe(1_000 + FOLLOW_UP_SPACING_MS);

    clock.now += FOLLOW_UP_SPACING_MS - 1;
    await runner.followUpTracking(signal);
    expect(requests).toHaveLength(1); // not due yet: slowly

    clock.now += 1;
    round = 1;
    expect(await runner.followUpTracking(signal)).toBeNull();
    expect(requests.slice(1)).toEqual([{ batch_id: 'b1', page: 1 }, { batch_id: 'b1', page: 2 }]);
    const [outcome] = await store.getOutcomes(jobId);
    expect(outcome?.items.map((i) => [i?.shipmentId, i?.trackingStatus, i?.trackingFailureReason])).toEqual([
      ['s1', 'failed', 'not_found'],
      ['s2', 'succeeded', undefined],
      ['s3', 'succeeded', undefined],
    ]);
    const job = await store.getJob(jobId);
    expect(job?.batches.b1?.counts.trackingFailed).toBe(1);
    expect(job?.trackingFollowUps).toEqual([]);
  });
});

/** Storage whose first `failures` outcome writes fail, as a full disk fails them. */
class FullDiskStorage extends MemoryJobStorage {
  constructor(private failures: number) {
    super();
  }

  override saveOutcome(outcome: BatchOutcome): Promise<void> {
    if (this.failures-- > 0) return Promise.reject(new Error('The quota has been exceeded.'));
    return super.saveOutcome(outcome);
  }
}

describe('a poll answer the runner could not record', () => {
  beforeAll(() => environmentManager.setIsServer(() => false)); // Query schedules no refetch on a server
  afterAll(() => environmentManager.setIsServer(() => true));

  it('is said on the job with its reason, and the next poll records it and finishes the job', { timeout: 15_000 }, async () => {
    const store = new JobStore(new FullDiskStorage(1));
    stores.push(store);
    let polls = 0;
    const http: HttpDeps = {
      fetch: () => {
        polls++;
        return Promise.resolve(new Response(JSON.stringify({ id: 'b1', status: 'completed' }), { status: 200 }));
      },
      budget: new RateLimitBudget(), sleep: () => Promise.resolve(), random: () => 0.5, now: Date.now,
    };
    const reader: BatchReader = {
      headline: () => Promise.reject(new Error('nothing is sent')),
      digest: () => Promise.resolve({
        id: 'b1', status: 'completed', total: 1, completed: 1, failureReason: null, counts: { created: 1, updated: 0, failed: 0, withWarnings: 0, trackingFailed: 0 },
        problems: [], problemCount: 0, unmatchedItems: 0, items: [item(1, 's1', 'succeeded')],
      }),
    };
    const runner = new JobRunner({
      store, budget: new RateLimitBudget(), getTarget: () => ({ baseUrl: '', apiKey: 'k' }), subscribeTarget: () => () => undefined,
      locks: null, now: Date.now, random: () => 0.5, notify: () => undefined, http, pollSpacing: { spacingMs: 0, jitterMs: 0 },
    });
    const job = await store.createJob({
      source: { kind: 'quick-add' }, serviceUrl: '', rowsRead: 1, numbering: 'Row', skipped: [], chunkRows: 10,
      rows: { format: 'json', requests: [{}], rowNumbers: [1] },
    });
    await store.apply(job.id, { type: 'claim', chunkId: 0, at: 0 });
    await store.apply(job.id, { type: 'accepted', chunkId: 0, batch: { id: 'b1', status: 'processing', total: 1, completed: 0, failureReason: null }, at: 0 });

    const stop = runner.start(reader, new QueryClient({ defaultOptions: { queries: { retry: false } } }));
    await expect.poll(() => runner.getSnapshot().unrecorded, { timeout: 5_000 }).toEqual([
      { jobId: job.id, batchId: 'b1', sentence: 'The last answer for batch b1 could not be saved in this browser (The quota has been exceeded.); the runner asks the service again at its next poll.' },
    ]);
    expect((await store.getJob(job.id))?.finishedAt).toBeNull();

    await expect.poll(async () => (await store.getJob(job.id))?.finishedAt ?? null, { timeout: 5_000 }).not.toBeNull();
    expect(runner.getSnapshot().unrecorded).toEqual([]);
    expect(polls).toBe(2);
    expect(await store.getOutcomes(job.id)).toHaveLength(1);
    stop();
  });
});

describe('a runner that leaves some jobs to another', () => {
  it('sends only the jobs it runs: a job the console’s server runs is neither sent nor settled by this browser', async () => {
    const store = new JobStore(new MemoryJobStorage());
    stores.push(store);
    const sent: string[] = [];
    const mine = await store.createJob({ source: { kind: 'quick-add' }, serviceUrl: '', rowsRead: 1, numbering: 'Row', skipped: [], chunkRows: 10, rows: { format: 'json', requests: [{}], rowNumbers: [1] } });
    const theirs = await store.createJob({ source: { kind: 'quick-add' }, serviceUrl: '', rowsRead: 1, numbering: 'Row', skipped: [], chunkRows: 10, rows: { format: 'json', requests: [{}], rowNumbers: [1] } });
    // The server's job, as a browser watching it reads it: its chunk is being sent there.
    await store.storage.update(theirs.id, (job) => ({ job: { ...job, runsOn: 'console-server' } }));
    await store.apply(theirs.id, { type: 'claim', chunkId: 0, at: 1 });
    const runner = new JobRunner({
      store, budget: new RateLimitBudget(), getTarget: () => ({ baseUrl: '', apiKey: 'k' }), subscribeTarget: () => () => undefined,
      locks: null, now: Date.now, random: () => 0.5, notify: () => undefined,
      runsJob: (job) => job.runsOn !== 'console-server',
      send: () => (job) => {
        sent.push(job.id);
        return Promise.resolve({ id: `b-${job.id}`, status: 'processing', total: 1, completed: 0, failureReason: null });
      },
    });
    const stop = runner.start({ headline: () => Promise.reject(new Error('unused')), digest: () => Promise.reject(new Error('unused')) }, new QueryClient());
    try {
      await expect.poll(() => sent).toEqual([mine.id]);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(sent).toEqual([mine.id]);
      expect((await store.getJob(theirs.id))?.chunks[0]?.state.status).toBe('sending');
    } finally {
      stop();
    }
  });
});

describe('a runner sending several jobs', () => {
  it('gives them turns, a chunk each, oldest job first: a large job sent first holds back neither one sent after it nor one sent while it sends', async () => {
    let clock = 1_000;
    const store = new JobStore(new MemoryJobStorage(), () => (clock += 1_000));
    stores.push(store);
    const sent: string[] = [];
    const newJob = (name: string, rows: number) =>
      store.createJob({
        source: { kind: 'file', fileName: name, size: 1, contentHash: null }, serviceUrl: '', rowsRead: rows, numbering: 'Row', skipped: [], chunkRows: 1,
        rows: { format: 'json', requests: Array.from({ length: rows }, () => ({})), rowNumbers: Array.from({ length: rows }, (_, i) => i + 1) },
      });
    const large = await newJob('large.csv', 5);
    const small = await newJob('small.csv', 2);
    const names = new Map([[large.id, 'large'], [small.id, 'small']]);
    const runner = new JobRunner({
      store, budget: new RateLimitBudget(), getTarget: () => ({ baseUrl: '', apiKey: 'k' }), subscribeTarget: () => () => undefined,
      locks: null, now: Date.now, random: () => 0.5, notify: () => undefined,
      send: () => async (job, chunkId) => {
        sent.push(`${names.get(job.id)}#${chunkId}`);
        // A colleague sends a job while these are being sent: it joins at the next turn.
        if (sent.length === 2) names.set((await newJob('late.csv', 2)).id, 'late');
        return { id: `b-${job.id}-${chunkId}`, status: 'processing', total: 1, completed: 0, failureReason: null };
      },
    });
    const stop = runner.start({ headline: () => Promise.reject(new Error('unused')), digest: () => Promise.reject(new Error('unused')) }, new QueryClient());
    try {
      await expect.poll(() => sent.length).toBe(9);
      expect(sent).toEqual(['large#0', 'small#0', 'large#1', 'small#1', 'late#0', 'large#2', 'late#1', 'large#3', 'large#4']);
    } finally {
      stop();
    }
  });
});
