// Import batches and their result items. Items keep the submitted row (`input`) so that a
// batch left `processing` by a restart picks up at its first unprocessed row.
import { randomUUID } from 'node:crypto';
import type { Batch, ResultItem, RowProblem } from '../../../contract/batch';
import type { Db } from './open-store';

export type BatchSource = 'list' | 'file';

/** What the 202 response shows of a row before it is processed: its values as submitted. */
export interface SubmittedRow {
  input: unknown;
  reference: string | null;
  trackingNumber: string;
  trackingType: string;
  carrierScac: string | null;
  name: string | null;
}

export interface BatchHeader {
  seq: number;
  id: string;
  workspaceId: string;
  source: BatchSource;
  status: string;
}

export interface PendingItem {
  position: number;
  rowNumber: number;
  input: unknown;
}

export interface TrackingItem {
  position: number;
  shipmentId: string;
}

/** The processed row; null reference, carrier or name keep the values as submitted. */
export interface ItemOutcome {
  creationStatus: 'created' | 'updated' | 'failed';
  trackingStatus: 'processing' | 'succeeded' | 'failed';
  shipmentId: string | null;
  reference: string | null;
  carrierScac: string | null;
  name: string | null;
  errors: RowProblem[];
  warnings: RowProblem[];
  trackingDueAt: number | null;
}

/**
 * An import's Idempotency-Key with a digest of its request: a batch created under it is
 * remembered for `retentionMs` in its workspace, and a repeat in that time gets the batch back.
 */
export interface IdempotentRequest {
  key: string;
  requestHash: string;
  now: number;
  retentionMs: number;
}

/** What an earlier request under the same key left: nothing, the same request's batch, or a different request. */
export type KeyLookup = { kind: 'new' } | { kind: 'same'; seq: number; batch: Batch } | { kind: 'different'; batchId: string };

interface BatchRow {
  seq: number;
  id: string;
  workspace_id: string;
  source: BatchSource;
  status: string;
  created_at: string;
  total_requests: number;
  completed_requests: number;
  failure_reason: string | null;
}

/** Item columns in insert order; ITEMS_PER_INSERT rows go in one statement (fewer round trips into SQLite). */
const ITEM_COLUMNS = ['batch_seq', 'position', 'id', 'row_number', 'input', 'reference', 'tracking_type', 'tracking_number', 'carrier_scac', 'name'] as const;
const ITEMS_PER_INSERT = 200;

function insertItemsSql(rows: number): string {
  const tuple = `(${ITEM_COLUMNS.map(() => '?').join(', ')}, 'processing', 'processing')`;
  return `INSERT INTO result_items (${ITEM_COLUMNS.join(', ')}, creation_status, tracking_status) VALUES ${Array.from({ length: rows }, () => tuple).join(', ')}`;
}

/**
 * A batch's result items as one JSON array, built by SQLite: one string and one JSON.parse
 * instead of 5,000 row objects and 10,000 small parses, so a 5,000-row batch is read (for the
 * 202 answer and every poll) in a fraction of the time the event loop was held before.
 */
const ITEMS_JSON_SQL = `SELECT json_group_array(json_object(
    'id', id, 'row_number', row_number, 'reference', reference, 'tracking_type', tracking_type,
    'tracking_number', tracking_number, 'carrier_scac', carrier_scac, 'name', name,
    'creation_status', creation_status, 'tracking_status', tracking_status, 'shipment_id', shipment_id,
    'errors', json(errors), 'warnings', json(warnings)) ORDER BY position) AS items
  FROM result_items WHERE batch_seq = ?`;

export class BatchStore {
  private readonly statements;

