// The page's side of a Web Worker whose protocol pairs each request kind with its answer (the
// import worker's, the results thread's): one request, one promise, typed by its kind. The
// worker starts with the first request (or earlier, `warm`) and is kept; if it stops, every request waiting on it
// fails with the sentence its owner gives, and the next request starts a fresh one.

/** What a worker posts back: an answer, a failure, progress, or (once its code ran) that it is ready. */
export type WorkerMessage<Answers> =
  | { [K in keyof Answers]: { type: 'done'; kind: K; id: number; answer: Answers[K] } }[keyof Answers]
  | { type: 'failed'; id: number; message: string; network?: true; rowsMissing?: true }
  | { type: 'progress'; id: number; fraction: number }
  | { type: 'ready' };

export interface WorkerClientOptions {
  /** Starts the worker (a test passes a stand-in). */
  create: () => Worker;
  /** Names the worker in the sentence said when it answers one kind to another. */
  name: string;
  /**
   * The error for the requests pending when the worker stopped. `answered`: it had answered
   * something; `ready`: it had said its code ran (for a worker that says so).
   */
  stopped: (message: string, state: { answered: boolean; ready: boolean }) => Error;
  /** The error for a request the worker answered `failed`. */
  failed?: (failure: { message: string; network?: true; rowsMissing?: true }, kind: string) => Error;
}

type Pending = { kind: PropertyKey; resolve: (answer: unknown) => void; reject: (error: Error) => void; onProgress?: (fraction: number) => void };

export class WorkerClient<Requests, Answers extends { [K in keyof Requests]: unknown }> {
  private worker: Worker | null = null;
  private answered = false;
  private ready = false;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();

  constructor(private readonly options: WorkerClientOptions) {}

  /** Posts the request; `transfer` moves buffers rather than copying them. */
  send<K extends keyof Requests & string>(
    kind: K,
    body: Requests[K],
    { transfer = [], onProgress }: { transfer?: Transferable[]; onProgress?: (fraction: number) => void } = {},
  ): { id: number; promise: Promise<Answers[K]> } {
    const id = this.nextId++;
    const promise = new Promise<Answers[K]>((resolve, reject) => {
      let worker: Worker;
      try {
        worker = this.ensureWorker();
      } catch (error) {
        reject(this.options.stopped(error instanceof Error ? error.message : String(error), { answered: false, ready: false }));
        return;
      }
      this.pending.set(id, { kind, resolve: resolve as (answer: unknown) => void, reject, onProgress });
      worker.postMessage({ ...body, kind, id }, transfer);
    });
    return { id, promise };
  }

  request<K extends keyof Requests & string>(kind: K, body: Requests[K], onProgress?: (fraction: number) => void): Promise<Answers[K]> {
    return this.send(kind, body, { onProgress }).promise;
  }

  /** Gives a request up: it fails with `reason` at once, and the worker is told (`{ kind: 'abort', id }`). */
  abort(id: number, reason: Error): void {
    const pending = this.pending.get(id);
    if (!pending) return;
    this.pending.delete(id);
    this.worker?.postMessage({ kind: 'abort', id });
    pending.reject(reason);
  }

  /**
   * Starts the worker before its first request, so its script is loaded and compiled while the
   * person is still choosing a file. A worker that cannot start is left for the first request to
   * report, with its owner's sentence.
   */
  warm(): void {
    try {
      this.ensureWorker();
    } catch {
      // The first request tries again and says why it could not.
    }
  }

  /** Whether a worker is running: a request now would not start one. */
  get running(): boolean {
    return this.worker !== null;
  }

  /** Stops the worker outright; every pending request fails with `error`. */
  terminate(error: Error): void {
    this.worker?.terminate();
    this.worker = null;
    this.failAll(error);
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = this.options.create();
    this.answered = false;
    this.ready = false;
    worker.onmessage = (event: MessageEvent<WorkerMessage<Answers>>) => {
      if (this.worker !== worker) return;
      this.answered = true;
      this.receive(event.data);
    };
    worker.onerror = (event) => {
      event.preventDefault();
      if (this.worker !== worker) return;
      // A worker that failed is not used again: the next request starts a fresh one.
      worker.terminate?.();
      this.worker = null;
      this.failAll(this.options.stopped(event.message ?? '', { answered: this.answered, ready: this.ready }));
    };
    this.worker = worker;
    return worker;
  }

  private receive(message: WorkerMessage<Answers>): void {
    if (message.type === 'ready') {
      this.ready = true;
      return;
    }
    const pending = this.pending.get(message.id);
    if (!pending) return;
    if (message.type === 'progress') {
      pending.onProgress?.(message.fraction);
      return;
    }
    this.pending.delete(message.id);
    if (message.type === 'failed') pending.reject(this.options.failed?.(message, String(pending.kind)) ?? new Error(message.message));
    else if (message.kind !== pending.kind) pending.reject(new Error(`The ${this.options.name} answered ${String(message.kind)} to ${String(pending.kind)}.`));
    else pending.resolve(message.answer);
  }

  private failAll(error: Error): void {
    for (const pending of this.pending.values()) pending.reject(error);
    this.pending.clear();
  }
}
