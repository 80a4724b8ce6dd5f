import { environmentManager, QueryClient } from '@tanstack/query-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiTarget, HttpDeps } from '../../api/http-client';
import { RateLimitBudget } from '../../api/rate-limit-budget';
import type { BatchDigest, ImportJob } from '../import-job';
import { madeJob, transition, type JobEvent } from '../job-machine';
import { PollLoop, type PollHooks } from './poll-loop';

// Query takes a process without `window` for a server and schedules no refetch: this one polls.
beforeAll(() => environmentManager.setIsServer(() => false));
afterAll(() => environmentManager.setIsServer(() => true));

const TARGET: ApiTarget = { baseUrl: 'https://svc.example', apiKey: 'k1' };

/** A job on `serviceUrl` whose chunks 0 and 1 were accepted as batches b0 and b1. */
function jobWithBatches(id: string, serviceUrl = TARGET.baseUrl): ImportJob {
  let job = madeJob(
    { id, at: 0, source: { kind: 'quick-add' }, endpoint: 'list', headers: [], chunkRows: 1, serviceUrl, rowsRead: 2, numbering: 'Row', skippedBeforeSend: [], notify: false },
    [{ rowNumbers: [1], withoutReference: 0 }, { rowNumbers: [2], withoutReference: 0 }],
  );
  const events: JobEvent[] = [0, 1].flatMap((chunkId): JobEvent[] => [
    { type: 'claim', chunkId, at: 1 },
    { type: 'accepted', chunkId, batch: { id: `${id}-b${chunkId}`, status: 'processing', total: 1, completed: 0, failureReason: null }, at: 1 },
  ]);
  for (const event of events) job = transition(job, event).job!;
  return job;
}

/** The service: every batch answers `status` to each poll; each request is counted by batch. */
function harness(status: () => string, record: (digest: BatchDigest) => Promise<void> = () => Promise.resolve()) {
  const polled = new Map<string, number>();
  const recorded: string[] = [];
  const fetch = (url: string | URL | Request) => {
    const batchId = (typeof url === 'string' ? url : url instanceof URL ? url.href : url.url).split('/').at(-1)!;
    polled.set(batchId, (polled.get(batchId) ?? 0) + 1);
    return Promise.resolve(new Response(JSON.stringify({ id: batchId, status: status() }), { status: 200 }));
  };
  const http: HttpDeps = { fetch, budget: new RateLimitBudget(), sleep: () => Promise.resolve(), random: () => 0.5, now: Date.now };
  const hooks: PollHooks = {
    dueAt: () => 0,
    pollStarted: () => undefined,
    now: Date.now,
    read: (_batch, body) => {
      const batch = JSON.parse(new TextDecoder().decode(body as ArrayBuffer)) as { id: string; status: string };
      const digest = { id: batch.id, status: batch.status, total: 1, completed: 0, failureReason: null, counts: { created: 0, updated: 0, failed: 0, withWarnings: 0, trackingFailed: 0 }, problems: [], problemCount: 0, unmatchedItems: 0, items: null };
      return Promise.resolve(digest satisfies BatchDigest);
    },
    record: async (_batch, digest) => {
      await record(digest);
      recorded.push(`${digest.id}:${digest.status}`);
    },
  };
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const observers = (batchId: string) => client.getQueryCache().find({ queryKey: ['batches', TARGET.baseUrl, batchId] })?.getObserversCount() ?? 0;
  return { loop: new PollLoop(client, hooks, http), polled, recorded, observers };
}

describe('the poll loop', () => {
  it('observes each running batch of the connected service, records every answer, and stops at a final status', async () => {
    let status = 'processing';
    const { loop, polled, recorded, observers } = harness(() => status);
    const elsewhere = jobWithBatches('other', 'https://elsewhere.example');
    loop.sync([jobWithBatches('j'), elsewhere], TARGET);
    await expect.poll(() => recorded.filter((r) => r.startsWith('j-b0')).length, { timeout: 5_000 }).toBeGreaterThanOrEqual(2); // polled again while processing (at least 1 s apart)
    expect([observers('j-b0'), observers('j-b1'), observers('other-b0')]).toEqual([1, 1, 0]);
    expect(polled.has('other-b0')).toBe(false);
    status = 'completed';
    await expect.poll(() => recorded.includes('j-b0:completed'), { timeout: 5_000 }).toBe(true);
    const after = polled.get('j-b0');
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(polled.get('j-b0')).toBe(after); // final: no more polls
    loop.stop();
  });

  it('asks again for a final answer it could not record, and records it then', { timeout: 10_000 }, async () => {
    let refusals = 1;
    const { loop, polled, recorded } = harness(
      () => 'completed',
      (digest) => (digest.id === 'j-b0' && refusals-- > 0 ? Promise.reject(new Error('QuotaExceededError')) : Promise.resolve()),
    );
    loop.sync([jobWithBatches('j')], TARGET);
    await expect.poll(() => recorded, { timeout: 5_000 }).toEqual(['j-b1:completed', 'j-b0:completed']);
    expect([polled.get('j-b0'), polled.get('j-b1')]).toEqual([2, 1]); // one more poll, for the answer not recorded
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(polled.get('j-b0')).toBe(2); // recorded: no more polls
    loop.stop();
  });

  it('stops observing a batch that finished, and every batch when the connection changes or the loop stops', () => {
    const { loop, observers } = harness(() => 'processing');
    const job = jobWithBatches('j');
    loop.sync([job], TARGET);
    expect([observers('j-b0'), observers('j-b1')]).toEqual([1, 1]);
    const finished = { ...job, batches: { ...job.batches, 'j-b0': { ...job.batches['j-b0']!, finishedAt: 5 } } };
    loop.sync([finished], TARGET);
    expect([observers('j-b0'), observers('j-b1')]).toEqual([0, 1]);
    loop.sync([finished], { ...TARGET, apiKey: 'k2' });
    expect(observers('j-b1')).toBe(1); // a new observer, with the new key
    loop.sync([finished], null);
    expect(observers('j-b1')).toBe(0);
    loop.sync([finished], TARGET);
    loop.stop();
    expect(observers('j-b1')).toBe(0);
  });
});
