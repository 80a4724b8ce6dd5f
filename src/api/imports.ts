// The import endpoints (spec §2): the CSV file import, the JSON list import, and reading a batch
// back with its queryOptions for polling. Imports are POSTs: they retry only a 429 (the service
// did nothing), so a lost answer reaches the caller, who decides (the job marks the chunk unknown).
// Any 2xx with a batch body is accepted (the spec shows 202; 200 and 201 work too).
import { queryOptions } from '@tanstack/react-query';
import { type Batch, batchSchema, isFinalBatchStatus } from '../contract/batch';
import { type ApiTarget, type HttpDeps, request } from './http-client';

/** POST /api/v1/shipments/imports/file with one part `file`: the CSV text as sent. */
export function importFile(target: ApiTarget, csv: string, fileName: string, signal?: AbortSignal, deps?: HttpDeps): Promise<Batch> {
  const formData = new FormData();
  formData.append('file', new Blob([csv], { type: 'text/csv' }), fileName);
  return request(target, {
    method: 'POST',
    path: '/api/v1/shipments/imports/file',
    formData,
    schema: batchSchema,
    bucket: 'import',
    retry: 'rate-limit-only',
    signal,
  }, deps);
}

/** POST /api/v1/shipments/imports with a JSON list of shipment requests. */
export function importList(target: ApiTarget, requests: readonly Record<string, unknown>[], signal?: AbortSignal, deps?: HttpDeps): Promise<Batch> {
  return request(target, {
    method: 'POST',
    path: '/api/v1/shipments/imports',
    json: requests,
    schema: batchSchema,
    bucket: 'import',
    retry: 'rate-limit-only',
    signal,
  }, deps);
}

/** Keys of batch queries, scoped to the connection by its base URL only (never the API key). */
export const batchKeys = {
  all: (target: ApiTarget) => ['batches', target.baseUrl] as const,
  detail: (target: ApiTarget, batchId: string) => [...batchKeys.all(target), batchId] as const,
};

export function fetchBatch(target: ApiTarget, batchId: string, signal?: AbortSignal): Promise<Batch> {
  return request(target, { path: `/api/v1/shipments/imports/${encodeURIComponent(batchId)}`, schema: batchSchema, signal });
}

/**
 * One running batch's poll. The caller's schedule sets the pace: `waitUntilDue` holds a poll
 * back until its turn (the first one too), `nextPollIn` says when the next one is after an
 * answer; polling stops at a final status. Results can be 5,000 items: no structural sharing.
 */
export function batchQueryOptions(
  target: ApiTarget,
  batchId: string,
  schedule: { waitUntilDue: (signal: AbortSignal) => Promise<void>; nextPollIn: () => number },
) {
  // The schedule is not part of the key: it paces the query, it does not change its answer.
  return queryOptions({
    queryKey: batchKeys.detail(target, batchId),
    queryFn: async ({ signal }) => {
      await schedule.waitUntilDue(signal);
      return fetchBatch(target, batchId, signal);
    },
    refetchInterval: (query) => {
      const batch = query.state.data;
      if (batch && isFinalBatchStatus(batch.status)) return false;
      return Math.max(1_000, schedule.nextPollIn());
    },
    refetchIntervalInBackground: true,
    structuralSharing: false,
    staleTime: Infinity,
    gcTime: 30_000,
  });
}
