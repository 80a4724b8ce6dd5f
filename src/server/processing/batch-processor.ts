// Works through import batches in the background: one row per SANDBOX_ROW_DELAY_MS (or rows in
// slices when the delay is 0), each row in its own transaction so a restart never processes a
// row twice; then waits for slow tracking and ends the batch. close() stops every loop.
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { RowProblem } from '../../contract/batch';
import type { BatchHeader, BatchStore, ItemOutcome, PendingItem } from '../store/batches';
import type { Db } from '../store/open-store';
import type { ShipmentStore } from '../store/shipments';
import type { WorkspaceStore } from '../store/workspaces';
import { simulateTracking } from '../tracking/simulate';
import { testOutcome } from '../tracking/test-numbers';
import { checkFileRow, checkListRow, type RowContext } from './row-rules';

/** Rows per transaction when there is no delay: large enough to be fast, small enough to keep serving requests. */
const SLICE_ROWS = 250;

export interface ProcessorDeps {
  db: Db;
  batches: BatchStore;
  shipments: ShipmentStore;
  workspaces: WorkspaceStore;
  rowDelayMs: number;
  slowTrackingMs: number;
  /** SCACs the sandbox supports (SANDBOX_CARRIERS, see supported-carriers.ts). */
  supportedCarriers: ReadonlySet<string>;
  log: FastifyBaseLogger;
}

/** A row that failed before a shipment was made: no shipment, nothing tracked. */
function failedOutcome(errors: RowProblem[], warnings: RowProblem[]): ItemOutcome {
  return { creationStatus: 'failed', trackingStatus: 'failed', shipmentId: null, reference: null, carrierScac: null, name: null, errors, warnings, trackingDueAt: null };
}

export class BatchProcessor {
  private readonly abort = new AbortController();
  private readonly running = new Map<number, Promise<void>>();

  constructor(private readonly deps: ProcessorDeps) {}

  /** Starts processing a batch unless it is already being processed. */
  start(batchSeq: number): void {
    if (this.running.has(batchSeq) || this.abort.signal.aborted) return;
    const run = this.run(batchSeq)
      .catch((error: unknown) => {
        if (!this.abort.signal.aborted) this.deps.log.error({ err: error, batchSeq }, 'batch processing stopped');
      })
      .finally(() => this.running.delete(batchSeq));
    this.running.set(batchSeq, run);
  }

  /** Picks up batches left `processing` by an earlier run of the sandbox. */
  resume(): void {
    for (const seq of this.deps.batches.processingSeqs()) this.start(seq);
  }

  async close(): Promise<void> {
    this.abort.abort();
    await Promise.allSettled(this.running.values());
  }

  private async run(batchSeq: number): Promise<void> {
    const { batches, db, rowDelayMs } = this.deps;
    const batch = batches.header(batchSeq);
    if (!batch || batch.status !== 'processing') return;
    const context = this.rowContext(batch.workspaceId);
    const signal = this.abort.signal;

    for (;;) {
      const items = batches.pendingCreation(batchSeq, rowDelayMs > 0 ? 1 : SLICE_ROWS);
      if (items.length === 0) break;
      if (rowDelayMs > 0) await sleep(rowDelayMs, undefined, { signal });
      else await nextTurn(undefined, { signal });
      const stopped = db.transaction(() => items.some((item) => this.processRow(batch, item, context)))();
      if (stopped) return;
    }

    for (;;) {
      const due = batches.nextTrackingDue(batchSeq);
      if (due === null) break;
      await sleep(Math.max(0, due - Date.now()), undefined, { signal });
      db.transaction(() => this.finishDueTracking(batch))();
    }
    batches.complete(batchSeq);
  }

  private rowContext(workspaceId: string): RowContext {
    const { workspaces } = this.deps;
    return {
      members: new Set(workspaces.members(workspaceId).map((email) => email.toLowerCase())),
      customFields: new Map(workspaces.customFields(workspaceId).map((field) => [field.slug, field.type])),
      supportedCarriers: this.deps.supportedCarriers,
    };
  }

  /** Processes one row; returns true when the row stopped the batch. */
  private processRow(batch: BatchHeader, item: PendingItem, context: RowContext): boolean {
    const { batches, shipments, slowTrackingMs } = this.deps;
    const verdict = batch.source === 'list' ? checkListRow(item.input, context) : checkFileRow(item.input as Record<string, string>, context);
    if (!verdict.ok) {
      batches.recordOutcome(batch.seq, item.position, failedOutcome(verdict.errors, verdict.warnings));
      return false;
    }

    const { reference, changes } = verdict.row;
    const outcome = testOutcome(changes.trackingNumber);
    if (outcome === 'batch_failed') {
      this.failBatch(batch, item, changes.trackingNumber);
      return true;
    }

    const existing = reference === null ? undefined : shipments.findByReference(batch.workspaceId, reference);
    const key = existing ?? shipments.create(batch.workspaceId, reference, changes);
    if (existing) shipments.update(existing.seq, changes);
    shipments.linkToBatch(batch.seq, key.seq);

    const slow = outcome === 'slow_tracking';
    let trackingStatus: 'processing' | 'succeeded' | 'failed' = 'processing';
    if (slow) {
      shipments.markTrackingPending(key.seq);
    } else {
      const result = simulateTracking(changes.trackingNumber, changes.trackingType, changes.carrierScac, Date.now());
      shipments.recordTracking(key.seq, result);
      trackingStatus = result.ok ? 'succeeded' : 'failed';
    }
    batches.recordOutcome(batch.seq, item.position, {
      creationStatus: existing ? 'updated' : 'created',
      trackingStatus,
      shipmentId: key.id,
      reference,
      carrierScac: changes.carrierScac,
      name: changes.name ?? existing?.name ?? null,
      errors: [],
      warnings: verdict.warnings,
      trackingDueAt: slow ? Date.now() + slowTrackingMs : null,
    });
    return false;
  }

  private finishDueTracking(batch: BatchHeader): void {
    const { batches, shipments } = this.deps;
    for (const item of batches.dueTracking(batch.seq, Date.now())) {
      const shipment = shipments.get(batch.workspaceId, { id: item.shipmentId });
      if (!shipment) continue;
      const result = simulateTracking(shipment.tracking_number, shipment.tracking_type, shipment.carrier_scac ?? '', Date.now());
      shipments.recordTracking(shipment.seq, result);
      batches.finishTracking(batch.seq, item.position, result.ok);
    }
  }

  private failBatch(batch: BatchHeader, item: PendingItem, trackingNumber: string): void {
    const { batches, shipments } = this.deps;
    const reason = `Row ${item.rowNumber} (row_number, counting data rows from 1, the header not counted) holds the sandbox test number ${trackingNumber}, which makes the batch fail.`;
    batches.recordOutcome(batch.seq, item.position, failedOutcome([{ code: 'batch_failed', message: reason, target: null }], []));
    const unprocessed: RowProblem = { code: 'batch_failed', message: `The batch failed before this row was processed: ${reason}`, target: null };
    for (const shipmentId of batches.fail(batch.seq, reason, unprocessed)) {
      const shipment = shipments.get(batch.workspaceId, { id: shipmentId });
      if (shipment) shipments.recordTracking(shipment.seq, { ok: false, reason: 'batch_failed' });
    }
  }
}
