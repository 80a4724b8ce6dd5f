import { describe, expect, it } from 'vitest';
import { RateLimitBudget } from './rate-limit-budget';
import { budgetStorageKey, persistBudget } from './rate-limit-budget-store';

class MemoryStorage {
  private readonly items = new Map<string, string>();
  getItem = (key: string) => this.items.get(key) ?? null;
  setItem = (key: string, value: string) => void this.items.set(key, value);
  get keys() {
    return [...this.items.keys()];
  }
}

const NOW = 1_800_000_000_000;
const sandbox = { baseUrl: '', workspace: 'Demo', apiKey: 'secret-key-0123' };
const other = { baseUrl: 'https://api.example.com', workspace: null, apiKey: 'other-secret' };

describe('persisted rate-limit budget', () => {
  it('a reloaded tab starts from the budget the service last announced for that connection, never keyed by the key', () => {
    const storage = new MemoryStorage();
    const first = new RateLimitBudget(() => NOW);
    persistBudget(first, storage as unknown as Storage, () => sandbox, () => () => undefined);
    first.record('import', { limit: 20, remaining: 0, resetAt: NOW + 30_000 });
    first.record('general', { limit: 1500, remaining: 1400, resetAt: NOW + 3_600_000 });
    expect(storage.keys).toEqual([budgetStorageKey(sandbox)]);
    expect(storage.keys.join() + (storage.getItem(budgetStorageKey(sandbox)) ?? '')).not.toContain('secret');

    const reloaded = new RateLimitBudget(() => NOW + 10_000);
    persistBudget(reloaded, storage as unknown as Storage, () => sandbox, () => () => undefined);
    expect(reloaded.delayFor('import')).toBe(20_000);
    expect(reloaded.getSnapshot().general?.remaining).toBe(1400);
  });

  it('drops windows that reset meanwhile, and keeps each connection its own budget', () => {
    const storage = new MemoryStorage();
    let connection: typeof sandbox | typeof other = sandbox;
    const listeners = new Set<() => void>();
    const budget = new RateLimitBudget(() => NOW);
    persistBudget(budget, storage as unknown as Storage, () => connection, (l) => (listeners.add(l), () => listeners.delete(l)));
    budget.record('import', { limit: 20, remaining: 0, resetAt: NOW + 30_000 });
    connection = other;
    listeners.forEach((l) => l());
    expect(budget.delayFor('import')).toBe(0);

    const later = new RateLimitBudget(() => NOW + 60_000);
    persistBudget(later, storage as unknown as Storage, () => sandbox, () => () => undefined);
    expect(later.getSnapshot().import).toBeNull();
  });
});
