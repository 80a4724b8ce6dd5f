// The Idempotency-Key of an import request (src/server/README.md, "Idempotency keys"): read and checked
// from the header, tied to a digest of what the request sends, and turned into the answer a
// repeat gets. The keys themselves live in the idempotency_keys table (batches.ts).
import { createHash } from 'node:crypto';
import type { Batch } from '../../../contract/batch';
import { errorBody, type ErrorBody } from '../../../contract/error-body';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_PATTERN } from '../../../contract/idempotency';
import type { BatchSource, IdempotentRequest, KeyLookup } from './batches';

export type KeyRead = { ok: true; request: IdempotentRequest | null } | { ok: false; body: ErrorBody };

/**
 * The request's key (none: null) with the digest of its endpoint and body. A key sent twice or
 * outside 1–255 visible ASCII characters is refused (400) rather than ignored: ignoring it would
 * give up the protection the caller asked for.
 */
export function readIdempotencyKey(
  header: string | string[] | undefined,
  source: BatchSource,
  body: readonly Uint8Array[] | string,
  now: number,
  retentionMs: number,
): KeyRead {
  if (header === undefined) return { ok: true, request: null };
  if (Array.isArray(header) || !IDEMPOTENCY_KEY_PATTERN.test(header)) {
    const problem = Array.isArray(header) ? `it was sent ${header.length} times` : `this one has ${header.length} characters`;
    return {
      ok: false,
      body: errorBody('bad_request', `The ${IDEMPOTENCY_KEY_HEADER} header must be sent once, 1 to 255 visible ASCII characters; ${problem}.`, IDEMPOTENCY_KEY_HEADER),
    };
  }
  const hash = createHash('sha256').update(`${source}\n`);
  for (const part of typeof body === 'string' ? [body] : body) hash.update(part);
  return { ok: true, request: { key: header, requestHash: hash.digest('hex'), now, retentionMs } };
}

/**
 * The answer to a repeat: the same request gets its batch again (202, as it stands now); a
 * different request under a key already used gets 422, since answering with a batch of other
 * rows would hide that these rows were not imported.
 */
export function repeatAnswer(lookup: Exclude<KeyLookup, { kind: 'new' }>, retentionMs: number): { status: 202; body: Batch } | { status: 422; body: ErrorBody } {
  if (lookup.kind === 'same') return { status: 202, body: lookup.batch };
  const hours = Math.round(retentionMs / 3_600_000);
  return {
    status: 422,
    body: errorBody(
      'bad_request',
      `This ${IDEMPOTENCY_KEY_HEADER} was used in the last ${hours} hours for a different import (batch ${lookup.batchId}); send these rows under a new key.`,
      IDEMPOTENCY_KEY_HEADER,
    ),
  };
}

/** Set on a repeat's answer, as Stripe does, so a log shows that no batch was created. */
export const REPLAYED_HEADER = 'Idempotent-Replayed';
