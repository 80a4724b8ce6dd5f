// The team history learns from the imports that pass through the console's server, not only from
// the sending browser: each import names its job and chunk in its Idempotency-Key
// (`<job id>:<chunk id>`, jobs/runner/submit-queue.ts), and a 2xx answer names the batch. So a job whose
// tab closed right after an import still shows the batch it became.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { IDEMPOTENCY_KEY_HEADER } from '../../contract/idempotency';
import type { ConsoleStore } from './console-store';
import type { WorkspaceOf } from './workspace-identity';

const IMPORT_PATHS = new Set(['/api/v1/shipments/imports', '/api/v1/shipments/imports/', '/api/v1/shipments/imports/file', '/api/v1/shipments/imports/file/']);
const CHUNK_KEY = /^([A-Za-z0-9-]{8,64}):(\d{1,7})$/;

/** The job and chunk an import request names, or null when it is no import or names none. */
export function importedChunk(request: Pick<FastifyRequest, 'method' | 'url' | 'headers'>): { jobId: string; chunkId: number } | null {
  if (request.method !== 'POST' || !IMPORT_PATHS.has(request.url.split('?')[0] ?? '')) return null;
  const key = request.headers[IDEMPOTENCY_KEY_HEADER.toLowerCase()];
  const match = typeof key === 'string' ? CHUNK_KEY.exec(key) : null;
  return match ? { jobId: match[1]!, chunkId: Number(match[2]) } : null;
}

/** The batch id of an import's answer, or null when the body is not a batch. */
export function batchIdOf(body: string): string | null {
  try {
    const batch = JSON.parse(body) as { id?: unknown };
    return typeof batch.id === 'string' && batch.id.length > 0 && batch.id.length <= 200 ? batch.id : null;
  } catch {
    return null;
  }
}

export type ImportAnswerObserver = (request: FastifyRequest, status: number, body: () => Promise<string>) => void;

/** Records an accepted chunk on the workspace's team job, if the history holds that job. */
export function importObserver(store: ConsoleStore, workspaceOf: WorkspaceOf, now: () => number = Date.now): ImportAnswerObserver {
  return (request, status, body) => {
    const chunk = status >= 200 && status < 300 ? importedChunk(request) : null;
    const workspace = chunk ? workspaceOf(request) : null;
    if (!chunk || workspace === null) return;
    void body()
      .then((text) => {
        const batchId = batchIdOf(text);
        if (batchId !== null) store.recordAcceptedChunk(workspace, chunk.jobId, chunk.chunkId, batchId, now());
      })
      .catch((error: unknown) => request.log.warn({ err: error }, 'the team history could not read an import answer'));
  };
}

/** Sandbox mode: the service's answers are built in this process, their bodies already text. */
export function observeLocalImports(app: FastifyInstance, observe: ImportAnswerObserver): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    if (importedChunk(request) && (typeof payload === 'string' || Buffer.isBuffer(payload))) {
      const text = payload.toString();
      observe(request, reply.statusCode, () => Promise.resolve(text));
    }
    done(null, payload);
  });
}
