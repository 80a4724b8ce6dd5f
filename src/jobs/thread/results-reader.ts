// The page's side of the results thread (results-worker.ts), through the one worker client.
// For the job runner it is the reader of batch bodies (import-job.ts BatchReader) and the fetch
// its imports and polls go through: each request is one message, which the thread makes and
// whose 2xx answer it reads in the same step (fetchReading: an import's headline, its body built
// there from the chunk's rows; a poll's digest, a final outcome saved there), so neither a
// chunk's rows nor a batch of 5,000 items crosses the page's thread; the page keeps the status
// and headers, which pace and retry. For the results pages it asks the same thread for a job's
// counts, rows, downloads and rows to retry (ResultsThread); a batch opened by its id and its
// rows as sent are fetched the same way and held there, the page getting the batch's headline;
// so are a server-run job's outcomes and payloads, which its results are then opened from.
import { InvalidResponseError, NotSentError } from '../../api/api-error';
import { type KeptBody, KeptBodyResponse } from '../../api/http-client';
import type { BatchDigest, BatchHeadline, BatchReader, OutcomeDestination } from '../import-job';
import { RowsNotFoundError } from '../runner/submit-queue';
import type {
  BatchView,
  PageRead,
  ResultsAnswers,
  ResultsRequests,
  ResultsSessionKind,
  RowsAsSentHeld,
  ServerJobReadHeld,
  ServiceAnswer,
  ServiceRead,
  ServiceRequest,
} from './results-protocol';
import { WorkerClient } from './worker-client';

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

/** What the results pages ask of the thread. */
export interface ResultsThread {
  request<K extends ResultsSessionKind>(kind: K, body: ResultsRequests[K]): Promise<ResultsAnswers[K]>;
  /**
   * The batch page's fetch (for the HTTP client's deps): the thread makes the request and reads
   * and holds its 2xx answer as `read` says (a batch, or a chunk's rows as sent) in the same message.
   */
  fetchReading(read: PageRead): typeof fetch;
  /** What the thread made of a batch fetched with `batch-view`: its headline, never its items. */
  batchView(body: ArrayBuffer | KeptBody): Promise<BatchView>;
  /** What the thread made of a chunk's rows fetched with `rows-as-sent`: how many it now holds. */
  rowsAsSentHeld(body: ArrayBuffer | KeptBody): Promise<RowsAsSentHeld>;
  /** What the thread made of a server-run job's outcome or payload fetched with `server-outcome` or `server-payload`: how many rows it holds. */
  serverJobHeld(body: ArrayBuffer | KeptBody): Promise<ServerJobReadHeld>;
}

/** Answers read in the thread and not yet taken, at most. */
const KEPT_READS = 16;

export class ResultsReader implements BatchReader, ResultsThread {
  private readonly client: WorkerClient<ResultsRequests, ResultsAnswers>;
  /** What the thread read of each 2xx answer with its request (fetchReading), by body id. */
  private readonly reads = new Map<number, NonNullable<ServiceAnswer['read']>>();

  constructor(createWorker: () => Worker = () => new Worker(new URL('./results-worker.ts', import.meta.url), { type: 'module', name: 'results' })) {
    this.client = new WorkerClient<ResultsRequests, ResultsAnswers>({
      create: createWorker,
      name: 'batch reader',
      // Before its code ran, the worker made none of the requests posted to it.
      stopped: (message, { ready }) => (ready ? new InvalidResponseError(`The batch reader stopped unexpectedly${message ? `: ${message}` : ''}.`) : notStarted(message)),
      // A request that got no answer fails as fetch() does, so the HTTP client treats it as one;
      // an import whose rows were not found was never sent.
      failed: ({ message, network, rowsMissing }) => (rowsMissing ? new RowsNotFoundError(message) : network ? new TypeError(message) : new InvalidResponseError(message)),
    });
  }

  headline(body: ArrayBuffer | KeptBody): Promise<BatchHeadline> {
    const read = this.readAlready(body);
    if (read) return 'headline' in read ? Promise.resolve(read.headline) : Promise.reject(this.unreadable(read, 'an import'));
    return this.client.send('headline', { body }, { transfer: body instanceof ArrayBuffer ? [body] : [] }).promise;
  }

  digest(body: ArrayBuffer | KeptBody, rowNumbers: number[] | null, saveTo?: OutcomeDestination): Promise<BatchDigest> {
    const read = this.readAlready(body);
    if (read) return 'digest' in read ? Promise.resolve(read.digest) : Promise.reject(this.unreadable(read, 'a poll'));
    return this.client.send('digest', saveTo ? { body, rowNumbers, saveTo } : { body, rowNumbers }, { transfer: body instanceof ArrayBuffer ? [body] : [] }).promise;
  }

