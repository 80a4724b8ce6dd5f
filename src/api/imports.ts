// The import endpoints (spec §2): the CSV file import, the JSON list import, and reading a batch
// back with its queryOptions for polling. Imports are POSTs: they retry only a 429 (the service
// did nothing), so a lost answer reaches the caller, who decides (the job marks the chunk unknown).
// Any 2xx is handed on (the spec shows 202; 200 and 201 work too). A batch carries one result
// item per row (up to 5,000), so these hand over the body unparsed, or its handle where the
// results worker made the request (KeptBody): the job runner has it read and checked against the
// contract's batch schema in that worker (jobs/thread/results-worker.ts).
import { queryOptions } from '@tanstack/react-query';
import { isFinalBatchStatus } from '../contract/batch';
import { IDEMPOTENCY_KEY_HEADER } from '../contract/idempotency';
import { CONSOLE_JOB_HEADER } from '../contract/pacing';
import { type ApiTarget, type HttpDeps, type KeptBody, requestBody } from './http-client';

/**
 * An import's Idempotency-Key: the same key for the same rows, so a repeated request (a resend
 * below fetch, or the user's Resend) answers with the first batch where the service honours it.
 */
function keyHeader(idempotencyKey: string | undefined): Record<string, string> | undefined {
  return idempotencyKey === undefined ? undefined : { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey };
}

/** POST /api/v1/shipments/imports/file with one part `file`: the CSV text as sent. */
export function importFile(
  target: ApiTarget,
  csv: string,
  fileName: string,
  signal?: AbortSignal,
  deps?: HttpDeps,
  idempotencyKey?: string,
): Promise<ArrayBuffer | KeptBody> {
  const formData = new FormData();
  formData.append('file', new Blob([csv], { type: 'text/csv' }), fileName);
  return requestBody(target, {
    method: 'POST',
    path: '/api/v1/shipments/imports/file',
    formData,
    bucket: 'import',
    retry: 'rate-limit-only',
    headers: keyHeader(idempotencyKey),
    signal,
  }, deps);
}

/** POST /api/v1/shipments/imports with a JSON list of shipment requests. */
export function importList(
  target: ApiTarget,
  requests: readonly Record<string, unknown>[],
  signal?: AbortSignal,
  deps?: HttpDeps,
  idempotencyKey?: string,
): Promise<ArrayBuffer | KeptBody> {
  return requestBody(target, {
    method: 'POST',
    path: '/api/v1/shipments/imports',
    json: requests,
    bucket: 'import',
    retry: 'rate-limit-only',
    headers: keyHeader(idempotencyKey),
    signal,
  }, deps);
}

/**
 * The same import with its body left to `deps.fetch`, which builds it where the request is made
 * (the results thread reads the chunk's rows from the job store itself, so they never cross the
 * page's thread): a POST to the CSV file import or the JSON list import, paced and retried here.
 */
export function importReadByFetch(
  target: ApiTarget,
  endpoint: 'file' | 'list',
  signal: AbortSignal | undefined,
  deps: HttpDeps,
  idempotencyKey?: string,
): Promise<ArrayBuffer | KeptBody> {
  return requestBody(target, {
    method: 'POST',
    path: endpoint === 'file' ? '/api/v1/shipments/imports/file' : '/api/v1/shipments/imports',
    bucket: 'import',
    retry: 'rate-limit-only',
    headers: keyHeader(idempotencyKey),
    signal,
  }, deps);
}

/** Keys of batch queries, scoped to the connection by its base URL only (never the API key). */
export const batchKeys = {
  all: (target: ApiTarget) => ['batches', target.baseUrl] as const,
  detail: (target: ApiTarget, batchId: string) => [...batchKeys.all(target), batchId] as const,
  /** The batch as the batch page shows it (the runner's polls keep a digest under `detail`). */
  view: (target: ApiTarget, batchId: string) => [...batchKeys.detail(target, batchId), 'view'] as const,
};

/**
 * GET /api/v1/shipments/imports/{id}: the batch's body, unparsed (see above). `jobId`, the job
 * polling it, is named to the console's own server (its pacer shares the budget between jobs);
 * a service on another origin gets no extra header, which would need its CORS consent.
 */
export function fetchBatchBody(target: ApiTarget, batchId: string, signal?: AbortSignal, deps?: HttpDeps, jobId?: string): Promise<ArrayBuffer | KeptBody> {
  const headers = jobId !== undefined && target.baseUrl === '' ? { [CONSOLE_JOB_HEADER]: jobId } : undefined;
  return requestBody(target, { path: `/api/v1/shipments/imports/${encodeURIComponent(batchId)}`, headers, signal }, deps);
}

/**
 * One running batch's poll. The caller's schedule sets the pace: `waitUntilDue` holds a poll
 * back until its turn (the first one too), `nextPollIn` says when the next one is after an
 * answer; `read` turns the body into what the query keeps (the runner's digest, with the
 * batch's `status`); polling stops at a final status. No structural sharing: the data is new
 * with every answer, and a final one holds every item. `deps`: where the request is made.
 */
export function batchQueryOptions<T extends { status: string }>(
  target: ApiTarget,
  batchId: string,
  schedule: { waitUntilDue: (signal: AbortSignal) => Promise<void>; nextPollIn: () => number },
  read: (body: ArrayBuffer | KeptBody) => Promise<T>,
  deps?: HttpDeps,
  jobId?: string,
) {
  // The schedule, reader and deps are not part of the key: they pace, read and carry the query, not change its answer.
  // eslint-disable-next-line @tanstack/query/exhaustive-deps
  return queryOptions({
    queryKey: batchKeys.detail(target, batchId),
    queryFn: async ({ signal }) => {
      await schedule.waitUntilDue(signal);
      return read(await fetchBatchBody(target, batchId, signal, deps, jobId));
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
