import { describe, expect, it } from 'vitest';
import { InvalidResponseError, NetworkError, NotSentError } from '../../api/api-error';
import { type ApiTarget, type HttpDeps, httpDepsWith, KeptBodyResponse } from '../../api/http-client';
import { fetchBatchBody, importFile } from '../../api/imports';
import type { BatchDigest, ImportJob } from '../import-job';
import { payloadSender, RowsNotFoundError } from '../runner/submit-queue';
import { RateLimitBudget } from '../../api/rate-limit-budget';
import type { ResultsWorkerMessage, ResultsWorkerResponse, ServiceAnswer } from './results-protocol';
import { ResultsReader } from './results-reader';
import { teamChunkRowsBody } from '../../api/team-history';

/** The batch page's two reads (features/results/batch-results.tsx): made by the thread, read there. */
const readBatchView = async (target: ApiTarget, batchId: string, reader: ResultsReader) =>
  reader.batchView(await fetchBatchBody(target, batchId, undefined, httpDepsWith(reader.fetchReading({ kind: 'batch-view' }))));
const readRowsAsSent = async (target: ApiTarget, owner: { jobId: string; chunkId: number }, reader: ResultsReader) =>
  reader.rowsAsSentHeld(await teamChunkRowsBody(target, owner.jobId, owner.chunkId, undefined, httpDepsWith(reader.fetchReading({ kind: 'rows-as-sent', ...owner }))));

/** A worker that records what the page posts; the test answers for it. */
function fakeWorker() {
  const posted: { message: ResultsWorkerMessage; transfer: Transferable[] }[] = [];
  const worker = {
    onmessage: null as ((event: MessageEvent<ResultsWorkerResponse>) => void) | null,
    onerror: null as ((event: Partial<ErrorEvent>) => void) | null,
    postMessage(message: ResultsWorkerMessage, transfer: Transferable[] = []) {
      posted.push({ message, transfer });
    },
  };
  const answer = (response: ResultsWorkerResponse) => worker.onmessage?.({ data: response } as MessageEvent<ResultsWorkerResponse>);
  const fail = (message: string) => worker.onerror?.({ message, preventDefault: () => undefined });
  const reader = new ResultsReader(() => worker as unknown as Worker);
  return { reader, posted, answer, fail };
}

const service = (answer: Partial<ServiceAnswer>): ServiceAnswer => ({ status: 202, statusText: '', headers: [], bodyId: null, text: null, cutOff: null, ...answer });
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
const target = { baseUrl: 'https://api.example.com', apiKey: 'secret-key-123' };

function deps(fetch: HttpDeps['fetch']): HttpDeps {
  let clock = 1_800_000_000_000;
  const now = () => clock;
  const sleep = (ms: number) => {
    clock += ms;
    return Promise.resolve();
  };
  return { fetch, now, sleep, random: () => 0.5, budget: new RateLimitBudget(now, sleep) };
}

