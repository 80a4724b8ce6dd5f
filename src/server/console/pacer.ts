// One rate-limit budget per workspace (DESIGN §5): every request the console's server sends to the
// service on a workspace's behalf asks this pacer for a slot first. It learns each bucket from the
// service's X-RateLimit-* answers (and from limits the sandbox advertises), holds a request while
// its bucket is used up instead of letting the service answer 429, shares each bucket between jobs
// round robin (the job served least recently goes next), and keeps what a person waits for (a page
// of shipments, a PATCH, anything that names no job) ahead of every job, with a reserve of the
// all-endpoints bucket that jobs may not spend. A 429 that comes anyway holds the bucket it speaks
// of for its Retry-After (the all-endpoints one holds the whole workspace). Queues are bounded: a
// request that would wait too long, or find the queue full, is refused at once with the time to
// try again (PacerRefusal); jobs' requests never fill the part of the queue kept for people.
import { parseRateLimitHeaders, parseRetryAfter } from '../../contract/rate-limit';
import type { PACER_BUCKETS, PacingView } from '../../contract/pacing';

/** The service's buckets: every endpoint's (hourly and daily), and each import and PATCH endpoint's own. */
export type PacerBucket = (typeof PACER_BUCKETS)[number];

export interface PacedRequest {
  method: string;
  /** The path under the service's base (a query may follow), e.g. `/api/v1/shipments/imports/file`. */
  path: string;
  /** The job the request works for (an import's or a poll's); null for what a person is waiting for. */
  jobId: string | null;
}

export interface HeaderSource {
  get(name: string): string | null;
}

/** The service's answer to a paced request: its status and headers. */
export interface PacedAnswer {
  status: number;
  headers: HeaderSource;
}

export interface Slot {
  readonly bucket: PacerBucket;
  /** Milliseconds from schedule() to the slot. */
  readonly waitedMs: number;
  /** Whether it waited for the budget (or a 429's pause); false when it went as soon as asked. */
  readonly held: boolean;
  /** Reports the service's answer (null: none came, e.g. the connection failed). Called once; later calls are ignored. */
  done(answer: PacedAnswer | null): void;
}

/** A request the pacer will not send: its queue is full, or its bucket will not open within the longest wait. */
export class PacerRefusal extends Error {
  constructor(
    message: string,
    readonly retryAfterMs: number,
  ) {
    super(message);
    this.name = 'PacerRefusal';
  }
}

export interface PacerClock {
  now(): number;
  /** Calls `run` after `ms`; returns the cancel. */
  setTimer(run: () => void, ms: number): () => void;
}

export const systemClock: PacerClock = {
  now: Date.now,
  setTimer: (run, ms) => {
    const timer = setTimeout(run, ms);
    timer.unref();
    return () => clearTimeout(timer);
  },
};

export interface AdvertisedLimit {
  limit: number;
}

export interface PacerOptions {
  clock?: PacerClock;
  /** Limits known before any answer (the sandbox's settings); other buckets are learned by probing one request at a time. */
  advertised?: Partial<Record<PacerBucket, AdvertisedLimit>>;
  /** Requests one workspace may have waiting; beyond, refused. Jobs' requests may fill all but a fifth (people's part). */
  maxQueued?: number;
  /** The longest a request is held; one that would wait longer is refused with Retry-After. */
  maxWaitMs?: number;
}

export const PACER_DEFAULTS = { maxQueued: 500, maxWaitMs: 90_000 } as const;
/** After a window's announced reset, a margin for the service's clock and rounding before it is counted as open. */
export const RESET_MARGIN_MS = 200;
/**
 * A job counts as sending while it has imports waiting or in flight, or sent one this recently and
 * has chunks left to send; as waiting for results while it polled this recently.
 */
export const SENDING_WINDOW_MS = 30_000;

/**
 * Where a job stands, as the team history knows it: chunks left to send, every chunk sent (its
 * results awaited), or finished (or cancelled); null when the history does not hold it.
 */
