// POST /api/v1/shipments/imports/file: exactly one multipart part `file` (CSV, XLS or XLSX), read
// with the shared spreadsheet reader in the parse pool's worker threads, becomes a batch; 202
// like the list import. The upload is streamed and cut off at SANDBOX_MAX_FILE_BYTES. With an
// Idempotency-Key, a repeat of the same file within SANDBOX_IDEMPOTENCY_HOURS gets the first
// batch back without being parsed again (src/server/README.md, "Idempotency keys").
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody, type ErrorBody } from '../../../contract/error-body';
import { REQUIRED_FILE_HEADERS } from '../../../contract/import-file';
import type { TableLimits } from '../../../spreadsheet/table-limits';
import type { KeyLookup, SubmittedRow } from '../store/batches';
import { readIdempotencyKey, REPLAYED_HEADER, repeatAnswer } from '../store/idempotency';
import type { SandboxServices } from './services';

/**
 * The reader's caps in the sandbox: rows from SANDBOX_MAX_BATCH_ROWS; the rest tighter than the
 * browser's, since one batch holds at most a few thousand rows and a refusal must come within
 * seconds on a busy machine (src/server/README.md, "Limits and hostile files").
 */
function sandboxTableLimits(maxBatchRows: number): Partial<TableLimits> {
  return {
    maxRows: maxBatchRows,
    maxPartBytes: 64 * 1024 * 1024,
    maxSharedStrings: 1_000_000,
    maxSharedStringChars: 16 * 1024 * 1024,
    maxRowXmlChars: 4 * 1024 * 1024,
  };
}

function fileError(reply: FastifyReply, status: number, body: ErrorBody) {
  return reply.code(status).send(body);
}

function answerRepeat(reply: FastifyReply, lookup: Exclude<KeyLookup, { kind: 'new' }>, retentionMs: number) {
  const answer = repeatAnswer(lookup, retentionMs);
  if (answer.status === 202) reply.header(REPLAYED_HEADER, 'true');
  return reply.code(answer.status).send(answer.body);
}

/** Problems with the header row: required columns missing, or a column named twice. */
function headerProblems(headers: readonly string[]): ErrorBody['errors'] {
  const missing = REQUIRED_FILE_HEADERS.filter((required) => !headers.includes(required)).map((header) => ({
    code: 'invalid_file' as const,
    message: `The file has no ${header} column; the first row must name it exactly (headers are case-sensitive).`,
    target: header,
  }));
  // One pass with a set: indexOf per column was 25 million comparisons for a 5,000-column header,
  // 120 ms of the event loop.
  const seen = new Set<string>();
  const twice = headers
    .filter((header) => {
      const again = header !== '' && seen.has(header);
      seen.add(header);
      return again;
    })
    .map((header) => ({ code: 'invalid_file' as const, message: `The column ${header} appears more than once in the header row.`, target: header }));
  return [...missing, ...twice];
}

function submittedRows(table: string[][]): SubmittedRow[] {
  const headers = (table[0] ?? []).map((header) => header.trim());
  return table.slice(1).map((cells) => {
    const input: Record<string, string> = {};
    headers.forEach((header, column) => {
      if (header !== '') input[header] = cells[column] ?? '';
    });
    const cell = (header: string) => input[header]?.trim() || null;
    return {
      input,
      reference: cell('reference'),
      trackingNumber: input.tracking_number ?? '',
      trackingType: input.tracking_type ?? '',
      carrierScac: cell('carrier')?.toUpperCase() ?? null,
      name: cell('name'),
    };
  });
}

type UploadRead = { ok: true; chunks: Uint8Array[]; fileName: string } | { ok: false; status: 400 | 413; body: ErrorBody };

/**
 * The file part's bytes as they arrive, each chunk copied into a buffer of its own (tens of KB at
 * a time), so the parse pool can transfer them to a worker as they are. Gathering a 10 MB upload
 * into one Buffer and copying it again for the transfer held the event loop 100–130 ms on a busy
 * machine (`npm run bench -- hostile`).
 */
const YIELD_EVERY_BYTES = 256 * 1024;