  batchView(body: ArrayBuffer | KeptBody): Promise<BatchView> {
    const read = this.readAlready(body);
    if (read && 'view' in read) return Promise.resolve(read.view);
    return Promise.reject(read ? this.unreadable(read, 'a batch') : new InvalidResponseError('The batch was not read by the results thread: ask for it again.'));
  }

  rowsAsSentHeld(body: ArrayBuffer | KeptBody): Promise<RowsAsSentHeld> {
    const read = this.readAlready(body);
    if (read && 'rowsAsSent' in read) return Promise.resolve(read.rowsAsSent);
    return Promise.reject(read ? this.unreadable(read, 'the rows as sent') : new InvalidResponseError('The rows as sent were not read by the results thread: ask for them again.'));
  }

  serverJobHeld(body: ArrayBuffer | KeptBody): Promise<ServerJobReadHeld> {
    const read = this.readAlready(body);
    if (read && 'serverJob' in read) return Promise.resolve(read.serverJob);
    return Promise.reject(read ? this.unreadable(read, 'the job’s results') : new InvalidResponseError('The job’s results were not read by the results thread: ask for them again.'));
  }

  /** A request about a job's results; its failure is a plain sentence. */
  request<K extends ResultsSessionKind>(kind: K, body: ResultsRequests[K]): Promise<ResultsAnswers[K]> {
    return this.client.request(kind, body).catch((error: unknown) => {
      throw new Error(error instanceof NotSentError ? 'The part of this page that reads results could not start. Reload the page.' : error instanceof Error ? error.message : String(error));
    });
  }

  /**
   * fetch(), made in the worker: the same status and headers; a 2xx body stays there. No answer
   * at all rejects with a TypeError, as fetch() does; an aborted signal gives the request up.
   */
  readonly fetch = (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => this.fetchThere(input, init, undefined);

  /** The same fetch, whose 2xx answer the thread also reads (BatchReader.fetchReading, or the batch page's): one message per request. */
  readonly fetchReading =
    (read: ServiceRead): typeof fetch =>
    (input, init) =>
      this.fetchThere(input, init ?? {}, read);

  private async fetchThere(input: RequestInfo | URL, init: RequestInit, read: ServiceRead | undefined): Promise<Response> {
    const signal = init.signal ?? undefined;
    signal?.throwIfAborted();
    const url = input instanceof Request ? input.url : String(input);
    // An import read this way has no body here: the thread builds it from the chunk's rows.
    const request: ServiceRequest = { url, method: init.method ?? 'GET', headers: Object.fromEntries(new Headers(init.headers)), body: serviceBody(init.body) };
    const { id, promise } = this.client.send('fetch', read ? { request, read } : { request });
    const onAbort = () => this.client.abort(id, signal?.reason instanceof Error ? signal.reason : new DOMException('The request was aborted.', 'AbortError'));
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const answer = await promise;
      if (answer.read && answer.bodyId !== null) this.keepRead(answer.bodyId, answer.read);
      return responseOf(answer);
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  }

  /** What the thread read of an answer's body in the same message, taken once. */
  private readAlready(body: ArrayBuffer | KeptBody): NonNullable<ServiceAnswer['read']> | undefined {
    if (body instanceof ArrayBuffer) return undefined;
    const read = this.reads.get(body.bodyId);
    this.reads.delete(body.bodyId);
    return read;
  }

  private keepRead(bodyId: number, read: NonNullable<ServiceAnswer['read']>): void {
    this.reads.set(bodyId, read);
    // Each is taken right after its answer; more only wait when the page stopped reading (a request given up).
    for (const oldest of this.reads.keys()) {
      if (this.reads.size <= KEPT_READS) break;
      this.reads.delete(oldest);
    }
  }

  private unreadable(read: NonNullable<ServiceAnswer['read']>, what: string): InvalidResponseError {
    return new InvalidResponseError('error' in read ? read.error : `The batch reader read ${what} as another kind of answer.`);
  }
}

function notStarted(why: string): NotSentError {
  return new NotSentError(`The part of this page that sends and reads imports could not start${why ? ` (${why})` : ''}, so nothing was sent. Reload the page, then resume.`);
}

/** The console's one results thread: the runner's reader (the 202 answers and polls) and the results pages'. */
export const resultsThread = new ResultsReader();
