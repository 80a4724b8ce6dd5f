// The page's side of the import worker: one request, one promise, typed by the request's kind
// (import-protocol pairs each kind with its answer). Cancel terminates the worker outright (a
// parse in progress cannot be interrupted otherwise); the next request starts a fresh one.
import type { ImportAnswers, ImportRequestKind, ImportRequests, WorkerResponse } from '../../workers/import-protocol';

type Pending = { kind: ImportRequestKind; resolve: (answer: unknown) => void; reject: (error: Error) => void; onProgress?: (fraction: number) => void };

export class CancelledError extends Error {
  override name = 'CancelledError';
  constructor() {
    super('Reading was cancelled.');
  }
}

export class ImportSession {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();

  constructor(private readonly createWorker: () => Worker = () => new Worker(new URL('../../workers/import-worker.ts', import.meta.url), { type: 'module', name: 'import' })) {}

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = this.createWorker();
    let answered = false;
    worker.onmessage = (event: MessageEvent<WorkerResponse>) => {
      answered = true;
      this.receive(event.data);
    };
    worker.onerror = (event) => {
      event.preventDefault();
      // A worker that failed is not used again: the next request starts a fresh one (otherwise a
      // reader whose script could not load, the server being down, would leave every later file
      // "Reading…" for ever).
      worker.terminate();
      if (this.worker === worker) this.worker = null;
      // An error before any answer without a message is a script that never loaded, not the file.
      const sentence =
        !answered && !event.message
          ? 'The file reader could not be started (the console’s server may be unreachable). The file was not read; try again.'
          : `The file reader stopped unexpectedly${event.message ? `: ${event.message}` : ''}.`;
      this.failAll(new Error(sentence));
    };
    this.worker = worker;
    return worker;
  }

  request<K extends ImportRequestKind>(kind: K, body: ImportRequests[K], onProgress?: (fraction: number) => void): Promise<ImportAnswers[K]> {
    const id = this.nextId++;
    const worker = this.ensureWorker();
    return new Promise<ImportAnswers[K]>((resolve, reject) => {
      this.pending.set(id, { kind, resolve: resolve as (answer: unknown) => void, reject, onProgress });
      worker.postMessage({ ...body, kind, id });
    });
  }

  /** Stops whatever the worker is doing; pending requests reject with CancelledError. */
  cancel(): void {
    this.worker?.terminate();
    this.worker = null;
    this.failAll(new CancelledError());
  }

  private receive(response: WorkerResponse): void {
    const pending = this.pending.get(response.id);
    if (!pending) return;
    if (response.type === 'progress') {
      pending.onProgress?.(response.fraction);
      return;
    }
    this.pending.delete(response.id);
    if (response.type === 'failed') pending.reject(new Error(response.message));
    else if (response.kind !== pending.kind) pending.reject(new Error(`The file reader answered ${response.kind} to ${pending.kind}.`));
    else pending.resolve(response.answer);
  }

  private failAll(error: Error): void {
    for (const pending of this.pending.values()) pending.reject(error);
    this.pending.clear();
  }
}
