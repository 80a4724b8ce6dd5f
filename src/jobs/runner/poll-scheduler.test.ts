import { describe, expect, it } from 'vitest';
import { isStalled, planPolls } from './poll-scheduler';

const NOW = 1_000_000;
const noJitter = () => 0;

describe('planPolls', () => {
  it('polls a batch no sooner than 10 s after its last poll, plus up to 5 s of jitter', () => {
    const [plan] = planPolls({ batches: [{ batchId: 'a', acceptedAt: NOW - 60_000, lastPolledAt: NOW - 3_000 }], budget: null, uploadsAhead: 0, now: NOW, random: () => 1 });
    expect(plan).toEqual({ batchId: 'a', dueAt: NOW - 3_000 + 15_000 });
    const [early] = planPolls({ batches: [{ batchId: 'a', acceptedAt: NOW - 60_000, lastPolledAt: NOW - 3_000 }], budget: null, uploadsAhead: 0, now: NOW, random: noJitter });
    expect(early!.dueAt).toBe(NOW + 7_000);
  });

  it('takes turns: never polled first, then least recently polled, oldest first among equals', () => {
    const plan = planPolls({
      batches: [
        { batchId: 'new', acceptedAt: NOW - 1_000, lastPolledAt: null },
        { batchId: 'old-recent', acceptedAt: NOW - 90_000, lastPolledAt: NOW - 1_000 },
        { batchId: 'old-stale', acceptedAt: NOW - 80_000, lastPolledAt: NOW - 20_000 },
        { batchId: 'older-new', acceptedAt: NOW - 2_000, lastPolledAt: null },
      ],
      budget: null,
      uploadsAhead: 0,
      now: NOW,
      random: noJitter,
    });
    expect(plan.map((p) => p.batchId)).toEqual(['older-new', 'new', 'old-stale', 'old-recent']);
  });

  it('spreads 100 batches over what the bucket leaves after the uploads ahead, until its reset', () => {
    const batches = Array.from({ length: 100 }, (_, i) => ({ batchId: `b${i}`, acceptedAt: NOW - 100_000 + i, lastPolledAt: NOW - 60_000 }));
    const budget = { remaining: 70, resetAt: NOW + 600_000 };
    const plan = planPolls({ batches, budget, uploadsAhead: 30, now: NOW, random: noJitter, reserve: 0 });
    // 70 left − 30 uploads = 40 polls in 600 s: one every 15 s at the most.
    const gaps = plan.slice(1).map((p, i) => p.dueAt - plan[i]!.dueAt);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(15_000);
    const beforeReset = plan.filter((p) => p.dueAt < budget.resetAt).length;
    expect(beforeReset).toBeLessThanOrEqual(40);
    expect(plan[0]!.batchId).toBe('b0');
  });

  it('waits for the reset when nothing is left for polls', () => {
    const plan = planPolls({ batches: [{ batchId: 'a', acceptedAt: NOW - 60_000, lastPolledAt: NOW - 60_000 }], budget: { remaining: 25, resetAt: NOW + 30_000 }, uploadsAhead: 10, now: NOW, random: noJitter, reserve: 20 });
    expect(plan[0]!.dueAt).toBe(NOW + 30_000);
  });
});

describe('isStalled', () => {
  it('is stalled when completed has not moved for the setting, and never once finished', () => {
    expect(isStalled({ finishedAt: null, lastMovedAt: NOW - 300_000 }, NOW, 300_000)).toBe(true);
    expect(isStalled({ finishedAt: null, lastMovedAt: NOW - 299_000 }, NOW, 300_000)).toBe(false);
    expect(isStalled({ finishedAt: NOW - 1, lastMovedAt: NOW - 900_000 }, NOW, 300_000)).toBe(false);
  });
});