export type JobProgress = (jobId: string) => 'sending' | 'sent' | 'finished' | null;
/** The share of the all-endpoints bucket that jobs leave for people (at least one request). */
const PERSON_RESERVE_SHARE = 0.05;
/** The share of the queue (maxQueued) that jobs' requests may not fill: people's part (at least one place). */
const PEOPLE_QUEUE_SHARE = 0.2;
const peopleQueueReserve = (maxQueued: number) => Math.min(maxQueued, Math.max(1, Math.ceil(maxQueued * PEOPLE_QUEUE_SHARE)));
const MAX_WORKSPACES = 1_000;

const IMPORT_BUCKETS = ['import_file', 'import_list'] as const;
const isImport = (bucket: PacerBucket) => bucket === 'import_file' || bucket === 'import_list';
/** The most job ids the pacing view lists (its schema's bound). */
const MAX_JOBS_SHOWN = 1_000;

/** The service's bucket a request counts in, besides the all-endpoints one. */
export function bucketOf(method: string, path: string): PacerBucket {
  const route = (path.split('?')[0] ?? '').replace(/\/+$/, '');
  const verb = method.toUpperCase();
  if (verb === 'POST' && route === '/api/v1/shipments/imports') return 'import_list';
  if (verb === 'POST' && route === '/api/v1/shipments/imports/file') return 'import_file';
  if (verb === 'PATCH' && route.startsWith('/api/v1/shipments/id/')) return 'patch_id';
  if (verb === 'PATCH' && route.startsWith('/api/v1/shipments/reference/')) return 'patch_reference';
  return 'general';
}

interface BucketState {
  limit: number;
  remaining: number;
  /** Epoch ms the window resets; null until an answer says. */
  resetAt: number | null;
}

interface Entry {
  seq: number;
  bucket: PacerBucket;
  jobId: string | null;
  queuedAt: number;
  resolve: (slot: Slot) => void;
  reject: (error: unknown) => void;
  unlisten: () => void;
}

/** The pacer of every workspace this server sends for. */
export class Pacer {
  private readonly workspaces = new Map<string, WorkspacePacer>();
  private readonly clock: PacerClock;

  constructor(private readonly options: PacerOptions = {}) {
    this.clock = options.clock ?? systemClock;
  }

  /** Resolves with a slot when `request` may go to the service; rejects with PacerRefusal, or the signal's reason. */
  schedule(workspace: string, request: PacedRequest, signal?: AbortSignal): Promise<Slot> {
    return this.of(workspace).schedule(request, signal);
  }

  /** What the workspace's pacer is doing, for the browsers' rate-limit meter; `progress` tells which jobs still have chunks to send. */
  view(workspace: string, progress: JobProgress = () => null): PacingView {
    return this.workspaces.get(workspace)?.view(progress) ?? emptyView();
  }

  private of(workspace: string): WorkspacePacer {
    let pacer = this.workspaces.get(workspace);
    if (pacer) {
      // Most recently used last, so the eviction below takes the longest unused first.
      this.workspaces.delete(workspace);
      this.workspaces.set(workspace, pacer);
      return pacer;
    }
    if (this.workspaces.size >= MAX_WORKSPACES) {
      for (const [name, idle] of this.workspaces) {
        if (this.workspaces.size < MAX_WORKSPACES) break;
        if (idle.isIdle()) this.workspaces.delete(name);
      }
    }
    pacer = new WorkspacePacer(this.clock, {
      advertised: this.options.advertised ?? {},
      maxQueued: this.options.maxQueued ?? PACER_DEFAULTS.maxQueued,
      maxWaitMs: this.options.maxWaitMs ?? PACER_DEFAULTS.maxWaitMs,
    });
    this.workspaces.set(workspace, pacer);
    return pacer;
  }
}

