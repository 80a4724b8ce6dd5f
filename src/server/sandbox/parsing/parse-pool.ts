// Uploads are parsed off the event loop, in a pool of worker threads (SANDBOX_PARSE_WORKERS),
// each under a heap limit (resourceLimits) and a time limit per file. A file that breaks either
// costs its worker — terminated and replaced — never the server; a request whose client went
// away stops its parse the same way (DESIGN §7).
import { channel } from 'node:diagnostics_channel';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { TableLimits } from '../../../spreadsheet/table-limits';
import type { ParseAnswer, ParseRequest, WorkerMessage } from './parse-protocol';

export interface ParsePoolOptions {
  workers: number;
  /** Longest a file may take to read, once a worker has it. */
  timeoutMs: number;
  /** Heap of each worker, in MB (V8's old generation). */
  heapMb: number;
}

/** The outcome of one parse: the rows, or a status and a sentence for the client. */
export type ParseOutcome =
  | { ok: true; rows: string[][] }
  | { ok: false; status: 413 | 415 | 422; code: 'too_large' | 'unsupported_file' | 'invalid_file'; message: string }
  | { ok: false; status: 499; code: 'aborted'; message: string };

const STATUS_OF_CODE = { unsupported_file: 415, invalid_file: 422, too_large: 413 } as const;

interface Job {
  request: ParseRequest;
  resolve: (outcome: ParseOutcome) => void;
  signal: AbortSignal | undefined;
  onAbort: () => void;
  /** performance.now() when it was queued, and when a worker took it. */
  queuedAt: number;
  startedAt: number | null;
  bytes: number;
  done: boolean;
}

/** What the pool publishes on the `sandbox:parse` diagnostics channel, once per file. */
export interface ParseReport {
  bytes: number;
  /** 200 for rows read, else the status the client is answered with (499: it went away). */
  status: number;
  /** From the upload's arrival at the pool to its outcome, and of that the time in a worker. */
  ms: number;
  workerMs: number | null;
  /** The worker's memory right after the file, in MB; null if the worker was terminated (time, memory, client gone). */
  workerHeapMb: number | null;
}

/**
 * Per-file figures for tools in the same process (the hostile bench preloads a subscriber);
 * nothing is built when nobody listens.
 */
const parseChannel = channel('sandbox:parse');

/**
 * The worker runs TypeScript: tsx's loader is registered inside the thread before the entry is
 * imported, which works the same under `npm start` (tsx) and Vitest (Vite's own loader, which a
 * thread does not inherit; `execArgv: ['--import', 'tsx']` fails there on Node 20).
 */
function workerSource(): string {
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;
  const entry = new URL('./parse-worker.ts', import.meta.url).href;
  return `import(${JSON.stringify(tsx)}).then((tsx) => tsx.register()).then(() => import(${JSON.stringify(entry)}))`;
}

class PoolWorker {
  readonly thread: Worker;
  ready = false;
  job: Job | null = null;
  timer: NodeJS.Timeout | null = null;

  constructor(source: string, heapMb: number) {
    this.thread = new Worker(source, {
      eval: true,
      resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: Math.min(64, Math.max(8, heapMb / 8)) },
      stdout: false,
      stderr: false,
    });
  }
}

const sharedPools = new Map<string, ParsePool>();

/**
 * One pool per process and set of options: a worker takes a second or more to load the reader
 * through tsx, which every app built with the same settings (each test's) need not pay again.
 * It holds the process only while it has work (holdWhileBusy()), so an idle pool never keeps it
 * alive; close() frees its threads at once.
 */
export function sharedParsePool(options: ParsePoolOptions, log?: PoolLog): ParsePool {
  const key = JSON.stringify(options);
  let pool = sharedPools.get(key);
  if (!pool) {
    pool = new ParsePool(options, log);
    sharedPools.set(key, pool);
  }
  return pool;
}