describe('ResultsReader.fetch', () => {
  it('has the worker make the import, and hands on the handle of the body it kept there', async () => {
    const { reader, posted, answer } = fakeWorker();
    const sent = importFile(target, 'tracking_number\r\nMSCU1234566', 'drop-part-1.csv', undefined, deps(reader.fetch), 'job:0');
    await tick();
    const { message } = posted[0]!;
    expect(message).toMatchObject({ kind: 'fetch', request: { url: 'https://api.example.com/api/v1/shipments/imports/file', method: 'POST' } });
    if (message.kind !== 'fetch') throw new Error('not a fetch');
    expect(message.request.headers).toMatchObject({ authorization: 'Bearer secret-key-123', 'idempotency-key': 'job:0' });
    const body = message.request.body;
    if (!body || !('form' in body)) throw new Error('not a form');
    const [name, file] = body.form[0]!;
    expect(name).toBe('file');
    expect(await (file as File).text()).toBe('tracking_number\r\nMSCU1234566');
    answer({ type: 'done', kind: 'fetch', id: message.id, answer: service({ status: 202, bodyId: 41, headers: [['x-ratelimit-remaining', '19']] }) });
    await expect(sent).resolves.toEqual({ bodyId: 41 });

    // Reading it names the kept body: nothing to transfer.
    void reader.headline({ bodyId: 41 });
    expect(posted[1]).toMatchObject({ message: { kind: 'headline', body: { bodyId: 41 } }, transfer: [] });
  });

  it('waits out a 429 the worker received and asks again', async () => {
    const { reader, posted, answer } = fakeWorker();
    const sent = importFile(target, 'a', 'a.csv', undefined, deps(reader.fetch));
    await tick();
    answer({ type: 'done', kind: 'fetch', id: posted[0]!.message.id, answer: service({ status: 429, headers: [['retry-after', '3']], text: '{"errors":[{"code":"rate_limited","message":"Slow down."}]}' }) });
    await tick();
    await tick();
    expect(posted).toHaveLength(2);
    answer({ type: 'done', kind: 'fetch', id: posted[1]!.message.id, answer: service({ status: 202, bodyId: 2 }) });
    await expect(sent).resolves.toEqual({ bodyId: 2 });
  });

  it('turns no answer, and an answer cut off, into the errors a lost import gets', async () => {
    const { reader, posted, answer } = fakeWorker();
    const lost = importFile(target, 'a', 'a.csv', undefined, deps(reader.fetch));
    await tick();
    answer({ type: 'failed', id: posted[0]!.message.id, message: 'fetch failed', network: true });
    await expect(lost).rejects.toThrow(new NetworkError('No answer from api.example.com (fetch failed).'));

    const cut = importFile(target, 'a', 'a.csv', undefined, deps(reader.fetch));
    await tick();
    answer({ type: 'done', kind: 'fetch', id: posted[1]!.message.id, answer: service({ status: 500, cutOff: 'terminated' }) });
    await expect(cut).rejects.toThrow(/cut off \(terminated\)/);
  });

  it('rejects as fetch() does when the worker got no answer at all', async () => {
    const { reader, posted, answer } = fakeWorker();
    const response = reader.fetch('https://api.example.com/x');
    await tick();
    answer({ type: 'failed', id: posted[0]!.message.id, message: 'fetch failed', network: true });
    await expect(response).rejects.toThrow(new TypeError('fetch failed'));
  });

  it('gives a request up when its signal aborts, and tells the worker', async () => {
    const { reader, posted } = fakeWorker();
    const controller = new AbortController();
    const response = reader.fetch('https://api.example.com/x', { signal: controller.signal });
    controller.abort();
    await expect(response).rejects.toThrow(/abort/i);
    expect(posted.map(({ message }) => message.kind)).toEqual(['fetch', 'abort']);
    expect(posted[1]!.message.id).toBe(posted[0]!.message.id);
  });

  it('gives a body kept in the worker no bytes on the page', async () => {
    const { reader, posted, answer } = fakeWorker();
    const response = reader.fetch('https://api.example.com/api/v1/shipments/imports/b1');
    await tick();
    answer({ type: 'done', kind: 'fetch', id: posted[0]!.message.id, answer: service({ status: 200, bodyId: 9 }) });
    const got = await response;
    expect(got).toBeInstanceOf(KeptBodyResponse);
    expect((got as KeptBodyResponse).kept).toEqual({ bodyId: 9 });
    expect(got.status).toBe(200);
  });

  it('has the worker fetch and read a batch opened by its id in one message: the page gets its headline, a 404 its status', async () => {
    const { reader, posted, answer } = fakeWorker();
    const viewed = readBatchView(target, 'b-9', reader);
    await tick();
    expect(posted).toHaveLength(1);
    const { message } = posted[0]!;
    expect(message).toMatchObject({ kind: 'fetch', request: { url: 'https://api.example.com/api/v1/shipments/imports/b-9', method: 'GET' }, read: { kind: 'batch-view' } });
    const view = { id: 'b-9', status: 'processing', total: 3, completed: 1, failureReason: null, createdAt: '2026-11-26T10:00:00Z' };
    answer({ type: 'done', kind: 'fetch', id: message.id, answer: service({ status: 200, bodyId: 5, read: { view } }) });
    await expect(viewed).resolves.toEqual(view);
    expect(posted).toHaveLength(1);

    const missing = readBatchView(target, 'nope', reader).catch((error: unknown) => error);
    await tick();
    answer({ type: 'done', kind: 'fetch', id: posted[1]!.message.id, answer: service({ status: 404, text: '{"errors":[{"code":"not_found","message":"No such batch."}]}' }) });
    expect(await missing).toMatchObject({ status: 404 });

    const rows = readRowsAsSent({ baseUrl: '', apiKey: '' }, { jobId: 'job-7', chunkId: 3 }, reader);
    await tick();
    expect(posted[2]!.message).toMatchObject({ kind: 'fetch', request: { url: '/console/api/jobs/job-7/chunks/3/rows' }, read: { kind: 'rows-as-sent', jobId: 'job-7', chunkId: 3 } });
    answer({ type: 'done', kind: 'fetch', id: posted[2]!.message.id, answer: service({ status: 200, bodyId: 6, read: { error: 'The team history answered in an unexpected shape at rowNumbers: bad.' } }) });
    await expect(rows).rejects.toThrow(new InvalidResponseError('The team history answered in an unexpected shape at rowNumbers: bad.'));
  });

  it('says nothing was sent when the worker failed before its code ran, and that the answer was lost after', async () => {
    const { reader, answer, fail } = fakeWorker();
    const first = importFile(target, 'a', 'a.csv', undefined, deps(reader.fetch));
    await tick();
    fail('404 loading results-worker.js');
    await expect(first).rejects.toThrow(
      new NotSentError('The part of this page that sends and reads imports could not start (404 loading results-worker.js), so nothing was sent. Reload the page, then resume.'),
    );

    const second = importFile(target, 'a', 'a.csv', undefined, deps(reader.fetch));
    await tick();
    answer({ type: 'ready' });
    fail('out of memory');
    await expect(second).rejects.toThrow(new NetworkError('No answer from api.example.com (The batch reader stopped unexpectedly: out of memory.).'));
  });

  it('says nothing was sent when the worker cannot be made', async () => {
    const reader = new ResultsReader(() => {
      throw new Error('Workers are blocked here');
    });
    await expect(importFile(target, 'a', 'a.csv', undefined, deps(reader.fetch))).rejects.toThrow(NotSentError);
  });
});