/** A pacer's refusal in the service's error shape (DESIGN §3), the body of its 429. */
export function refusalBody(refusal: PacerRefusal) {
  return { errors: [{ code: 'rate_limited', message: refusal.message, target: null }] };
}

export function retryAfterSeconds(refusal: PacerRefusal): number {
  return Math.max(1, Math.ceil(refusal.retryAfterMs / 1000));
}

/** A workspace nothing is paced for (or a server with no pacer): nothing sending, nothing waiting. */
export function emptyView(): PacingView {
  return { jobsSending: [], jobsWaitingForResults: [], queued: { imports: 0, polls: 0, people: 0 }, inFlight: 0, nextImportSlotInMs: 0, pausedForMs: 0, buckets: [] };
}

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/** Remembers when a job was last seen (most recent last), forgetting jobs quiet for longer than the window. */
function noteSeen(seen: Map<string, number>, jobId: string, now: number): void {
  seen.delete(jobId);
  seen.set(jobId, now);
  forgetQuiet(seen, now);
}

function forgetQuiet(seen: Map<string, number>, now: number): void {
  for (const [jobId, at] of seen) {
    if (now - at <= SENDING_WINDOW_MS) break;
    seen.delete(jobId);
  }
}

class WorkspacePacer {
  private readonly states = new Map<PacerBucket, BucketState>();
  private readonly inFlight = new Map<PacerBucket, number>();
  private readonly queue: Entry[] = [];
  /** Per bucket and job, the dispatch count when it was last served: the round robin's order. */
  private readonly lastServed = new Map<string, number>();
  /** Jobs' last import and last poll, oldest first, for "jobs sending" and "waiting for results". */
  private readonly lastImport = new Map<string, number>();
  private readonly lastPoll = new Map<string, number>();
  /** Jobs' imports sent and not yet answered. */
  private readonly importsInFlight = new Map<string, number>();
  /** Route buckets nothing is known of whose accepted answers said nothing of them: metered by 429s alone, not probed. */
  private readonly unmetered = new Set<PacerBucket>();
  /** Per bucket, until when a 429 holds it; the all-endpoints bucket's pause holds every request. */
  private readonly pausedUntil = new Map<PacerBucket, number>();
  private dispatched = 0;
  private seq = 0;
  /** The request schedule() is adding: one dispatched then was not held. */
  private asking: Entry | null = null;
  private cancelTimer: (() => void) | null = null;
  private timerAt = Infinity;

  constructor(
    private readonly clock: PacerClock,
    private readonly settings: { advertised: Partial<Record<PacerBucket, AdvertisedLimit>>; maxQueued: number; maxWaitMs: number },
  ) {
    for (const [bucket, advertised] of Object.entries(settings.advertised) as [PacerBucket, AdvertisedLimit][]) {
      this.states.set(bucket, { limit: advertised.limit, remaining: advertised.limit, resetAt: null });
    }
  }

  isIdle(): boolean {
    return this.queue.length === 0 && [...this.inFlight.values()].every((n) => n === 0);
  }

  schedule(request: PacedRequest, signal?: AbortSignal): Promise<Slot> {
    const now = this.clock.now();
    const bucket = bucketOf(request.method, request.path);
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    const full = this.admit(request.jobId, bucket, now);
    if (full) return Promise.reject(full);
    const opensIn = this.openAt(bucket, now) - now;
    if (opensIn > this.settings.maxWaitMs) {
      return Promise.reject(
        new PacerRefusal(
          `The service's rate limit for these requests reopens in ${seconds(opensIn)} seconds, longer than the console's server holds a request; this one was not sent. Try again then.`,
          opensIn,
        ),
      );
    }
    if (request.jobId !== null) noteSeen(isImport(bucket) ? this.lastImport : this.lastPoll, request.jobId, now);
    return new Promise<Slot>((resolve, reject) => {
      const entry: Entry = { seq: this.seq++, bucket, jobId: request.jobId, queuedAt: now, resolve, reject, unlisten: () => undefined };
      if (signal) {
        const abort = () => {
          const at = this.queue.indexOf(entry);
          if (at < 0) return;
          this.queue.splice(at, 1);
          reject(signal.reason as Error);
          this.pump();
        };
        signal.addEventListener('abort', abort, { once: true });
        entry.unlisten = () => signal.removeEventListener('abort', abort);
      }
      this.queue.push(entry);
      this.asking = entry;
      try {
        this.pump();
      } finally {
        this.asking = null;
      }
    });
  }

