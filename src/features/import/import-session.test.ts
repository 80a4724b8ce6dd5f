import { describe, expect, it } from 'vitest';
import type { WorkerRequest, WorkerResponse } from '../../workers/import-protocol';
import { CancelledError, ImportSession } from './import-session';

/** A stand-in worker: answers each request with what `reply` returns, on the next tick. */
function fakeWorker(reply: (request: WorkerRequest) => WorkerResponse[]) {
  const worker = {
    onmessage: null as ((event: MessageEvent<WorkerResponse>) => void) | null,
    onerror: null as ((event: { message: string; preventDefault: () => void }) => void) | null,
    terminated: false,
    postMessage(request: WorkerRequest) {
      setTimeout(() => reply(request).forEach((data) => worker.onmessage?.({ data } as MessageEvent<WorkerResponse>)));
    },
    terminate() {
      worker.terminated = true;
    },
  };
  return worker;
}

describe('ImportSession', () => {
  it('resolves a request with the answer paired with its kind, reporting progress on the way', async () => {
    const session = new ImportSession(() =>
      fakeWorker((request) => [
        { type: 'progress', id: request.id, fraction: 0.5 },
        { type: 'done', kind: 'get-row', id: request.id, answer: { row: { index: 3, rowNumber: 5, values: [], issues: [], excluded: false }, version: 2 } },
      ]) as unknown as Worker,
    );
    const progress: number[] = [];
    const answer = await session.request('get-row', { row: 3 }, (fraction) => progress.push(fraction));
    expect(answer.row.rowNumber).toBe(5);
    expect(progress).toEqual([0.5]);
  });

  it('rejects with the worker’s sentence, and names an answer of the wrong kind', async () => {
    const failing = new ImportSession(() => fakeWorker((request) => [{ type: 'failed', id: request.id, message: 'The file is empty.' }]) as unknown as Worker);
    await expect(failing.request('reread', { options: {} })).rejects.toThrow('The file is empty.');
    const confused = new ImportSession(() => fakeWorker((request) => [{ type: 'done', kind: 'prepare', id: request.id, answer: { submission: {} as never } }]) as unknown as Worker);
    await expect(confused.request('reread', { options: {} })).rejects.toThrow('The file reader answered prepare to reread.');
  });

  it('tells a running worker, and starts none to tell: not before the first request, nor after a cancel', async () => {
    let started = 0;
    const told: string[] = [];
    const session = new ImportSession(() => {
      started++;
      const worker = fakeWorker((request) => {
        told.push(request.kind);
        return [{ type: 'done', kind: request.kind, id: request.id, answer: {} } as WorkerResponse];
      });
      return worker as unknown as Worker;
    });
    session.tell('hold-check', { forMs: 250 });
    expect(started).toBe(0);
    await session.request('hold-check', { forMs: 0 });
    session.tell('hold-check', { forMs: 250 });
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(told).toEqual(['hold-check', 'hold-check']);
    session.cancel();
    session.tell('hold-check', { forMs: 0 });
    expect(started).toBe(1);
  });

  it('cancel stops the worker and rejects what is pending with CancelledError', async () => {
    const worker = fakeWorker(() => []);
    const session = new ImportSession(() => worker as unknown as Worker);
    const pending = session.request('prepare', { chunkSize: 300 });
    session.cancel();
    await expect(pending).rejects.toBeInstanceOf(CancelledError);
    expect(worker.terminated).toBe(true);
  });

  it('a worker that failed is replaced: the next request starts a fresh one, and a reader that never loaded says so', async () => {
    const workers: ReturnType<typeof fakeWorker>[] = [];
    const session = new ImportSession(() => {
      const worker = fakeWorker((request) => [{ type: 'done', kind: 'get-row', id: request.id, answer: { row: { index: 0, rowNumber: 2, values: [], issues: [], excluded: false }, version: 1 } }]);
      workers.push(worker);
      return worker as unknown as Worker;
    });
    const first = session.request('prepare', { chunkSize: 300 });
    workers[0]!.onerror?.({ message: '', preventDefault: () => {} });
    await expect(first).rejects.toThrow('The file reader could not be started (the console’s server may be unreachable). The file was not read; try again.');
    expect(workers[0]!.terminated).toBe(true);
    const answer = await session.request('get-row', { row: 0 });
    expect(answer.row.rowNumber).toBe(2);
    expect(workers).toHaveLength(2);
  });

  it('warm starts the reader before the first file, and the first request uses that one; a reader that failed while waiting is started again by the first request', async () => {
    const workers: ReturnType<typeof fakeWorker>[] = [];
    const session = new ImportSession(() => {
      const worker = fakeWorker((request) => [{ type: 'done', kind: 'get-row', id: request.id, answer: { row: { index: 0, rowNumber: 2, values: [], issues: [], excluded: false }, version: 1 } }]);
      workers.push(worker);
      return worker as unknown as Worker;
    });
    session.warm();
    expect(workers).toHaveLength(1);
    expect((await session.request('get-row', { row: 0 })).row.rowNumber).toBe(2);
    expect(workers).toHaveLength(1);

    session.cancel();
    session.warm();
    workers[1]!.onerror?.({ message: '', preventDefault: () => {} });
    await expect(session.request('get-row', { row: 0 })).resolves.toMatchObject({ version: 1 });
    expect(workers).toHaveLength(3);
  });
});
