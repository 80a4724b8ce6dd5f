// Fix & retry crosses two routes: the job route stashes the failed rows here, the Import route
// picks them up once and hands them to the wizard as a dropped file. Module state, not the URL:
// rows are data, and a URL is logged and bookmarked.
import type { RetryHandoff } from '../features/results/retry';

let pending: RetryHandoff | null = null;

export function stashRetry(handoff: RetryHandoff): void {
  pending = handoff;
}

/** The stashed rows, if any; they stay until clearRetry (React may call a state initializer twice). */
export function peekRetry(): RetryHandoff | null {
  return pending;
}

export function clearRetry(): void {
  pending = null;
}