  /**
   * Whether the queue has room for one more request: null when it has (after taking the place of
   * another job's newest request where that is fair), else the refusal. People's requests may
   * fill the whole queue; jobs' requests only what people's part leaves. In a full jobs' part, a
   * job with fewer requests waiting than another by two or more takes that job's newest place.
   */
  private admit(jobId: string | null, bucket: PacerBucket, now: number): PacerRefusal | null {
    const retry = () => Math.max(1000, this.openAt(bucket, now) - now);
    if (this.queue.length >= this.settings.maxQueued) {
      // A person's request that can go now is dispatched at once: it takes no place in the queue.
      if (jobId === null && this.settings.maxQueued > 0 && this.canGo(bucket, false, now)) return null;
      return new PacerRefusal(
        `The console's server already holds ${this.queue.length} requests of this workspace for the service's rate limit, the most it keeps waiting; this one was not sent. Try again in ${seconds(retry())} seconds.`,
        retry(),
      );
    }
    if (jobId === null) return null;
    const jobsPart = this.settings.maxQueued - peopleQueueReserve(this.settings.maxQueued);
    let jobsQueued = 0;
    for (const entry of this.queue) if (entry.jobId !== null) jobsQueued++;
    if (jobsQueued < jobsPart) return null;
    const held = new Map<string, number>();
    for (const entry of this.queue) if (entry.jobId !== null) held.set(entry.jobId, (held.get(entry.jobId) ?? 0) + 1);
    const mine = held.get(jobId) ?? 0;
    let most: string | null = null;
    for (const [job, count] of held) if (count > (most === null ? 0 : held.get(most)!)) most = job;
    if (most !== null && held.get(most)! >= mine + 2) {
      this.giveUpPlace(most, now);
      return null;
    }
    return new PacerRefusal(
      `The console's server already holds ${jobsQueued} requests of this workspace's jobs for the service's rate limit, the most it keeps waiting for jobs (the rest is kept for people); this one was not sent. Try again in ${seconds(retry())} seconds.`,
      retry(),
    );
  }

  /** Refuses the newest waiting request of `jobId`, to give its place to another job's. */
  private giveUpPlace(jobId: string, now: number): void {
    let at = this.queue.length - 1;
    while (this.queue[at]!.jobId !== jobId) at--;
    const [entry] = this.queue.splice(at, 1);
    entry!.unlisten();
    const waitMs = Math.max(1000, this.openAt(entry!.bucket, now) - now);
    entry!.reject(
      new PacerRefusal(
        `This request waited at the console's server for the service's rate limit and gave its place to another job's, as the queue kept for jobs is full; it was not sent. Try again in ${seconds(waitMs)} seconds.`,
        waitMs,
      ),
    );
  }

