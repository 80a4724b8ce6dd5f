import { describe, expect, it } from 'vitest';
import { RateLimitBudget } from './rate-limit-budget';

describe('rate-limit budget', () => {
  it('holds back PATCHes when the PATCH bucket is empty, and nothing else', () => {
    const now = 1_800_000_000_000;
    const budget = new RateLimitBudget(() => now);
    budget.record('general', { limit: 1500, remaining: 1200, resetAt: now + 3_600_000 });
    budget.record('patch', { limit: 100, remaining: 0, resetAt: now + 45_000 });
    expect(budget.delayFor('patch')).toBe(45_000);
    expect(budget.delayFor('general')).toBe(0);
    expect(budget.delayFor('import')).toBe(0);
  });

  it('counts a PATCH against both its own bucket and the general one', async () => {
    const now = 1_800_000_000_000;
    const budget = new RateLimitBudget(() => now);
    budget.record('general', { limit: 1500, remaining: 10, resetAt: now + 3_600_000 });
    budget.record('patch', { limit: 100, remaining: 1, resetAt: now + 60_000 });
    await budget.acquire('patch');
    expect(budget.getSnapshot().patch?.remaining).toBe(0);
    expect(budget.getSnapshot().general?.remaining).toBe(9);
    expect(budget.delayFor('patch')).toBe(60_000);
  });
});
