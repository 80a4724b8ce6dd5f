import { type QueryCache, useQueryClient } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { type Connection, getConnection, subscribeConnection } from './connection-store';
import { type Reachability, ReachabilityWatch, UNKNOWN } from './reachability';

/** The current connection, re-rendering when the user connects or disconnects. */
export function useConnection(): Connection | null {
  return useSyncExternalStore(subscribeConnection, getConnection, () => null);
}

// One watch per query cache, for the life of the page: the cache and the connection outlive
// every component that asks.
const watches = new WeakMap<QueryCache, ReachabilityWatch>();

function watchOf(cache: QueryCache): ReachabilityWatch {
  let watch = watches.get(cache);
  if (!watch) {
    watch = new ReachabilityWatch(cache, () => getConnection()?.baseUrl ?? null, subscribeConnection);
    watches.set(cache, watch);
  }
  return watch;
}

/**
 * Whether the connected service answered the console's last request about it (reachability.ts),
 * re-rendering when that changes.
 */
export function useReachability(): Reachability {
  const watch = watchOf(useQueryClient().getQueryCache());
  return useSyncExternalStore(watch.subscribe, watch.getSnapshot, () => UNKNOWN);
}