describe('one message per request to the service', () => {
  const job = { id: 'job-1', endpoint: 'file', source: { kind: 'file', fileName: 'march.csv', size: 1, contentHash: null } } as ImportJob;
  const noPayloadHere = { getPayload: () => Promise.reject(new Error('the page read the chunk’s rows')) };
  const headline = { id: 'b1', status: 'processing', total: 1, completed: 0, failureReason: null };

  it('sends an import as one message: the thread reads the rows, sends them and reads the answer; a 429 is waited out here', async () => {
    const { reader, posted, answer } = fakeWorker();
    const send = payloadSender({ ...target, baseUrl: '' }, reader, noPayloadHere, deps(reader.fetch), 'https://console.example', 'jobs-db');
    const sent = send(job, 3, new AbortController().signal);
    await tick();
    expect(posted).toHaveLength(1);
    expect(posted[0]!.message).toMatchObject({
      kind: 'fetch',
      request: { url: '/api/v1/shipments/imports/file', method: 'POST', body: null },
      read: { kind: 'headline', rows: { database: 'jobs-db', jobId: 'job-1', chunkId: 3, endpoint: 'file', fileName: 'march-part-4.csv' } },
    });
    answer({ type: 'done', kind: 'fetch', id: posted[0]!.message.id, answer: service({ status: 429, headers: [['retry-after', '1']], text: '{}' }) });
    await tick();
    await tick();
    expect(posted).toHaveLength(2);
    answer({ type: 'done', kind: 'fetch', id: posted[1]!.message.id, answer: service({ status: 202, bodyId: 7, read: { headline } }) });
    await expect(sent).resolves.toEqual(headline);
    // Two requests, two messages: nothing was asked to read the answer afterwards.
    expect(posted).toHaveLength(2);
  });

  it('records an import whose rows the thread could not find as never sent', async () => {
    const { reader, posted, answer } = fakeWorker();
    const sent = payloadSender(target, reader, noPayloadHere, deps(reader.fetch), undefined, 'jobs-db')(job, 0, new AbortController().signal);
    await tick();
    answer({ type: 'failed', id: posted[0]!.message.id, message: 'Its rows were not found in this browser’s storage.', rowsMissing: true });
    await expect(sent).rejects.toThrow(new RowsNotFoundError('Its rows were not found in this browser’s storage.'));
  });

  it('polls in one message: the digest comes back with the status and headers, and an unreadable answer says why', async () => {
    const { reader, posted, answer } = fakeWorker();
    const saveTo = { database: 'jobs-db', jobId: 'job-1', chunkId: 0 };
    const polled = fetchBatchBody(target, 'b1', undefined, deps(reader.fetchReading({ kind: 'digest', saveTo })));
    await tick();
    expect(posted[0]!.message).toMatchObject({ kind: 'fetch', request: { method: 'GET' }, read: { kind: 'digest', saveTo } });
    const digest = { ...headline, counts: { created: 1, updated: 0, failed: 0, withWarnings: 0, trackingFailed: 0 }, problems: [], problemCount: 0, unmatchedItems: 0, items: null } satisfies BatchDigest;
    answer({ type: 'done', kind: 'fetch', id: posted[0]!.message.id, answer: service({ status: 200, bodyId: 9, read: { digest } }) });
    await expect(reader.digest(await polled, null, saveTo)).resolves.toEqual(digest);
    expect(posted).toHaveLength(1);

    const broken = fetchBatchBody(target, 'b1', undefined, deps(reader.fetchReading({ kind: 'digest', saveTo })));
    await tick();
    answer({ type: 'done', kind: 'fetch', id: posted[1]!.message.id, answer: service({ status: 200, bodyId: 10, read: { error: 'The batch answered with something that is not JSON.' } }) });
    await expect(reader.digest(await broken, null, saveTo)).rejects.toThrow(new InvalidResponseError('The batch answered with something that is not JSON.'));
  });
});
