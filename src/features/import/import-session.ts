// The page's side of the import worker: one request, one promise, typed by the request's kind
// (import-protocol pairs each kind with its answer), through the one worker client. Cancel
// terminates the worker outright (a parse in progress cannot be interrupted otherwise); the next
// request starts a fresh one.
import { WorkerClient } from '../../jobs/thread/worker-client';
import type { ImportAnswers, ImportRequestKind, ImportRequests } from '../../workers/import-protocol';

export class CancelledError extends Error {
  override name = 'CancelledError';
  constructor() {
    super('Reading was cancelled.');
  }
}

export class ImportSession {
  private readonly client: WorkerClient<ImportRequests, ImportAnswers>;

  constructor(createWorker: () => Worker = () => new Worker(new URL('../../workers/import-worker.ts', import.meta.url), { type: 'module', name: 'import' })) {
    this.client = new WorkerClient<ImportRequests, ImportAnswers>({
      create: createWorker,
      name: 'file reader',
      // An error before any answer without a message is a script that never loaded, not the file.
      stopped: (message, { answered }) =>
        new Error(
          !answered && !message
            ? 'The file reader could not be started (the console’s server may be unreachable). The file was not read; try again.'
            : `The file reader stopped unexpectedly${message ? `: ${message}` : ''}.`,
        ),
    });
  }

  request<K extends ImportRequestKind>(kind: K, body: ImportRequests[K], onProgress?: (fraction: number) => void): Promise<ImportAnswers[K]> {
    return this.client.request(kind, body, onProgress);
  }

  /**
   * A request for the worker now running, answered or not: none is started for it. For a hint
   * whose point goes with the worker (hold-check), which after a cancel must not start another.
   */
  tell<K extends ImportRequestKind>(kind: K, body: ImportRequests[K]): void {
    if (this.client.running) this.client.request(kind, body).catch(() => undefined);
  }

  /** Starts the file reader now, so a file dropped later is read without waiting for its start. */
  warm(): void {
    this.client.warm();
  }

  /** Stops whatever the worker is doing; pending requests reject with CancelledError. */
  cancel(): void {
    this.client.terminate(new CancelledError());
  }
}
