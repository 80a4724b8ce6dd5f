import { describe, expect, it, vi } from 'vitest';
import type { ServiceRequest } from './results-protocol';
import { KEPT_BODIES, NoAnswerError, ServiceFetcher, withChunkRows } from './service-fetch';

const get = (url = 'https://api.example.com/api/v1/shipments/imports/b1'): ServiceRequest => ({ url, method: 'GET', headers: { authorization: 'Bearer k' }, body: null });
const bytes = (text: string) => new TextEncoder().encode(text).buffer;
const text = (buffer: ArrayBuffer) => new TextDecoder().decode(buffer);

describe('ServiceFetcher', () => {
  it('keeps a 2xx body for one reading and answers with the status and headers only', async () => {
    const fetcher = new ServiceFetcher(() => Promise.resolve(new Response('{"id":"b1"}', { status: 202, headers: { 'X-RateLimit-Remaining': '19' } })));
    const answer = await fetcher.fetch(1, get());
    expect(answer).toMatchObject({ status: 202, text: null, cutOff: null });
    expect(answer.headers).toContainEqual(['x-ratelimit-remaining', '19']);
    expect(text(fetcher.take({ bodyId: answer.bodyId! }))).toBe('{"id":"b1"}');
    expect(() => fetcher.take({ bodyId: answer.bodyId! })).toThrow(/no longer held by the batch reader/);
  });

  it('sends any other status back as text, keeping nothing', async () => {
    const fetcher = new ServiceFetcher(() => Promise.resolve(new Response('{"errors":[{"code":"too_large"}]}', { status: 413 })));
    await expect(fetcher.fetch(1, get())).resolves.toMatchObject({ status: 413, bodyId: null, text: '{"errors":[{"code":"too_large"}]}' });
  });

  it('says no answer came when the request failed, and that the answer was cut off when its body broke', async () => {
    const refused = new ServiceFetcher(() => Promise.reject(new TypeError('fetch failed')));
    await expect(refused.fetch(1, get())).rejects.toThrow(NoAnswerError);
    const broken = new ReadableStream({ start: (controller) => controller.error(new TypeError('terminated')) });
    const cut = new ServiceFetcher(() => Promise.resolve(new Response(broken, { status: 200 })));
    await expect(cut.fetch(2, get())).resolves.toMatchObject({ status: 200, bodyId: null, cutOff: 'terminated' });
  });

  it('builds the multipart form from its entries, file name and all, and passes the headers on', async () => {
    const fetchImpl = vi.fn((..._args: Parameters<typeof fetch>) => Promise.resolve(new Response('{}', { status: 202 })));
    const file = new File(['tracking_number\r\nMSCU1234566'], 'drop-part-1.csv', { type: 'text/csv' });
    await new ServiceFetcher(fetchImpl).fetch(1, { url: 'https://x/api/v1/shipments/imports/file', method: 'POST', headers: { 'idempotency-key': 'j:0' }, body: { form: [['file', file]] } });
    const [url, init] = fetchImpl.mock.calls[0]!;
    expect(url).toBe('https://x/api/v1/shipments/imports/file');
    expect(init).toMatchObject({ method: 'POST', headers: { 'idempotency-key': 'j:0' } });
    const sent = (init!.body as FormData).get('file') as File;
    expect(sent.name).toBe('drop-part-1.csv');
    expect(await sent.text()).toBe('tracking_number\r\nMSCU1234566');
  });

  it('stops a request the page gave up', async () => {
    let seen: AbortSignal | undefined;
    const fetcher = new ServiceFetcher((_url, init) => {
      seen = init?.signal ?? undefined;
      return new Promise((_resolve, reject) => seen!.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
    });
    const answer = fetcher.fetch(7, get());
    fetcher.abort(7);
    await expect(answer).rejects.toThrow(NoAnswerError);
    expect(seen?.aborted).toBe(true);
  });

  it(`keeps at most ${KEPT_BODIES} unread bodies, dropping the oldest`, async () => {
    let n = 0;
    const fetcher = new ServiceFetcher(() => Promise.resolve(new Response(String(++n), { status: 200 })));
    const ids: number[] = [];
    for (let i = 0; i <= KEPT_BODIES; i++) ids.push((await fetcher.fetch(i, get())).bodyId!);
    expect(() => fetcher.take({ bodyId: ids[0]! })).toThrow(/no longer held/);
    expect(text(fetcher.take({ bodyId: ids[1]! }))).toBe('2');
    expect(text(fetcher.take(bytes('sent by the page')))).toBe('sent by the page');
  });

  it('reads a 2xx body in the same request when asked, keeping nothing, and says why it could not', async () => {
    const fetcher = new ServiceFetcher(() => Promise.resolve(new Response('{"id":"b1"}', { status: 202 })));
    const read = await fetcher.fetch(1, get(), (body) => Promise.resolve({ headline: { id: (JSON.parse(text(body)) as { id: string }).id, status: 'processing', total: 1, completed: 0, failureReason: null } }));
    expect(read).toMatchObject({ status: 202, read: { headline: { id: 'b1' } } });
    expect(() => fetcher.take({ bodyId: read.bodyId! })).toThrow(/no longer held/);
    const unreadable = await fetcher.fetch(2, get(), () => Promise.reject(new Error('The import answered with something that is not JSON.')));
    expect(unreadable).toMatchObject({ status: 202, cutOff: null, read: { error: 'The import answered with something that is not JSON.' } });
    // A refusal is not read: its text goes back as it is.
    const refused = await new ServiceFetcher(() => Promise.resolve(new Response('no', { status: 400 }))).fetch(3, get(), () => Promise.reject(new Error('read')));
    expect(refused).toMatchObject({ status: 400, text: 'no', bodyId: null });
    expect(refused.read).toBeUndefined();
  });
});

describe('withChunkRows', () => {
  const post = { url: 'https://x/api/v1/shipments/imports/file', method: 'POST', headers: { accept: 'application/json' }, body: null };

  it('sends a CSV chunk as the form’s one part `file`, named, and a JSON list as JSON text', async () => {
    const csv = withChunkRows(post, { format: 'csv', csv: 'tracking_number\r\nMSCU1234566' }, 'march-part-1.csv');
    const [name, file] = (csv.body as { form: [string, File][] }).form[0]!;
    expect(name).toBe('file');
    expect(file.name).toBe('march-part-1.csv');
    expect(await file.text()).toBe('tracking_number\r\nMSCU1234566');
    const list = withChunkRows({ ...post, url: 'https://x/api/v1/shipments/imports' }, { format: 'json', requests: [{ tracking_number: 'X1' }] }, 'unused.csv');
    expect(list.body).toEqual({ text: '[{"tracking_number":"X1"}]' });
    expect(list.headers).toEqual({ accept: 'application/json', 'Content-Type': 'application/json' });
  });
});
