import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpError, NetworkError } from './api-error';
import { ReachabilityWatch } from './reachability';

const NO_ANSWER = 'No answer from the service (fetch failed).';

describe('ReachabilityWatch', () => {
  let baseUrl: string | null = '';
  const connectionListeners = new Set<() => void>();
  const changeConnection = (next: string | null) => {
    baseUrl = next;
    connectionListeners.forEach((listener) => listener());
  };
  let client: QueryClient;
  let watch: ReachabilityWatch;

  const start = () => {
    baseUrl = '';
    client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    watch = new ReachabilityWatch(
      client.getQueryCache(),
      () => baseUrl,
      (listener) => {
        connectionListeners.add(listener);
        return () => connectionListeners.delete(listener);
      },
      () => 1_000,
    );
  };
  const settle = (queryKey: unknown[], queryFn: () => Promise<unknown>) => client.fetchQuery({ queryKey, queryFn }).catch(() => undefined);

  afterEach(() => {
    watch.stop();
    client.clear();
  });

  it('says unreachable when the last query of the service got no answer, answering when the next one is answered', async () => {
    start();
    expect(watch.getSnapshot()).toEqual({ status: 'unknown' });
    await settle(['shipments', '', 'list'], () => Promise.reject(new NetworkError(NO_ANSWER)));
    expect(watch.getSnapshot()).toEqual({ status: 'unreachable', at: 1_000, message: NO_ANSWER });
    await settle(['batches', '', 'b-1'], () => Promise.resolve({ status: 'completed' }));
    expect(watch.getSnapshot()).toEqual({ status: 'answering', at: 1_000 });
  });

  it('counts a service error as an answer: the service is there', async () => {
    start();
    await settle(['shipments', '', 'list'], () => Promise.reject(new NetworkError(NO_ANSWER)));
    await settle(['custom-fields', ''], () => Promise.reject(HttpError.fromBody(404, 'Not Found', '')));
    expect(watch.getSnapshot().status).toBe('answering');
  });

  it('learns nothing from queries that do not ask the connected service', async () => {
    start();
    await settle(['shipments', '', 'list'], () => Promise.reject(new NetworkError(NO_ANSWER)));
    // The sandbox probe turns a failed fetch into null: a "success" while the service is down.
    await settle(['sandbox-info'], () => Promise.resolve(null));
    // Another service's key (a job of another connection).
    await settle(['batches', 'https://elsewhere.example', 'b-2'], () => Promise.resolve({ status: 'completed' }));
    // A failure after the answer, outside the HTTP module (the results worker, say).
    await settle(['batches', '', 'b-3'], () => Promise.reject(new Error('The results worker stopped.')));
    // setQueryData makes no request.
    client.setQueryData(['shipments', '', 'list'], { shipments: [] });
    expect(watch.getSnapshot().status).toBe('unreachable');
  });

  it('starts again from unknown when the connection changes, and follows the new service', async () => {
    start();
    await settle(['shipments', '', 'list'], () => Promise.reject(new NetworkError(NO_ANSWER)));
    const seen: string[] = [];
    const stop = watch.subscribe(() => seen.push(watch.getSnapshot().status));
    changeConnection('https://api.example');
    expect(watch.getSnapshot()).toEqual({ status: 'unknown' });
    await settle(['shipments', '', 'list'], () => Promise.resolve({ shipments: [] }));
    expect(watch.getSnapshot().status).toBe('unknown');
    await settle(['shipments', 'https://api.example', 'list'], () => Promise.reject(new NetworkError(NO_ANSWER)));
    expect(watch.getSnapshot().status).toBe('unreachable');
    changeConnection(null);
    await settle(['shipments', 'https://api.example', 'list'], () => Promise.resolve({ shipments: [] }));
    expect(seen).toEqual(['unknown', 'unreachable', 'unknown']);
    stop();
  });
});