  constructor(private readonly db: Db) {
    this.statements = {
      insertBatch: db.prepare(
        `INSERT INTO batches (id, workspace_id, source, status, created_at, total_requests)
         VALUES (@id, @workspace_id, @source, 'processing', @created_at, @total)`,
      ),
      insertItems: db.prepare(insertItemsSql(ITEMS_PER_INSERT)),
      byId: db.prepare<[string, string], BatchRow>('SELECT * FROM batches WHERE workspace_id = ? AND id = ?'),
      bySeq: db.prepare<[number], BatchRow>('SELECT * FROM batches WHERE seq = ?'),
      itemsJson: db.prepare<[number], { items: string }>(ITEMS_JSON_SQL),
      processing: db.prepare<[], { seq: number }>("SELECT seq FROM batches WHERE status = 'processing' ORDER BY seq"),
      pendingCreation: db.prepare<[number, number], { position: number; row_number: number; input: string }>(
        "SELECT position, row_number, input FROM result_items WHERE batch_seq = ? AND creation_status = 'processing' ORDER BY position LIMIT ?",
      ),
      recordOutcome: db.prepare(
        `UPDATE result_items SET creation_status = @creation_status, tracking_status = @tracking_status, shipment_id = @shipment_id,
           reference = coalesce(@reference, reference), carrier_scac = coalesce(@carrier_scac, carrier_scac),
           name = coalesce(@name, name), errors = @errors, warnings = @warnings,
           tracking_due_at = @tracking_due_at
         WHERE batch_seq = @batch_seq AND position = @position`,
      ),
      countCompleted: db.prepare<[number]>('UPDATE batches SET completed_requests = completed_requests + 1 WHERE seq = ?'),
      nextTrackingDue: db.prepare<[number], { due: number | null }>(
        "SELECT min(tracking_due_at) AS due FROM result_items WHERE batch_seq = ? AND tracking_status = 'processing' AND creation_status != 'processing'",
      ),
      dueTracking: db.prepare<[number, number], { position: number; shipment_id: string }>(
        `SELECT position, shipment_id FROM result_items
         WHERE batch_seq = ? AND tracking_status = 'processing' AND creation_status != 'processing' AND tracking_due_at <= ?
         ORDER BY position`,
      ),
      finishTracking: db.prepare<[string, number, number]>(
        'UPDATE result_items SET tracking_status = ?, tracking_due_at = NULL WHERE batch_seq = ? AND position = ?',
      ),
      pendingTrackingShipments: db.prepare<[number], { shipment_id: string }>(
        "SELECT shipment_id FROM result_items WHERE batch_seq = ? AND tracking_status = 'processing' AND creation_status != 'processing'",
      ),
      failUnprocessed: db.prepare<[string, number]>(
        "UPDATE result_items SET creation_status = 'failed', tracking_status = 'failed', errors = ? WHERE batch_seq = ? AND creation_status = 'processing'",
      ),
      failPendingTracking: db.prepare<[number]>(
        "UPDATE result_items SET tracking_status = 'failed', tracking_due_at = NULL WHERE batch_seq = ? AND tracking_status = 'processing'",
      ),
      findKey: db.prepare<[string, string, number], { request_hash: string; batch_seq: number }>(
        'SELECT request_hash, batch_seq FROM idempotency_keys WHERE workspace_id = ? AND key = ? AND created_at > ?',
      ),
      forgetKey: db.prepare<[string, string]>('DELETE FROM idempotency_keys WHERE workspace_id = ? AND key = ?'),
      forgetOldKeys: db.prepare<[number]>('DELETE FROM idempotency_keys WHERE created_at <= ?'),
      rememberKey: db.prepare(
        `INSERT INTO idempotency_keys (workspace_id, key, request_hash, batch_seq, created_at)
         VALUES (@workspace_id, @key, @request_hash, @batch_seq, @created_at)`,
      ),
      finish: db.prepare<[string, string | null, number]>(
        'UPDATE batches SET status = ?, failure_reason = ?, completed_requests = total_requests WHERE seq = ?',
      ),
    };
  }

  /** What an import under `request.key` finds in the workspace; keys past their retention are forgotten first. */
  lookupKey(workspaceId: string, request: IdempotentRequest): KeyLookup {
    return this.db.transaction((): KeyLookup => {
      const since = request.now - request.retentionMs;
      this.statements.forgetOldKeys.run(since);
      const found = this.statements.findKey.get(workspaceId, request.key, since);
      const header = found && this.header(found.batch_seq);
      if (!found || !header) return { kind: 'new' };
      if (found.request_hash !== request.requestHash) return { kind: 'different', batchId: header.id };
      const batch = this.get(workspaceId, header.id);
      return batch ? { kind: 'same', seq: found.batch_seq, batch } : { kind: 'new' };
    })();
  }

