import { useSyncExternalStore } from 'react';
import { type Connection, getConnection, subscribeConnection } from './connection-store';

/** The current connection, re-rendering when the user connects or disconnects. */
export function useConnection(): Connection | null {
  return useSyncExternalStore(subscribeConnection, getConnection, () => null);
}