  view(askProgress: JobProgress): PacingView {
    const now = this.clock.now();
    const known = new Map<string, ReturnType<JobProgress>>();
    const progress = (jobId: string) => {
      if (!known.has(jobId)) known.set(jobId, askProgress(jobId));
      return known.get(jobId)!;
    };
    const importing = new Set<string>(this.importsInFlight.keys());
    for (const entry of this.queue) if (entry.jobId !== null && isImport(entry.bucket)) importing.add(entry.jobId);
    forgetQuiet(this.lastImport, now);
    forgetQuiet(this.lastPoll, now);
    const sending = new Set<string>();
    const waiting = new Set<string>();
    for (const jobId of new Set([...importing, ...this.lastImport.keys()])) {
      // An import waiting or under way is sending whatever the history says (a resend, a split chunk).
      const stands = importing.has(jobId) ? 'sending' : progress(jobId);
      if (stands === 'sent') waiting.add(jobId);
      else if (stands !== 'finished') sending.add(jobId);
    }
    for (const jobId of this.lastPoll.keys()) if (!sending.has(jobId) && progress(jobId) !== 'finished') waiting.add(jobId);
    const queued = { imports: 0, polls: 0, people: 0 };
    for (const entry of this.queue) {
      if (isImport(entry.bucket)) queued.imports++;
      else if (entry.jobId !== null) queued.polls++;
      else queued.people++;
    }
    const importBuckets = IMPORT_BUCKETS.filter((bucket) => this.queue.some((entry) => entry.bucket === bucket));
    const nextImportAt = Math.min(...(importBuckets.length > 0 ? importBuckets : ['import_file' as const]).map((bucket) => this.openAt(bucket, now)));
    return {
      jobsSending: [...sending].sort().slice(0, MAX_JOBS_SHOWN),
      jobsWaitingForResults: [...waiting].sort().slice(0, MAX_JOBS_SHOWN),
      queued,
      // Every request counts in the all-endpoints bucket too.
      inFlight: this.inFlight.get('general') ?? 0,
      nextImportSlotInMs: Math.max(0, nextImportAt - now),
      pausedForMs: Math.max(0, ...[...this.pausedUntil.values()].map((until) => until - now)),
      buckets: [...this.states.entries()].map(([name, state]) => ({ name, limit: state.limit, remaining: Math.max(0, state.remaining), resetAt: state.resetAt })),
    };
  }

  /** The bucket's state now: a window whose reset (plus the margin) has passed is open again, less what is in flight. */
  private state(bucket: PacerBucket, now: number): BucketState | null {
    const state = this.states.get(bucket);
    if (!state) return null;
    if (state.resetAt !== null && now >= state.resetAt + RESET_MARGIN_MS) {
      const open = { limit: state.limit, remaining: state.limit - (this.inFlight.get(bucket) ?? 0), resetAt: null };
      this.states.set(bucket, open);
      return open;
    }
    return state;
  }

  /** When a request of `bucket` could go (now when it can), ignoring the queue ahead of it. */
  private openAt(bucket: PacerBucket, now: number): number {
    let at = Math.max(now, this.pausedTill(bucket));
    for (const name of bucket === 'general' ? (['general'] as const) : (['general', bucket] as const)) {
      const state = this.state(name, now);
      if (state && state.remaining <= 0 && state.resetAt !== null) at = Math.max(at, state.resetAt + RESET_MARGIN_MS);
    }
    return at;
  }

  private canGo(bucket: PacerBucket, forJob: boolean, now: number): boolean {
    if (now < this.pausedTill(bucket)) return false;
    for (const name of bucket === 'general' ? (['general'] as const) : (['general', bucket] as const)) {
      const state = this.state(name, now);
      if (!state) {
        // Nothing known yet: a route's bucket is probed one request at a time (its answer tells
        // the limit), unless accepted answers said nothing of it; the all-endpoints one is large.
        if (name !== 'general' && !this.unmetered.has(name) && (this.inFlight.get(name) ?? 0) > 0) return false;
        continue;
      }
      if (state.remaining <= this.reserve(name, forJob, state)) {
        // With no reset known and nothing in flight nothing would reopen it: one request finds out.
        if (state.resetAt === null && (this.inFlight.get(name) ?? 0) === 0) continue;
        return false;
      }
    }
    return true;
  }

  /** What jobs leave of the all-endpoints bucket for people. */
  private reserve(bucket: PacerBucket, forJob: boolean, state: BucketState): number {
    return forJob && bucket === 'general' ? Math.max(1, Math.ceil(state.limit * PERSON_RESERVE_SHARE)) : 0;
  }

