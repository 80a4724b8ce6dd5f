// POST /api/v1/shipments/imports/file: one multipart part `file` (CSV, XLS or XLSX), read with
// the shared spreadsheet reader, becomes a batch; 202 like the list import. The upload is
// streamed and cut off at SANDBOX_MAX_FILE_BYTES.
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { errorBody, type ErrorBody } from '../../contract/error-body';
import { REQUIRED_FILE_HEADERS } from '../../contract/import-file';
import { readTable, SpreadsheetReadError, type TableReadResult } from '../../spreadsheet/read-table';
import type { SubmittedRow } from '../store/batches';
import type { SandboxServices } from './services';

const STATUS_OF_READ_ERROR = { unsupported_file: 415, invalid_file: 422, too_large: 413 } as const;

function fileError(reply: FastifyReply, status: number, body: ErrorBody) {
  return reply.code(status).send(body);
}

/** Problems with the header row: required columns missing, or a column named twice. */
function headerProblems(headers: readonly string[]): ErrorBody['errors'] {
  const missing = REQUIRED_FILE_HEADERS.filter((required) => !headers.includes(required)).map((header) => ({
    code: 'invalid_file' as const,
    message: `The file has no ${header} column; the first row must name it exactly (headers are case-sensitive).`,
    target: header,
  }));
  const twice = headers
    .filter((header, index) => header !== '' && headers.indexOf(header) !== index)
    .map((header) => ({ code: 'invalid_file' as const, message: `The column ${header} appears more than once in the header row.`, target: header }));
  return [...missing, ...twice];
}

function submittedRows(table: TableReadResult): SubmittedRow[] {
  const headers = (table.rows[0] ?? []).map((header) => header.trim());
  return table.rows.slice(1).map((cells) => {
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

export function registerFileImport(api: FastifyInstance, { batches, processor, config }: SandboxServices): void {
  api.post('/shipments/imports/file', { config: { rateLimitBucket: 'import_file' } }, async (request, reply) => {
    let part: MultipartFile | undefined;
    try {
      part = request.isMultipart() ? await request.file() : undefined;
    } catch {
      part = undefined;
    }
    if (!part || part.fieldname !== 'file') {
      const found = part ? `a part named "${part.fieldname}"` : 'no file part';
      return fileError(reply, 400, errorBody('bad_request', `Send the file as multipart/form-data in a part named "file"; this request has ${found}.`));
    }

    let bytes: Buffer;
    try {
      bytes = await part.toBuffer();
    } catch (error) {
      if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
        return fileError(reply, 413, errorBody('too_large', `The file is larger than ${config.maxFileBytes} bytes, the most one import takes.`, 'file'));
      }
      return fileError(reply, 400, errorBody('bad_request', 'The upload broke off before the whole file arrived.', 'file'));
    }

    let table: TableReadResult;
    try {
      table = await readTable(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), part.filename, {
        limits: { maxRows: config.maxBatchRows },
      });
    } catch (error) {
      if (error instanceof SpreadsheetReadError) {
        return fileError(reply, STATUS_OF_READ_ERROR[error.code], errorBody(error.code, error.message, 'file'));
      }
      request.log.warn({ err: error }, 'file import: reader failed');
      return fileError(reply, 422, errorBody('invalid_file', 'The file could not be read as CSV, XLS or XLSX.', 'file'));
    }

    const problems = headerProblems((table.rows[0] ?? []).map((header) => header.trim()));
    const [first, ...rest] = problems;
    if (first) return fileError(reply, 422, { errors: [first, ...rest] });
    const rows = submittedRows(table);
    if (rows.length === 0) {
      return fileError(reply, 422, errorBody('invalid_file', 'The file has a header row but no shipment rows under it.', 'file'));
    }
    if (rows.length > config.maxBatchRows) {
      return fileError(reply, 413, errorBody('too_large', `The file has ${rows.length} rows; one import takes at most ${config.maxBatchRows}.`, 'file'));
    }

    const { seq, batch } = batches.create(request.workspaceId, 'file', rows);
    processor.start(seq);
    return reply.code(202).send(batch);
  });
}
