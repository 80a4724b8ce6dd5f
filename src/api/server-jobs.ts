// The jobs the console's server runs (/console/api/server-jobs, src/server/console/): Send hands
// one over with its rows; browsers read them back and send the user's decisions. Only where the
// console is served by its own server and /console.json says it runs jobs (runs_jobs). Not the
// service's endpoints, so the service's rate-limit budget does not pace them.
import {
  newServerJobSchema,
  serverJobAnswerSchema,
  serverJobDecisionAnswerSchema,
  serverJobListSchema,
  serverJobOutcomeSchema,
  serverJobOutcomesSchema,
  serverJobPayloadSchema,
  type NewServerJob,
  type ServerJobDecision,
} from '../contract/server-jobs';
import { HttpError } from './api-error';
import { request, requestBody, type ApiTarget, type HttpDeps, type KeptBody } from './http-client';
import { consoleInfoSchema } from '../contract/sandbox';

const BASE = '/console/api/server-jobs';
const isNotFound = (error: unknown) => error instanceof HttpError && error.status === 404;
const jobPath = (id: string) => `${BASE}/${encodeURIComponent(id)}`;

/**
 * Whether the console's server runs this connection's jobs: its own server (base URL of this
 * origin) saying runs_jobs. Rejects when the server could not say (a failed or unreadable answer):
 * a guess would send a job from the browser that its sender was told runs with the tab closed.
 */
export async function consoleRunsJobs(target: ApiTarget, signal?: AbortSignal): Promise<boolean> {
  if (target.baseUrl !== '') return false;
  const response = await fetch('/console.json', { headers: { Accept: 'application/json' }, ...(signal ? { signal } : {}) });
  if (!response.ok) throw new Error(`The console's server did not say who sends this job (/console.json answered ${response.status})`);
  const info = consoleInfoSchema.safeParse(await response.json().catch(() => null));
  if (!info.success) throw new Error("The console's server did not say who sends this job (/console.json could not be read)");
  return info.data.runs_jobs;
}

export const listServerJobs = (target: ApiTarget, signal?: AbortSignal) =>
  request(target, { path: BASE, schema: serverJobListSchema, bucket: null, ...(signal ? { signal } : {}) });

/** The job, or null when the server runs no such job for this workspace. */
export async function getServerJob(target: ApiTarget, id: string) {
  try {
    return (await request(target, { path: jobPath(id), schema: serverJobAnswerSchema, bucket: null })).job;
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
}

/**
 * Time spent writing chunks before yielding to the page's other work. By time, not by a count of
 * chunks: a chunk's size is the service's setting, and a few large ones make a long task.
 */
const MS_PER_TASK = 8;

/** Resolves in a task of its own (a message, which a hidden tab does not throttle as it does timers). */
const nextTask = () =>
  new Promise<void>((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });

/**
 * The job's JSON, written a few milliseconds a task: Send runs on the page's thread, and a
 * 100,000-row job checked and written in one go held it for ~300 ms. Each chunk becomes a Blob of
 * its own (its text encoded then, not all at the end); the body is the Blob of them all. The
 * fields are checked here; the chunks are the rows the Ready step cut, which the server checks
 * against the same schema.
 */
async function newServerJobBody(job: NewServerJob): Promise<Blob> {
  const { chunks, ...fields } = job;
  const head = JSON.stringify(newServerJobSchema.omit({ chunks: true }).parse(fields));
  const parts: Blob[] = [new Blob([`${head.slice(0, -1)},"chunks":[`])];
  let taskStart = Number.NEGATIVE_INFINITY;
  for (const [index, chunk] of chunks.entries()) {
    if (performance.now() - taskStart >= MS_PER_TASK) {
      await nextTask();
      taskStart = performance.now();
    }
    parts.push(new Blob([`${index === 0 ? '' : ','}${JSON.stringify(chunk)}`]));
  }
  parts.push(new Blob([']}']));
  return new Blob(parts, { type: 'application/json' });
}

/** Hands a job to the server; sending it again (its answer lost) answers with the job as kept. */
export async function createServerJob(target: ApiTarget, job: NewServerJob) {
  const body = await newServerJobBody(job);
  return (await request(target, { method: 'POST', path: BASE, jsonBlob: body, schema: serverJobAnswerSchema, bucket: null, retry: 'safe' })).job;
}

export function decideServerJob(target: ApiTarget, id: string, decision: ServerJobDecision) {
  return request(target, { method: 'POST', path: `${jobPath(id)}/decisions`, json: decision, schema: serverJobDecisionAnswerSchema, bucket: null });
}

export async function deleteServerJob(target: ApiTarget, id: string): Promise<void> {
  await requestBody(target, { method: 'DELETE', path: jobPath(id), bucket: null, retry: 'safe' });
}

export async function serverJobPayload(target: ApiTarget, id: string, chunkId: number) {
  try {
    return await request(target, { path: `${jobPath(id)}/payloads/${chunkId}`, schema: serverJobPayloadSchema, bucket: null });
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

export async function serverJobOutcomes(target: ApiTarget, id: string) {
  return (await request(target, { path: `${jobPath(id)}/outcomes`, schema: serverJobOutcomesSchema, bucket: null })).data;
}

export async function serverJobOutcome(target: ApiTarget, id: string, batchId: string) {
  try {
    return await request(target, { path: `${jobPath(id)}/outcomes/${encodeURIComponent(batchId)}`, schema: serverJobOutcomeSchema, bucket: null });
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

/**
 * GET …/outcomes/:batchId and …/payloads/:chunkId unparsed, or the handle of the body kept where
 * `deps` made the request (the results thread reads and holds them there, for the job's results).
 */
export function serverJobOutcomeBody(target: ApiTarget, id: string, batchId: string, signal?: AbortSignal, deps?: HttpDeps): Promise<ArrayBuffer | KeptBody> {
  return requestBody(target, { path: `${jobPath(id)}/outcomes/${encodeURIComponent(batchId)}`, bucket: null, signal }, deps);
}

export function serverJobPayloadBody(target: ApiTarget, id: string, chunkId: number, signal?: AbortSignal, deps?: HttpDeps): Promise<ArrayBuffer | KeptBody> {
  return requestBody(target, { path: `${jobPath(id)}/payloads/${chunkId}`, bucket: null, signal }, deps);
}
