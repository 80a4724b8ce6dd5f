// The job runner's reader of batch bodies (import-job.ts BatchReader), and the fetch its imports
// and polls go through: both run in the results thread (results-worker.ts). A
// request made there receives its answer there, and a 2xx body stays there for the headline or
// digest that reads it next (a KeptBodyResponse names it), so a batch of 5,000 items never
// crosses the page's thread; the page keeps the status and headers, which pace and retry.
// One request, one promise, typed by the request's kind. The worker starts with the first
// request and is kept. A poll names where its batch's outcome goes, so the worker saves a final
// batch's items itself.
import { InvalidResponseError, NotSentError } from '../../api/api-error';
import { type KeptBody, KeptBodyResponse } from '../../api/http-client';
import type { BatchDigest, BatchHeadline, BatchReader, OutcomeDestination } from '../import-job';
import type {
  ResultsAnswers,
  ResultsRequestKind,
  ResultsRequests,
  ResultsWorkerMessage,
  ResultsWorkerResponse,
  ServiceAnswer,
  ServiceRequest,
} from './results-protocol';

type Pending = { kind: ResultsRequestKind; resolve: (answer: unknown) => void; reject: (error: Error) => void };

/** A request body as it can cross to the worker: text, or a form's entries (FormData cannot). */
function serviceBody(body: RequestInit['body']): ServiceRequest['body'] {
  if (body === undefined || body === null) return null;
  if (typeof body === 'string') return { text: body };
  if (body instanceof FormData) return { form: [...body.entries()] };
  throw new TypeError('Only text and form bodies can be sent from the batch reader.');
}

/** Statuses whose answer has no body (the Response constructor refuses one). */
const NO_BODY = new Set([101, 103, 204, 205, 304]);

/** The worker's answer as the Response fetch() would have given, its 2xx body kept there. */
function responseOf(answer: ServiceAnswer): Response {
  const init: ResponseInit = { status: answer.status, statusText: answer.statusText, headers: answer.headers };
  if (answer.bodyId !== null) return new KeptBodyResponse({ bodyId: answer.bodyId }, init);
  if (answer.cutOff !== null) {
    // Reading it fails as reading the cut-off answer did in the worker.
    const reason = new TypeError(answer.cutOff);
    return new Response(new ReadableStream({ start: (controller) => controller.error(reason) }), init);
  }
  return new Response(NO_BODY.has(answer.status) ? null : answer.text, init);
}

export class ResultsReader implements BatchReader {
  private worker: Worker | null = null;
  /** Whether the worker's code has run: before that, a failure means no request was made. */
  private workerReady = false;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();

  constructor(private readonly createWorker: () => Worker = () => new Worker(new URL('./results-worker.ts', import.meta.url), { type: 'module', name: 'results' })) {}

  headline(body: ArrayBuffer | KeptBody): Promise<BatchHeadline> {
    return this.request('headline', { body }).promise;
  }

  digest(body: ArrayBuffer | KeptBody, rowNumbers: number[], saveTo?: OutcomeDestination): Promise<BatchDigest> {
    return this.request('digest', saveTo ? { body, rowNumbers, saveTo } : { body, rowNumbers }).promise;
  }

  /**
   * fetch(), made in the worker: the same status and headers; a 2xx body stays there. No answer
   * at all rejects with a TypeError, as fetch() does; an aborted signal gives the request up.
   */
  readonly fetch = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const signal = init.signal ?? undefined;
    signal?.throwIfAborted();
    const url = input instanceof Request ? input.url : String(input);
    const request: ServiceRequest = { url, method: init.method ?? 'GET', headers: Object.fromEntries(new Headers(init.headers)), body: serviceBody(init.body) };
    const { id, promise } = this.request('fetch', { request });
    if (!signal) return responseOf(await promise);
    const onAbort = () => {
      const pending = this.pending.get(id);
      if (!pending) return;
      this.pending.delete(id);
      this.worker?.postMessage({ kind: 'abort', id } satisfies ResultsWorkerMessage);
      pending.reject(signal.reason instanceof Error ? signal.reason : new DOMException('The request was aborted.', 'AbortError'));
    };
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      return responseOf(await promise);
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  };

  private request<K extends ResultsRequestKind>(kind: K, request: ResultsRequests[K]): { id: number; promise: Promise<ResultsAnswers[K]> } {
    const id = this.nextId++;
    const body = 'body' in request ? request.body : undefined;
    const promise = new Promise<ResultsAnswers[K]>((resolve, reject) => {
      let worker: Worker;
      try {
        worker = this.ensureWorker();
      } catch (error) {
        reject(notStarted(error instanceof Error ? error.message : String(error)));
        return;
      }
      this.pending.set(id, { kind, resolve: resolve as (answer: unknown) => void, reject });
      worker.postMessage({ ...request, kind, id }, body instanceof ArrayBuffer ? [body] : []);
    });
    return { id, promise };
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = this.createWorker();
    worker.onmessage = (event: MessageEvent<ResultsWorkerResponse>) => this.receive(event.data);
    worker.onerror = (event) => {
      event.preventDefault();
      this.worker = null;
      // Before its code ran, the worker made none of the requests posted to it.
      this.failAll(this.workerReady ? new InvalidResponseError(`The batch reader stopped unexpectedly${event.message ? `: ${event.message}` : ''}.`) : notStarted(event.message));
      this.workerReady = false;
    };
    this.worker = worker;
    return worker;
  }

  private receive(response: ResultsWorkerResponse): void {
    if (response.type === 'ready') {
      this.workerReady = true;
      return;
    }
    const pending = this.pending.get(response.id);
    if (!pending) return;
    this.pending.delete(response.id);
    // A request that got no answer fails as fetch() does, so the HTTP client treats it as one.
    if (response.type === 'failed') pending.reject(response.network ? new TypeError(response.message) : new InvalidResponseError(response.message));
    else if (response.kind !== pending.kind) pending.reject(new InvalidResponseError(`The batch reader answered ${response.kind} to ${pending.kind}.`));
    else pending.resolve(response.answer);
  }

  private failAll(error: Error): void {
    for (const pending of this.pending.values()) pending.reject(error);
    this.pending.clear();
  }
}

function notStarted(why: string): NotSentError {
  return new NotSentError(`The part of this page that sends and reads imports could not start${why ? ` (${why})` : ''}, so nothing was sent. Reload the page, then resume.`);
}

/** The console's one reader, shared by sending (the 202 answers) and polling. */
export const resultsReader = new ResultsReader();