  /**
   * A new batch of `rows`. With an Idempotency-Key, the key is looked up and stored in the same
   * transaction, so two requests under one key racing each other still make one batch: the
   * second gets the first's lookup instead.
   */
  create(
    workspaceId: string,
    source: BatchSource,
    rows: readonly SubmittedRow[],
    idempotent?: IdempotentRequest,
  ): { kind: 'created'; seq: number; batch: Batch } | Exclude<KeyLookup, { kind: 'new' }> {
    const id = randomUUID();
    const made = this.db.transaction((): number | Exclude<KeyLookup, { kind: 'new' }> => {
      if (idempotent) {
        const earlier = this.lookupKey(workspaceId, idempotent);
        if (earlier.kind !== 'new') return earlier;
        this.statements.forgetKey.run(workspaceId, idempotent.key); // an expired row, or one whose batch is gone
      }
      const { lastInsertRowid } = this.statements.insertBatch.run({
        id,
        workspace_id: workspaceId,
        source,
        created_at: new Date().toISOString(),
        total: rows.length,
      });
      const batchSeq = Number(lastInsertRowid);
      for (let from = 0; from < rows.length; from += ITEMS_PER_INSERT) {
        const slice = rows.slice(from, from + ITEMS_PER_INSERT);
        const values = slice.flatMap((row, i) => [
          batchSeq,
          from + i,
          randomUUID(),
          from + i + 1,
          JSON.stringify(row.input),
          row.reference,
          row.trackingType,
          row.trackingNumber,
          row.carrierScac,
          row.name,
        ]);
        const statement = slice.length === ITEMS_PER_INSERT ? this.statements.insertItems : this.db.prepare(insertItemsSql(slice.length));
        statement.run(values);
      }
      if (idempotent) {
        this.statements.rememberKey.run({
          workspace_id: workspaceId,
          key: idempotent.key,
          request_hash: idempotent.requestHash,
          batch_seq: batchSeq,
          created_at: idempotent.now,
        });
      }
      return batchSeq;
    })();
    if (typeof made !== 'number') return made;
    const batch = this.get(workspaceId, id);
    if (!batch) throw new Error(`batch ${id} vanished`);
    return { kind: 'created', seq: made, batch };
  }

  get(workspaceId: string, id: string): Batch | undefined {
    return this.db.transaction(() => {
      const row = this.statements.byId.get(workspaceId, id);
      if (!row) return undefined;
      return {
        id: row.id,
        status: row.status,
        created_at: row.created_at,
        total_requests: row.total_requests,
        completed_requests: row.completed_requests,
        failure_reason: row.failure_reason,
        results: JSON.parse(this.statements.itemsJson.get(row.seq)?.items ?? '[]') as ResultItem[],
      };
    })();
  }

  findSeq(workspaceId: string, id: string): number | undefined {
    return this.statements.byId.get(workspaceId, id)?.seq;
  }

  header(seq: number): BatchHeader | undefined {
    const row = this.statements.bySeq.get(seq);
    return row && { seq: row.seq, id: row.id, workspaceId: row.workspace_id, source: row.source, status: row.status };
  }

  processingSeqs(): number[] {
    return this.statements.processing.all().map((row) => row.seq);
  }

  pendingCreation(batchSeq: number, limit: number): PendingItem[] {
    return this.statements.pendingCreation.all(batchSeq, limit).map((row) => ({
      position: row.position,
      rowNumber: row.row_number,
      input: JSON.parse(row.input) as unknown,
    }));
  }

  recordOutcome(batchSeq: number, position: number, outcome: ItemOutcome): void {
    this.statements.recordOutcome.run({
      batch_seq: batchSeq,
      position,
      creation_status: outcome.creationStatus,
      tracking_status: outcome.trackingStatus,
      shipment_id: outcome.shipmentId,
      reference: outcome.reference,
      carrier_scac: outcome.carrierScac,
      name: outcome.name,
      errors: JSON.stringify(outcome.errors),
      warnings: JSON.stringify(outcome.warnings),
      tracking_due_at: outcome.trackingDueAt,
    });
    if (outcome.trackingStatus !== 'processing') this.statements.countCompleted.run(batchSeq);
  }

  nextTrackingDue(batchSeq: number): number | null {
    return this.statements.nextTrackingDue.get(batchSeq)?.due ?? null;
  }

  dueTracking(batchSeq: number, now: number): TrackingItem[] {
    return this.statements.dueTracking.all(batchSeq, now).map((row) => ({ position: row.position, shipmentId: row.shipment_id }));
  }

  finishTracking(batchSeq: number, position: number, succeeded: boolean): void {
    this.statements.finishTracking.run(succeeded ? 'succeeded' : 'failed', batchSeq, position);
    this.statements.countCompleted.run(batchSeq);
  }

  complete(batchSeq: number): void {
    this.statements.finish.run('completed', null, batchSeq);
  }

  /**
   * Ends a batch that cannot go on: rows not yet processed fail with `unprocessedError`, pending
   * tracking fails; returns the shipments whose tracking was cut short.
   */
  fail(batchSeq: number, reason: string, unprocessedError: RowProblem): string[] {
    const cutShort = this.statements.pendingTrackingShipments.all(batchSeq).map((row) => row.shipment_id);
    this.statements.failUnprocessed.run(JSON.stringify([unprocessedError]), batchSeq);
    this.statements.failPendingTracking.run(batchSeq);
    this.statements.finish.run('failed', reason, batchSeq);
    return cutShort;
  }
}
