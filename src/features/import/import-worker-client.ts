// Talks to the import worker with promises. Cancel terminates the worker outright (a parse in
// progress cannot be interrupted otherwise); the next call starts a fresh one.
import type { WorkerRequest, WorkerResponse } from '../../workers/import-protocol';

type Pending = { resolve: (response: WorkerResponse) => void; reject: (error: Error) => void; onProgress?: (fraction: number) => void };
type RequestBody = WorkerRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

export class CancelledError extends Error {
  override name = 'CancelledError';
  constructor() {
    super('Reading was cancelled.');
  }
}

export class ImportWorkerClient {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(new URL('../../workers/import-worker.ts', import.meta.url), { type: 'module', name: 'import' });
    worker.onmessage = (event: MessageEvent<WorkerResponse>) => this.receive(event.data);
    worker.onerror = (event) => {
      event.preventDefault();
      this.failAll(new Error(`The file reader stopped unexpectedly${event.message ? `: ${event.message}` : ''}.`));
    };
    this.worker = worker;
    return worker;
  }

  call<T extends WorkerResponse['type']>(
    body: RequestBody,
    expect: T,
    onProgress?: (fraction: number) => void,
  ): Promise<Extract<WorkerResponse, { type: T }>> {
    const id = this.nextId++;
    const worker = this.ensureWorker();
    return new Promise((resolve, reject) => {
      this.pending.set(id, {
        resolve: (response) => {
          if (response.type === expect) resolve(response as Extract<WorkerResponse, { type: T }>);
          else if (response.type === 'failed') reject(new Error(response.message));
          else reject(new Error(`Unexpected answer from the file reader: ${response.type}`));
        },
        reject,
        onProgress,
      });
      worker.postMessage({ ...body, id });
    });
  }

  /** Stops whatever the worker is doing; pending calls reject with CancelledError. */
  cancel(): void {
    this.worker?.terminate();
    this.worker = null;
    this.failAll(new CancelledError());
  }

  dispose(): void {
    this.cancel();
  }

  private receive(response: WorkerResponse): void {
    const pending = this.pending.get(response.id);
    if (!pending) return;
    if (response.type === 'progress') {
      pending.onProgress?.(response.fraction);
      return;
    }
    this.pending.delete(response.id);
    pending.resolve(response);
  }

  private failAll(error: Error): void {
    for (const pending of this.pending.values()) pending.reject(error);
    this.pending.clear();
  }
}
