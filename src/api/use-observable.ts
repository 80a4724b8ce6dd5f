import { useSyncExternalStore } from 'react';
import type { Observable } from './observable';

/** A store's snapshot (observable.ts), re-rendering when it changes, in this tab or from another. */
export function useObservable<T>(store: Pick<Observable<T>, 'subscribe' | 'getSnapshot'>): T {
  return useSyncExternalStore(store.subscribe, store.getSnapshot);
}