  /** When the clock alone may let a held request of `bucket` go (a pause ends, a window reopens); Infinity when only an answer can. */
  private wakeAt(bucket: PacerBucket, forJob: boolean, now: number): number {
    const paused = this.pausedTill(bucket);
    if (now < paused) return paused;
    let at = Infinity;
    for (const name of bucket === 'general' ? (['general'] as const) : (['general', bucket] as const)) {
      const state = this.state(name, now);
      if (state && state.resetAt !== null && state.remaining <= this.reserve(name, forJob, state)) at = Math.min(at, state.resetAt + RESET_MARGIN_MS);
    }
    return at;
  }

  private pump(): void {
    const now = this.clock.now();
    this.expire(now);
    for (;;) {
      const next = this.pick(now);
      if (!next) break;
      this.queue.splice(this.queue.indexOf(next), 1);
      this.dispatch(next, now);
    }
    this.arm(now);
  }

  /** People first, oldest first; then jobs round robin per bucket: the job served least recently, its oldest request. */
  private pick(now: number): Entry | null {
    const open = new Map<string, boolean>();
    let best: Entry | null = null;
    let bestRank: [number, number, number] = [Infinity, Infinity, Infinity];
    for (const entry of this.queue) {
      const forJob = entry.jobId !== null;
      const key = `${entry.bucket}:${forJob}`;
      let go = open.get(key);
      if (go === undefined) {
        go = this.canGo(entry.bucket, forJob, now);
        open.set(key, go);
      }
      if (!go) continue;
      const rank: [number, number, number] = forJob ? [1, this.lastServed.get(`${entry.bucket}\n${entry.jobId}`) ?? -1, entry.seq] : [0, 0, entry.seq];
      if (rank[0] < bestRank[0] || (rank[0] === bestRank[0] && (rank[1] < bestRank[1] || (rank[1] === bestRank[1] && rank[2] < bestRank[2])))) {
        best = entry;
        bestRank = rank;
      }
    }
    return best;
  }

  private dispatch(entry: Entry, now: number): void {
    entry.unlisten();
    const buckets = entry.bucket === 'general' ? (['general'] as const) : (['general', entry.bucket] as const);
    for (const name of buckets) {
      this.inFlight.set(name, (this.inFlight.get(name) ?? 0) + 1);
      const state = this.states.get(name);
      if (state) state.remaining -= 1;
    }
    this.dispatched++;
    if (entry.jobId !== null) {
      this.lastServed.set(`${entry.bucket}\n${entry.jobId}`, this.dispatched);
      if (isImport(entry.bucket)) {
        noteSeen(this.lastImport, entry.jobId, now);
        this.importsInFlight.set(entry.jobId, (this.importsInFlight.get(entry.jobId) ?? 0) + 1);
      }
      if (this.lastServed.size > 10_000) this.lastServed.clear();
    }
    let finished = false;
    entry.resolve({
      bucket: entry.bucket,
      waitedMs: now - entry.queuedAt,
      held: entry !== this.asking,
      done: (answer) => {
        if (finished) return;
        finished = true;
        for (const name of buckets) this.inFlight.set(name, Math.max(0, (this.inFlight.get(name) ?? 0) - 1));
        if (entry.jobId !== null && isImport(entry.bucket)) {
          const left = (this.importsInFlight.get(entry.jobId) ?? 1) - 1;
          if (left > 0) this.importsInFlight.set(entry.jobId, left);
          else this.importsInFlight.delete(entry.jobId);
        }
        if (answer) this.learn(entry.bucket, answer);
        this.pump();
      },
    });
  }

  /** Until when a request of `bucket` is held by a 429: its own bucket's pause, or the all-endpoints one's. */
  private pausedTill(bucket: PacerBucket): number {
    const general = this.pausedUntil.get('general') ?? 0;
    return bucket === 'general' ? general : Math.max(general, this.pausedUntil.get(bucket) ?? 0);
  }

