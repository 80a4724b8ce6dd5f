// The job runner's reader of batch bodies (jobs/import-job.ts BatchReader): each body goes to the
// results worker (workers/results-worker.ts), transferred, not copied; one request, one promise,
// typed by the request's kind. The worker starts with the first body and is kept. A poll names
// where its batch's outcome goes, so the worker saves a final batch's items itself.
import { InvalidResponseError } from '../../api/api-error';
import type { BatchDigest, BatchHeadline, BatchReader, OutcomeDestination } from '../../jobs/import-job';
import type { ResultsAnswers, ResultsRequestKind, ResultsRequests, ResultsWorkerResponse } from '../../workers/results-protocol';

type Pending = { kind: ResultsRequestKind; resolve: (answer: unknown) => void; reject: (error: Error) => void };

export class ResultsReader implements BatchReader {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();

  constructor(private readonly createWorker: () => Worker = () => new Worker(new URL('../../workers/results-worker.ts', import.meta.url), { type: 'module', name: 'results' })) {}

  // The protocol's answers are assigned to the runner's types here: the compiler keeps them equal.
  headline(body: ArrayBuffer): Promise<BatchHeadline> {
    return this.request('headline', { body });
  }

  digest(body: ArrayBuffer, rowNumbers: number[], saveTo?: OutcomeDestination): Promise<BatchDigest> {
    return this.request('digest', saveTo ? { body, rowNumbers, saveTo } : { body, rowNumbers });
  }

  private request<K extends ResultsRequestKind>(kind: K, request: ResultsRequests[K]): Promise<ResultsAnswers[K]> {
    const id = this.nextId++;
    const worker = this.ensureWorker();
    return new Promise<ResultsAnswers[K]>((resolve, reject) => {
      this.pending.set(id, { kind, resolve: resolve as (answer: unknown) => void, reject });
      worker.postMessage({ ...request, kind, id }, [request.body]);
    });
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = this.createWorker();
    worker.onmessage = (event: MessageEvent<ResultsWorkerResponse>) => this.receive(event.data);
    worker.onerror = (event) => {
      event.preventDefault();
      this.worker = null;
      this.failAll(new InvalidResponseError(`The batch reader stopped unexpectedly${event.message ? `: ${event.message}` : ''}.`));
    };
    this.worker = worker;
    return worker;
  }

  private receive(response: ResultsWorkerResponse): void {
    const pending = this.pending.get(response.id);
    if (!pending) return;
    this.pending.delete(response.id);
    if (response.type === 'failed') pending.reject(new InvalidResponseError(response.message));
    else if (response.kind !== pending.kind) pending.reject(new InvalidResponseError(`The batch reader answered ${response.kind} to ${pending.kind}.`));
    else pending.resolve(response.answer);
  }

  private failAll(error: Error): void {
    for (const pending of this.pending.values()) pending.reject(error);
    this.pending.clear();
  }
}

/** The console's one reader, shared by sending (the 202 answers) and polling. */
export const resultsReader = new ResultsReader();
