// Whether the connected service answers, as the console's own requests last found it: no probe
// and no polling of its own. Every query about the service goes through the HTTP module, which
// retries a lost answer and then throws a NetworkError; TanStack Query's cache keeps each query's
// last outcome. So the last settled query of the connected service tells: an answer (data, or a
// service error such as a 404 or a refused key) means it answers; a NetworkError means it did not.
import type { Query, QueryCache, QueryKey } from '@tanstack/react-query';
import { ApiError, NetworkError } from './api-error';
import { Observable } from './observable';

export type Reachability =
  /** Nothing asked of this connection in this tab yet. */
  | { status: 'unknown' }
  /** The last request was answered, at `at` (epoch ms). */
  | { status: 'answering'; at: number }
  /** The last request got no answer, at `at` (epoch ms); `message` is the HTTP module's sentence. */
  | { status: 'unreachable'; at: number; message: string };

export const UNKNOWN: Reachability = { status: 'unknown' };

/**
 * Whether a query's key belongs to the service at `baseUrl`. The connection-scoped key factories
 * of api/ put the base URL second (['shipments', baseUrl, …], ['batches', baseUrl, …],
 * ['custom-fields', baseUrl]); keys without it (['sandbox-info'], ['console-info']) read this
 * origin with plain fetch and turn every failure into null, so they tell nothing.
 */
export function isServiceQuery(queryKey: readonly unknown[], baseUrl: string): boolean {
  return queryKey.length >= 2 && queryKey[1] === baseUrl;
}

/** What one settled fetch says about the service, or null when it says nothing. */
export function reachabilityOf(outcome: { ok: true } | { ok: false; error: unknown }, at: number): Reachability | null {
  if (outcome.ok) return { status: 'answering', at };
  if (outcome.error instanceof NetworkError) return { status: 'unreachable', at, message: outcome.error.message };
  // An HttpError or InvalidResponseError is an answer; anything else (a worker that failed to
  // read the body, say) happened after or beside the request and tells nothing about it.
  if (outcome.error instanceof ApiError) return { status: 'answering', at };
  return null;
}

/**
 * Follows the query cache: each fetch of a query of the connected service that settles updates
 * the reachability. Connecting (again) or disconnecting starts again from unknown: connecting
 * has just checked the service itself, and the cache is cleared then (app.tsx).
 */
export class ReachabilityWatch extends Observable<Reachability> {
  private baseUrl: string | null;
  private readonly stopCache: () => void;
  private readonly stopConnection: () => void;

  constructor(
    queryCache: QueryCache,
    connectedBaseUrl: () => string | null,
    subscribeConnection: (listener: () => void) => () => void,
    private readonly now: () => number = Date.now,
  ) {
    super(UNKNOWN);
    this.baseUrl = connectedBaseUrl();
    this.stopCache = queryCache.subscribe((event) => {
      if (event.type !== 'updated') return;
      const { action } = event;
      // The cache holds queries of every type; only the key is read here.
      const { queryKey } = event.query as Query;
      // `manual` successes are setQueryData: no request was made.
      if (action.type === 'success' && !action.manual) this.settled(queryKey, { ok: true });
      else if (action.type === 'error') this.settled(queryKey, { ok: false, error: action.error });
    });
    this.stopConnection = subscribeConnection(() => {
      this.baseUrl = connectedBaseUrl();
      this.set(UNKNOWN);
    });
  }

  stop(): void {
    this.stopCache();
    this.stopConnection();
  }

  private settled(queryKey: QueryKey, outcome: { ok: true } | { ok: false; error: unknown }): void {
    if (this.baseUrl === null || !isServiceQuery(queryKey, this.baseUrl)) return;
    const next = reachabilityOf(outcome, this.now());
    if (next) this.set(next);
  }
}