interface PoolLog {
  warn: (object: object, message: string) => void;
}

export class ParsePool {
  private readonly workers: PoolWorker[] = [];
  private readonly readyWaiters: (() => void)[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closed = false;
  /** Workers terminated mid-parse (timeout, client gone); for tests and the bench. */
  private replaced = 0;
  private readonly source = workerSource();

  constructor(
    private readonly options: ParsePoolOptions,
    private readonly log: PoolLog = { warn: () => undefined },
  ) {
    for (let i = 0; i < Math.max(1, options.workers); i++) this.spawn();
  }

  /**
   * Reads one upload in a worker; never rejects. `chunks` are the file's bytes in order, each the
   * whole of its own ArrayBuffer (as the route copies them while they arrive): they are transferred,
   * not copied, and joined in the worker, off the event loop.
   */
  parse(chunks: readonly Uint8Array[], fileName: string, limits: Partial<TableLimits>, signal?: AbortSignal): Promise<ParseOutcome> {
    if (signal?.aborted) return Promise.resolve(aborted());
    // A chunk that is a view into a larger buffer (a Buffer from Node's pool) is copied, so that
    // transferring it detaches nothing else.
    const owned = chunks.map((chunk) => (chunk.byteOffset === 0 && chunk.byteLength === chunk.buffer.byteLength && chunk.buffer instanceof ArrayBuffer ? chunk.buffer : new Uint8Array(chunk).buffer));
    const bytes = owned.reduce((sum, buffer) => sum + buffer.byteLength, 0);
    return new Promise((resolve) => {
      const job: Job = {
        request: { id: this.nextId++, chunks: owned, fileName, limits },
        resolve,
        signal,
        onAbort: () => this.abort(job),
        queuedAt: performance.now(),
        startedAt: null,
        bytes,
        done: false,
      };
      signal?.addEventListener('abort', job.onAbort, { once: true });
      this.queue.push(job);
      this.dispatch();
    });
  }

  /** What the pool is doing now: files being read, files waiting, workers given up on so far. */
  stats(): { busy: number; queued: number; replaced: number } {
    return { busy: this.workers.filter((worker) => worker.job !== null).length, queued: this.queue.length, replaced: this.replaced };
  }

  /** Resolves once a worker has loaded and can take a file. */
  ready(): Promise<void> {
    if (this.workers.some((worker) => worker.ready)) return Promise.resolve();
    return new Promise((resolve) => {
      this.readyWaiters.push(resolve);
      this.holdWhileBusy();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) this.finish(job, aborted());
    await Promise.all(this.workers.splice(0).map((worker) => worker.thread.terminate()));
  }

  private spawn(): void {
    if (this.closed) return;
    const worker = new PoolWorker(this.source, this.options.heapMb);
    this.workers.push(worker);
    worker.thread.on('message', (message: WorkerMessage) => {
      if ('ready' in message) {
        worker.ready = true;
        for (const resolve of this.readyWaiters.splice(0)) resolve();
        this.dispatch();
      } else if (worker.job && message.id === worker.job.request.id) {
        this.finish(worker.job, fromAnswer(message, this.log), message.heapMb);
        this.release(worker);
      }
    });
    worker.thread.on('error', (error: Error & { code?: string }) => {
      const job = worker.job;
      if (!job) return;
      const outOfMemory = error.code === 'ERR_WORKER_OUT_OF_MEMORY';
      if (!outOfMemory) this.log.warn({ err: error }, 'parse worker failed');
      this.finish(
        job,
        outOfMemory
          ? { ok: false, status: 413, code: 'too_large', message: `The file needs more than ${this.options.heapMb} MB of memory to read, the most one upload may use.` }
          : { ok: false, status: 422, code: 'invalid_file', message: 'The file could not be read as CSV, XLS or XLSX.' },
      );
    });
    worker.thread.on('exit', () => {
      this.remove(worker);
      this.spawn();
    });
    // After the listeners, not before: adding a 'message' listener refs the worker's port again
    // (an unref() in the constructor kept every process that had built an app alive).
    this.holdWhileBusy();
  }

  /**
   * Refs the workers while the pool has work — a file queued or being read, a caller waiting for
   * ready() — and unrefs them when it is idle: a script that built an app exits once its own work
   * is done, yet never in the middle of a parse whose answer it awaits.
   */
  private holdWhileBusy(): void {
    const busy = this.queue.length > 0 || this.readyWaiters.length > 0 || this.workers.some((worker) => worker.job !== null);
    for (const worker of this.workers) {
      if (busy) worker.thread.ref();
      else worker.thread.unref();
    }
  }

  private dispatch(): void {
    for (const worker of this.workers) {
      if (!worker.ready || worker.job) continue;
      const job = this.queue.shift();
      if (!job) break;
      worker.job = job;
      job.startedAt = performance.now();
      worker.timer = setTimeout(() => {
        this.finish(job, {
          ok: false,
          status: 422,
          code: 'invalid_file',
          message: `The file took longer than ${formatSeconds(this.options.timeoutMs)} to read, the most one upload may take; it is refused as too complex.`,
        });
        this.replace(worker);
      }, this.options.timeoutMs);
      worker.thread.postMessage(job.request, job.request.chunks);
    }
    this.holdWhileBusy();
  }

  private abort(job: Job): void {
    const queued = this.queue.indexOf(job);
    if (queued >= 0) this.queue.splice(queued, 1);
    const worker = this.workers.find((candidate) => candidate.job === job);
    this.finish(job, aborted());
    if (worker) this.replace(worker);
    this.holdWhileBusy();
  }

  /** Gives up on a worker mid-parse: it is terminated, and its exit spawns the next one. */
  private replace(worker: PoolWorker): void {
    this.replaced++;
    this.clear(worker);
    worker.ready = false;
    void worker.thread.terminate();
  }

  private release(worker: PoolWorker): void {
    this.clear(worker);
    this.dispatch();
  }

  private clear(worker: PoolWorker): void {
    if (worker.timer) clearTimeout(worker.timer);
    worker.timer = null;
    worker.job = null;
  }

  private remove(worker: PoolWorker): void {
    const job = worker.job;
    this.clear(worker);
    if (job) this.finish(job, { ok: false, status: 422, code: 'invalid_file', message: 'The file could not be read as CSV, XLS or XLSX.' });
    const index = this.workers.indexOf(worker);
    if (index >= 0) this.workers.splice(index, 1);
  }

  private finish(job: Job, outcome: ParseOutcome, workerHeapMb: number | null = null): void {
    if (job.done) return; // a second call (a late answer after a timeout) changes nothing
    job.done = true;
    job.signal?.removeEventListener('abort', job.onAbort);
    job.resolve(outcome);
    if (parseChannel.hasSubscribers) {
      const now = performance.now();
      parseChannel.publish({
        bytes: job.bytes,
        status: outcome.ok ? 200 : outcome.status,
        ms: now - job.queuedAt,
        workerMs: job.startedAt === null ? null : now - job.startedAt,
        workerHeapMb,
      } satisfies ParseReport);
    }
  }
}

function fromAnswer(answer: ParseAnswer, log: PoolLog): ParseOutcome {
  if (answer.ok) return { ok: true, rows: answer.rows };
  if (answer.detail) log.warn({ detail: answer.detail }, 'file import: reader failed');
  return { ok: false, status: STATUS_OF_CODE[answer.code], code: answer.code, message: answer.message };
}

function aborted(): ParseOutcome {
  return { ok: false, status: 499, code: 'aborted', message: 'The client went away before the file was read.' };
}

function formatSeconds(ms: number): string {
  const seconds = ms / 1000;
  return `${seconds.toLocaleString('en-US')} second${seconds === 1 ? '' : 's'}`;
}
