// The console server's team history (/console/api/, src/server/console/): the sending browser's
// reports, and what any browser of the workspace reads back. Only where the console is served by
// its own server (sandbox and proxy modes, base URL of this origin); a browser connected straight
// to a service on another origin has no team history. Not the service's endpoints, so the
// service's rate-limit budget does not pace them.
import { queryOptions } from '@tanstack/react-query';
import {
  teamBatchLookupSchema,
  teamJobLookupSchema,
  teamJobListSchema,
  teamJobReceiptSchema,
  teamWorkspaceSchema,
  type TeamChunkRows,
  type TeamJobReceipt,
  type TeamJobReport,
} from '../contract/team-history';
import { type ApiTarget, type HttpDeps, type KeptBody, request, requestBody } from './http-client';

/** Whether this connection reaches the console's own server, which keeps the team history. */
export function hasTeamHistory(target: ApiTarget): boolean {
  return target.baseUrl === '';
}

const teamKeys = {
  all: (target: ApiTarget) => ['team-history', target.baseUrl] as const,
  list: (target: ApiTarget, search: string) => [...teamKeys.all(target), 'list', search] as const,
  job: (target: ApiTarget, id: string) => [...teamKeys.all(target), 'job', id] as const,
  rows: (target: ApiTarget, id: string, chunkId: number) => [...teamKeys.all(target), 'rows', id, chunkId] as const,
  batch: (target: ApiTarget, batchId: string) => [...teamKeys.all(target), 'batch', batchId] as const,
};

const jobPath = (id: string) => `/console/api/jobs/${encodeURIComponent(id)}`;

export const teamJobsQuery = (target: ApiTarget, search: string) =>
  queryOptions({
    queryKey: teamKeys.list(target, search),
    queryFn: ({ signal }) => request(target, { path: '/console/api/jobs', query: { q: search }, schema: teamJobListSchema, bucket: null, signal }),
    // Colleagues' jobs move while the view is open.
    refetchInterval: 15_000,
  });

export const teamJobQuery = (target: ApiTarget, id: string) =>
  queryOptions({
    queryKey: teamKeys.job(target, id),
    queryFn: ({ signal }) => request(target, { path: jobPath(id), schema: teamJobLookupSchema, bucket: null, signal }),
    select: (lookup) => lookup.job,
    refetchInterval: (query) => (query.state.data?.job?.finished === false ? 10_000 : false),
  });

/**
 * GET /console/api/jobs/:id/chunks/:chunkId/rows: a chunk's rows as sent, unparsed, or the handle
 * of the body kept where `deps` made the request (the results thread reads and holds them there).
 */
export function teamChunkRowsBody(target: ApiTarget, id: string, chunkId: number, signal?: AbortSignal, deps?: HttpDeps): Promise<ArrayBuffer | KeptBody> {
  return requestBody(target, { path: `${jobPath(id)}/chunks/${chunkId}/rows`, bucket: null, signal }, deps);
}

/** Keys of a chunk's rows as sent, read for the batch page. */
export const teamRowsKey = (target: ApiTarget, id: string, chunkId: number) => teamKeys.rows(target, id, chunkId);

export const teamBatchOriginQuery = (target: ApiTarget, batchId: string) =>
  queryOptions({
    queryKey: teamKeys.batch(target, batchId),
    queryFn: ({ signal }) =>
      request(target, { path: `/console/api/batches/${encodeURIComponent(batchId)}`, schema: teamBatchLookupSchema, bucket: null, signal }),
    select: (lookup) => lookup.origin,
    staleTime: Infinity,
  });

/** Records the job; answers which chunks' rows as sent the history already holds. */
export function reportTeamJob(target: ApiTarget, id: string, report: TeamJobReport): Promise<TeamJobReceipt> {
  return request(target, { method: 'PUT', path: jobPath(id), json: report, schema: teamJobReceiptSchema, bucket: null, retry: 'safe' });
}

export async function keepTeamChunkRows(target: ApiTarget, id: string, chunkId: number, rows: TeamChunkRows): Promise<void> {
  await requestBody(target, { method: 'PUT', path: `${jobPath(id)}/chunks/${chunkId}/rows`, json: rows, bucket: null, retry: 'safe' });
}

/** The opaque tag of the workspace this connection speaks for (GET /console/api/workspace). */
export async function teamWorkspaceTag(target: ApiTarget): Promise<string> {
  return (await request(target, { path: '/console/api/workspace', schema: teamWorkspaceSchema, bucket: null })).tag;
}

/**
 * Which of these references and tracking numbers the workspace's jobs sent, and when (at most
 * SEEN_LOOKUP_MAX of each): the query as the import worker wrote it (a TeamSeenQuery as JSON), the
 * answer as its bytes, for the worker to read (workers/team-seen-answer.ts): the page's thread
 * never copies, writes, parses or checks the thousands of keys each way.
 */
export async function teamSeenAnswerBytes(target: ApiTarget, query: Blob, signal?: AbortSignal): Promise<ArrayBuffer> {
  const answer = await requestBody(target, { method: 'POST', path: '/console/api/seen', jsonBlob: query, bucket: null, retry: 'safe', signal });
  // A body is kept elsewhere only by a worker's fetch, which this is not.
  if (!(answer instanceof ArrayBuffer)) throw new Error('The answer about earlier imports was kept by another thread.');
  return answer;
}
