// The results thread's requests to the service (results-protocol.ts ServiceRequest). The page
// keeps the pacing, retries and errors (api/http-client.ts) and asks the thread to make each
// import and poll: the answer's body, up to 5,000 result items, is then received on this thread,
// not the page's, and a 2xx body is read here at once (when the request says how) or kept for
// the headline or digest that reads it next. Receiving a 1.5 MB batch on the page took it ~20 ms
// a time in a plain browser, and twice that with devtools attached.
import type { ChunkBody } from '../import-job';
import type { ResultsBody, ServiceAnswer, ServiceRequest } from './results-protocol';

/**
 * Kept bodies at most: each is read right after its answer reaches the page, so more only wait
 * when the page stopped reading (a reload mid-request); the oldest then goes.
 */
export const KEPT_BODIES = 16;

/** The request got no answer at all: what fetch() rejects for (connection refused or dropped). */
export class NoAnswerError extends Error {}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

function requestBody(body: ServiceRequest['body']): BodyInit | undefined {
  if (body === null) return undefined;
  if ('text' in body) return body.text;
  const form = new FormData();
  for (const [name, value] of body.form) form.append(name, value);
  return form;
}

/**
 * An import request with the chunk's rows as its body, as the page's HTTP module would have sent
 * them: a CSV as the form's one part `file` (named `fileName`), a JSON list as JSON text.
 */
export function withChunkRows(request: ServiceRequest, body: ChunkBody, fileName: string): ServiceRequest {
  if (body.format === 'csv') return { ...request, body: { form: [['file', new File([body.csv], fileName, { type: 'text/csv' })]] } };
  return { ...request, headers: { ...request.headers, 'Content-Type': 'application/json' }, body: { text: JSON.stringify(body.requests) } };
}

export class ServiceFetcher {
  private nextBodyId = 1;
  /** By body id, oldest first. */
  private readonly kept = new Map<number, ArrayBuffer>();
  /** Requests under way, by the page's request id: what `abort` stops. */
  private readonly underWay = new Map<number, AbortController>();

  constructor(private readonly fetchImpl: typeof fetch = (...args) => fetch(...args)) {}

  /** `read`: what to make of a 2xx body at once (then not kept); its failure is the answer's `read.error`. */
  async fetch(id: number, request: ServiceRequest, read?: (body: ArrayBuffer) => Promise<NonNullable<ServiceAnswer['read']>>): Promise<ServiceAnswer> {
    const controller = new AbortController();
    this.underWay.set(id, controller);
    try {
      let response: Response;
      try {
        response = await this.fetchImpl(request.url, { method: request.method, headers: request.headers, body: requestBody(request.body), signal: controller.signal });
      } catch (error) {
        throw new NoAnswerError(describe(error));
      }
      const answer: ServiceAnswer = { status: response.status, statusText: response.statusText, headers: [...response.headers], bodyId: null, text: null, cutOff: null };
      let body: ArrayBuffer;
      try {
        if (!response.ok) {
          answer.text = await response.text();
          return answer;
        }
        body = await response.arrayBuffer();
      } catch (error) {
        answer.cutOff = describe(error);
        return answer;
      }
      if (!read) {
        answer.bodyId = this.keep(body);
        return answer;
      }
      answer.bodyId = this.nextBodyId++;
      answer.read = await read(body).catch((error: unknown) => ({ error: describe(error) }));
      return answer;
    } finally {
      this.underWay.delete(id);
    }
  }

  /** The page gave the request up (its signal aborted). */
  abort(id: number): void {
    this.underWay.get(id)?.abort();
  }

  /** A body to read: bytes the page sent, or a kept one (then no longer kept). */
  take(body: ResultsBody): ArrayBuffer {
    if (body instanceof ArrayBuffer) return body;
    const bytes = this.kept.get(body.bodyId);
    if (!bytes) throw new Error(`The service's answer ${body.bodyId} is no longer held by the batch reader: ask for it again.`);
    this.kept.delete(body.bodyId);
    return bytes;
  }

  private keep(bytes: ArrayBuffer): number {
    const bodyId = this.nextBodyId++;
    this.kept.set(bodyId, bytes);
    for (const oldest of this.kept.keys()) {
      if (this.kept.size <= KEPT_BODIES) break;
      this.kept.delete(oldest);
    }
    return bodyId;
  }
}