async function fileChunks(file: AsyncIterable<Buffer> & { truncated: boolean }): Promise<Uint8Array[]> {
  const chunks: Uint8Array[] = [];
  let sinceYield = 0;
  for await (const chunk of file) {
    if (file.truncated) throw Object.assign(new Error('file too large'), { code: 'FST_REQ_FILE_TOO_LARGE' });
    chunks.push(new Uint8Array(chunk));
    // A turn of the loop to other requests every 256 KB: meanwhile the part's stream fills, busboy
    // and the socket pause (backpressure), so no single turn parses megabytes of a fast upload.
    sinceYield += chunk.byteLength;
    if (sinceYield >= YIELD_EVERY_BYTES) {
      sinceYield = 0;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  if (file.truncated) throw Object.assign(new Error('file too large'), { code: 'FST_REQ_FILE_TOO_LARGE' });
  return chunks;
}

const ONE_FILE_PART = 'Send the file as multipart/form-data in exactly one part named "file"';

/** Reads every part of the request: exactly one file part, named `file`, is accepted. */
async function readUpload(request: FastifyRequest, maxFileBytes: number): Promise<UploadRead> {
  if (!request.isMultipart()) return { ok: false, status: 400, body: errorBody('bad_request', `${ONE_FILE_PART}; this request is not multipart.`) };
  let upload: { chunks: Uint8Array[]; fileName: string } | null = null;
  const names: string[] = [];
  try {
    for await (const part of request.parts()) {
      if (part.type !== 'file') continue;
      names.push(part.fieldname);
      if (part.fieldname !== 'file' || upload !== null) {
        part.file.resume(); // drained, not kept
        continue;
      }
      upload = { chunks: await fileChunks(part.file), fileName: part.filename };
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') {
      return { ok: false, status: 413, body: errorBody('too_large', `The file is larger than ${maxFileBytes} bytes, the most one import takes.`, 'file') };
    }
    if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') {
      return { ok: false, status: 400, body: errorBody('bad_request', `${ONE_FILE_PART}; this request has too many parts.`) };
    }
    return { ok: false, status: 400, body: errorBody('bad_request', 'The upload broke off before the whole file arrived.', 'file') };
  }
  if (names.length !== 1 || upload === null) {
    const found = names.length === 0 ? 'no file part' : `${names.length} file parts (${names.map((name) => `"${name}"`).join(', ')})`;
    return { ok: false, status: 400, body: errorBody('bad_request', `${ONE_FILE_PART}; this request has ${found}.`) };
  }
  return { ok: true, ...upload };
}

export function registerFileImport(api: FastifyInstance, { batches, processor, config, parsePool }: SandboxServices): void {
  api.post('/shipments/imports/file', { config: { rateLimitBucket: 'import_file' } }, async (request, reply) => {
    const upload = await readUpload(request, config.maxFileBytes);
    if (!upload.ok) return fileError(reply, upload.status, upload.body);
    const key = readIdempotencyKey(request.headers['idempotency-key'], 'file', upload.chunks, Date.now(), config.idempotencyRetentionMs);
    if (!key.ok) return fileError(reply, 400, key.body);
    if (key.request) {
      // A repeat is answered before its file is parsed again.
      const earlier = batches.lookupKey(request.workspaceId, key.request);
      if (earlier.kind !== 'new') return answerRepeat(reply, earlier, config.idempotencyRetentionMs);
    }

    // A client that goes away stops its parse: the worker holding it is replaced.
    const gone = new AbortController();
    reply.raw.on('close', () => {
      if (!reply.raw.writableFinished) gone.abort();
    });
    if (request.raw.socket?.destroyed) gone.abort(); // gone while the upload was read: 'close' has passed
    const parsed = await parsePool.parse(upload.chunks, upload.fileName, sandboxTableLimits(config.maxBatchRows), gone.signal);
    if (!parsed.ok) {
      // An aborted parse has nobody to answer; the 400 is sent into a closed socket.
      if (parsed.code === 'aborted') return fileError(reply, 400, errorBody('bad_request', parsed.message));
      return fileError(reply, parsed.status, errorBody(parsed.code, parsed.message, 'file'));
    }

    const problems = headerProblems((parsed.rows[0] ?? []).map((header) => header.trim()));
    const [first, ...rest] = problems;
    if (first) return fileError(reply, 422, { errors: [first, ...rest] });
    const rows = submittedRows(parsed.rows);
    if (rows.length === 0) {
      return fileError(reply, 422, errorBody('invalid_file', 'The file has a header row but no shipment rows under it.', 'file'));
    }
    if (rows.length > config.maxBatchRows) {
      return fileError(reply, 413, errorBody('too_large', `The file has ${rows.length} rows; one import takes at most ${config.maxBatchRows}.`, 'file'));
    }

    const made = batches.create(request.workspaceId, 'file', rows, key.request ?? undefined);
    if (made.kind !== 'created') return answerRepeat(reply, made, config.idempotencyRetentionMs);
    processor.start(made.seq);
    return reply.code(202).send(made.batch);
  });
}
