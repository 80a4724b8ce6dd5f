// The page's side of the export worker: one request, one promise, typed by the request's kind.
// The worker is started on the first download and kept for the next ones.
import type { ExportAnswers, ExportRequestKind, ExportRequests, ExportWorkerResponse } from '../../workers/export-protocol';

type Pending = { kind: ExportRequestKind; resolve: (answer: unknown) => void; reject: (error: Error) => void };

export class ExportSession {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();

  constructor(private readonly createWorker: () => Worker = () => new Worker(new URL('../../workers/export-worker.ts', import.meta.url), { type: 'module', name: 'export' })) {}

  request<K extends ExportRequestKind>(kind: K, body: ExportRequests[K]): Promise<ExportAnswers[K]> {
    const id = this.nextId++;
    const worker = this.ensureWorker();
    return new Promise<ExportAnswers[K]>((resolve, reject) => {
      this.pending.set(id, { kind, resolve: resolve as (answer: unknown) => void, reject });
      worker.postMessage({ ...body, kind, id });
    });
  }

  dispose(): void {
    this.worker?.terminate();
    this.worker = null;
    this.failAll(new Error('The download was stopped.'));
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = this.createWorker();
    worker.onmessage = (event: MessageEvent<ExportWorkerResponse>) => this.receive(event.data);
    worker.onerror = (event) => {
      event.preventDefault();
      this.worker = null;
      this.failAll(new Error(`The file writer stopped unexpectedly${event.message ? `: ${event.message}` : ''}.`));
    };
    this.worker = worker;
    return worker;
  }

  private receive(response: ExportWorkerResponse): void {
    const pending = this.pending.get(response.id);
    if (!pending) return;
    this.pending.delete(response.id);
    if (response.type === 'failed') pending.reject(new Error(response.message));
    else if (response.kind !== pending.kind) pending.reject(new Error(`The file writer answered ${response.kind} to ${pending.kind}.`));
    else pending.resolve(response.answer);
  }

  private failAll(error: Error): void {
    for (const pending of this.pending.values()) pending.reject(error);
    this.pending.clear();
  }
}
