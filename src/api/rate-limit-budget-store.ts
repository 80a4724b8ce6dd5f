// Keeps the rate-limit budget across reloads and closed tabs, per connection (base URL and
// workspace; never the key), in localStorage: a reopened console knows what the service said
// was left and when it resets, instead of starting blind and meeting a full window with a 429.
import type { BudgetSnapshot, RateLimitBudget } from './rate-limit-budget';

const PREFIX = 'import-console.budget:';

export interface BudgetConnection {
  baseUrl: string;
  workspace: string | null;
}

/** The storage key of a connection's budget: its service and workspace, nothing secret. */
export function budgetStorageKey(connection: BudgetConnection): string {
  return `${PREFIX}${connection.baseUrl}|${connection.workspace ?? ''}`;
}

function read(storage: Storage, key: string): BudgetSnapshot | null {
  try {
    const value = JSON.parse(storage.getItem(key) ?? 'null') as BudgetSnapshot | null;
    return value && typeof value === 'object' && typeof value.pausedUntil === 'number' ? value : null;
  } catch {
    return null;
  }
}

/**
 * Restores the current connection's budget now and whenever the connection changes, and saves
 * every change of the budget under the connection it belongs to. Returns the unsubscribe.
 */
export function persistBudget(
  budget: RateLimitBudget,
  storage: Storage,
  currentConnection: () => BudgetConnection | null,
  subscribeConnection: (listener: () => void) => () => void,
): () => void {
  let key: string | null = null;
  let restoring = false;
  const follow = () => {
    const connection = currentConnection();
    const next = connection ? budgetStorageKey(connection) : null;
    if (next === key) return;
    key = next;
    restoring = true;
    budget.restore(key ? read(storage, key) : null);
    restoring = false;
  };
  follow();
  const stopConnection = subscribeConnection(follow);
  const stopBudget = budget.subscribe(() => {
    if (restoring || !key) return;
    try {
      storage.setItem(key, JSON.stringify(budget.getSnapshot()));
    } catch {
      // Storage full or off: the budget still works for this tab.
    }
  });
  return () => {
    stopConnection();
    stopBudget();
  };
}