  /**
   * What an answer says of a bucket; a 429 holds that bucket for its Retry-After. The service
   * sends the headers of its most constrained bucket: an answer to an import whose limit is the
   * all-endpoints bucket's (and not the import bucket's) speaks of the all-endpoints bucket.
   */
  private learn(requestBucket: PacerBucket, answer: PacedAnswer): void {
    const now = this.clock.now();
    const told = parseRateLimitHeaders(answer.headers, now);
    const generalLimit = this.states.get('general')?.limit;
    const bucket: PacerBucket =
      requestBucket !== 'general' && told !== null && told.limit === generalLimit && this.states.get(requestBucket)?.limit !== told.limit ? 'general' : requestBucket;
    // An accepted answer that says nothing of its route's own bucket (no headers, or the more
    // constrained all-endpoints bucket's): probing it one request at a time would learn nothing.
    const accepted = answer.status >= 200 && answer.status < 300;
    if (accepted && requestBucket !== 'general' && (told === null || bucket !== requestBucket)) this.unmetered.add(requestBucket);
    if (told) {
      const known = this.states.get(bucket);
      // Requests still in flight may not be counted in this answer yet: count them as spent.
      const remaining = told.remaining - (this.inFlight.get(bucket) ?? 0);
      const sameWindow = known?.resetAt != null && told.resetAt !== null && Math.abs(told.resetAt - known.resetAt) < 1000;
      const olderWindow = known?.resetAt != null && told.resetAt !== null && told.resetAt < known.resetAt - 1000;
      if (sameWindow) this.states.set(bucket, { limit: told.limit, remaining: Math.min(known.remaining, remaining), resetAt: Math.max(known.resetAt!, told.resetAt!) });
      else if (!olderWindow) this.states.set(bucket, { limit: told.limit, remaining, resetAt: told.resetAt });
    }
    if (answer.status === 429) {
      const waitMs = parseRetryAfter(answer.headers.get('retry-after'), now) ?? (told?.resetAt != null ? Math.max(0, told.resetAt - now) : 1000);
      // A 429 pauses its bucket for its Retry-After, no longer: the next answer says what is left.
      // An import bucket's pause leaves people's pages and PATCHes (other buckets) going.
      this.pausedUntil.set(bucket, Math.max(this.pausedUntil.get(bucket) ?? 0, now + waitMs));
    }
  }

  /** Refuses what has waited the longest the pacer holds a request. */
  private expire(now: number): void {
    for (let at = this.queue.length - 1; at >= 0; at--) {
      const entry = this.queue[at]!;
      if (now - entry.queuedAt < this.settings.maxWaitMs) continue;
      this.queue.splice(at, 1);
      entry.unlisten();
      const waitMs = Math.max(1000, this.openAt(entry.bucket, now) - now);
      entry.reject(
        new PacerRefusal(
          `This request waited ${seconds(now - entry.queuedAt)} seconds at the console's server for the service's rate limit, the longest it is held; it was not sent. Try again in ${seconds(waitMs)} seconds.`,
          waitMs,
        ),
      );
    }
  }

  /** Wakes the pump when a window reopens, a pause ends or a request has waited too long. */
  private arm(now: number): void {
    let wake = Infinity;
    for (const entry of this.queue) {
      wake = Math.min(wake, entry.queuedAt + this.settings.maxWaitMs, this.wakeAt(entry.bucket, entry.jobId !== null, now));
    }
    if (wake === this.timerAt) return;
    this.cancelTimer?.();
    this.cancelTimer = null;
    this.timerAt = wake;
    if (wake === Infinity) return;
    this.cancelTimer = this.clock.setTimer(() => {
      this.cancelTimer = null;
      this.timerAt = Infinity;
      this.pump();
    }, Math.max(1, wake - now));
  }
}
