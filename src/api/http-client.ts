// The one HTTP module: every request to the service goes through request(). It adds the key
// (unless the server holds it),
// paces by the shared rate-limit budget, honours Retry-After on 429, retries 5xx and network
// errors with capped exponential backoff and jitter (only where a retry cannot duplicate data),
// parses the body with the contract's zod schema, and throws the typed errors of api-error.ts.
import type { z } from 'zod';
import { parseRateLimitHeaders, parseRetryAfter } from '../contract/rate-limit';
import { HttpError, InvalidResponseError, NetworkError, NotSentError } from './api-error';
import { type BudgetBucket, type RateLimitBudget, sharedBudget, sleep } from './rate-limit-budget';

export interface ApiTarget {
  baseUrl: string;
  /** The Bearer key; empty when the server holds the key (UPSTREAM_API_KEY): no Authorization is sent. */
  apiKey: string;
}

/**
 * `safe`: retry 429, 5xx and network errors (GET, and anything idempotent).
 * `rate-limit-only`: retry only a 429, which the service did not act on; a POST whose answer was
 * lost may have been applied, so the caller decides (the submission queue marks it `unknown`).
 */
export type RetryPolicy = 'safe' | 'rate-limit-only';

export interface BodyRequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  path: string;
  query?: Record<string, string | number | undefined>;
  json?: unknown;
  /** A JSON body already written (a large one, written a part a task by its caller). */
  jsonBlob?: Blob;
  formData?: FormData;
  signal?: AbortSignal;
  /** The rate-limit bucket the request counts in; null for the console server's own endpoints, which the service's budget does not pace. */
  bucket?: BudgetBucket | null;
  retry?: RetryPolicy;
  /** Extra request headers (an import's Idempotency-Key); Authorization and Content-Type are set here. */
  headers?: Record<string, string>;
}

export interface RequestOptions<S extends z.ZodType> extends BodyRequestOptions {
  schema: S;
}

export interface HttpDeps {
  fetch: typeof fetch;
  budget: RateLimitBudget;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  random: () => number;
  now: () => number;
}

/**
 * A 2xx body kept where its request was made, named by a number: the results worker makes the
 * imports and polls (jobs/thread/results-reader.ts) and keeps their batch bodies for reading
 * there, so they never reach the page's thread. Its fetch answers with a KeptBodyResponse.
 */
export interface KeptBody {
  bodyId: number;
}

/** A 2xx answer whose body stayed where it was fetched (see KeptBody). */
export class KeptBodyResponse extends Response {
  constructor(
    readonly kept: KeptBody,
    init: ResponseInit,
  ) {
    super(null, init);
  }
}

const MAX_ATTEMPTS = 6;
const BACKOFF_BASE_MS = 500;
const BACKOFF_CAP_MS = 30_000;

const defaultDeps: HttpDeps = {
  fetch: (...args) => fetch(...args),
  budget: sharedBudget,
  sleep,
  random: Math.random,
  now: Date.now,
};

function buildUrl(baseUrl: string, path: string, query?: BodyRequestOptions['query']): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== '') params.set(key, String(value));
  }
  const search = params.size > 0 ? `?${params.toString()}` : '';
  return `${baseUrl}${path}${search}`;
}

function backoff(attempt: number, random: () => number): number {
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** attempt);
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

export async function request<S extends z.ZodType>(
  target: ApiTarget,
  options: RequestOptions<S>,
  deps: HttpDeps = defaultDeps,
): Promise<z.output<S>> {
  const text = await perform(target, options, deps, (response) => readText(response, target));
  return parseBody(options.schema, text, `${options.method ?? 'GET'} ${options.path}`);
}

/** The console's HTTP dependencies with another fetch (one that runs in a worker). */
export function httpDepsWith(fetchImpl: HttpDeps['fetch']): HttpDeps {
  return { ...defaultDeps, fetch: fetchImpl };
}

/**
 * The same request, its 2xx body handed over as bytes, unparsed, or as the handle of a body
 * kept where it was fetched: for answers a worker reads (a batch of 5,000 result items would
 * hold the page's thread while received, parsed and checked).
 */
export function requestBody(target: ApiTarget, options: BodyRequestOptions, deps: HttpDeps = defaultDeps): Promise<ArrayBuffer | KeptBody> {
  return perform(target, options, deps, async (response) => {
    if (response instanceof KeptBodyResponse) return response.kept;
    try {
      return await response.arrayBuffer();
    } catch (error) {
      throw new NetworkError(`The answer from ${describeTarget(target)} was cut off (${error instanceof Error ? error.message : 'connection dropped'}).`);
    }
  });
}

async function perform<T>(target: ApiTarget, options: BodyRequestOptions, deps: HttpDeps, readOk: (response: Response) => Promise<T>): Promise<T> {
  const { method = 'GET', bucket = 'general', retry = method === 'GET' ? 'safe' : 'rate-limit-only' } = options;
  const url = buildUrl(target.baseUrl, options.path, options.query);
  const headers: Record<string, string> = { ...options.headers, Accept: 'application/json' };
  if (target.apiKey !== '') headers.Authorization = `Bearer ${target.apiKey}`;
  let body: BodyInit | undefined;
  if (options.formData) {
    body = options.formData; // the browser sets the multipart boundary itself
  } else if (options.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.jsonBlob !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = options.jsonBlob;
  }

  for (let attempt = 0; ; attempt++) {
    if (bucket !== null) await deps.budget.acquire(bucket, options.signal);
    let response: Response;
    try {
      response = await deps.fetch(url, { method, headers, body, signal: options.signal });
    } catch (error) {
      if (options.signal?.aborted || error instanceof NotSentError) throw error;
      if (retry === 'safe' && attempt + 1 < MAX_ATTEMPTS) {
        await deps.sleep(backoff(attempt, deps.random), options.signal);
        continue;
      }
      throw new NetworkError(
        `No answer from ${describeTarget(target)} (${error instanceof Error ? error.message : 'network error'}).`,
      );
    }
    if (bucket !== null) deps.budget.record(bucket, parseRateLimitHeaders(response.headers, deps.now()));

    if (response.status === 429 && attempt + 1 < MAX_ATTEMPTS) {
      const wait = parseRetryAfter(response.headers.get('retry-after'), deps.now()) ?? backoff(attempt, deps.random);
      deps.budget.pause(wait);
      continue;
    }
    if (response.status >= 500 && retry === 'safe' && attempt + 1 < MAX_ATTEMPTS) {
      await deps.sleep(backoff(attempt, deps.random), options.signal);
      continue;
    }
    // 401 and 403 (a refused key, or no API access) are never retried: the error says so, and
    // HttpError.keyRefused tells callers to stop sending.
    if (!response.ok) throw HttpError.fromBody(response.status, response.statusText, await readText(response, target));
    return readOk(response);
  }
}

async function readText(response: Response, target: ApiTarget): Promise<string> {
  try {
    return await response.text();
  } catch (error) {
    throw new NetworkError(
      `The answer from ${describeTarget(target)} was cut off (${error instanceof Error ? error.message : 'connection dropped'}).`,
    );
  }
}

function parseBody<S extends z.ZodType>(schema: S, text: string, what: string): z.output<S> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new InvalidResponseError(`${what} answered with something that is not JSON.`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
    throw new InvalidResponseError(`${what} answered in an unexpected shape${where}: ${issue?.message ?? 'invalid'}.`);
  }
  return parsed.data;
}

function describeTarget(target: ApiTarget): string {
  return target.baseUrl === '' ? 'the service' : new URL(target.baseUrl).host;
}
