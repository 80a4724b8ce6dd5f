// Works through import batches in the background: one row per SANDBOX_ROW_DELAY_MS, each row in
// its own transaction so a restart never processes a row twice; then waits for slow tracking and
// ends the batch. With no delay, rows go in turns: one queue for every batch, oldest first, each
// turn one transaction that stops after TURN_MS, then the event loop serves requests again — so
// twenty batches in progress hold it no longer than one (uploads were answered in seconds while
// each batch ran its own 250-row slices). close() stops every loop.
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { RowProblem } from '../../../contract/batch';
import type { BatchHeader, BatchStore, ItemOutcome, PendingItem } from '../store/batches';
import type { Db } from '../store/open-store';
import type { ShipmentStore } from '../store/shipments';
import type { WorkspaceStore } from '../store/workspaces';
import { simulateTracking } from '../tracking/simulate';
import { testOutcome } from '../tracking/test-numbers';
import { checkFileRow, checkListRow, type RowContext } from './row-rules';

/** Longest one turn of rows holds the event loop when there is no delay (DESIGN §6: ≤ 100 ms). */
export const TURN_MS = 10;
/** Rows read from the store at a time within a turn; a turn may stop before using them all. */
const ROWS_PER_READ = 32;

interface QueuedBatch {
  batch: BatchHeader;
  context: RowContext;
  /** Resolves when every row is processed (true) or a row stopped the batch (false). */
  done: (completed: boolean) => void;
}

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
  private readonly queue: QueuedBatch[] = [];
  private pumping = false;

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
    // Queued batches stop where they are (still `processing`): the next start resumes them.
    for (const queued of this.queue.splice(0)) queued.done(false);
    await Promise.allSettled(this.running.values());
  }

  private async run(batchSeq: number): Promise<void> {
    const { batches, db, rowDelayMs } = this.deps;
    const batch = batches.header(batchSeq);
    if (!batch || batch.status !== 'processing') return;
    const context = this.rowContext(batch.workspaceId);
    const signal = this.abort.signal;

    if (rowDelayMs > 0) {
      for (;;) {
        const items = batches.pendingCreation(batchSeq, 1);
        if (items.length === 0) break;
        await sleep(rowDelayMs, undefined, { signal });
        const stopped = db.transaction(() => items.some((item) => this.processRow(batch, item, context)))();
        if (stopped) return;
      }
    } else {
      const completed = await new Promise<boolean>((done) => {
        this.queue.push({ batch, context, done });
        void this.pump();
      });
      if (!completed) return;
    }

    for (;;) {
      const due = batches.nextTrackingDue(batchSeq);
      if (due === null) break;
      await sleep(Math.max(0, due - Date.now()), undefined, { signal });
      db.transaction(() => this.finishDueTracking(batch))();
    }
    batches.complete(batchSeq);
  }

  /** Works through the queued batches in turns of at most TURN_MS, yielding to requests between. */
  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    const signal = this.abort.signal;
    try {
      while (this.queue.length > 0 && !signal.aborted) {
        await nextTurn(undefined, { signal });
        const head = this.queue[0];
        if (!head) break;
        const finished = this.deps.db.transaction(() => this.turn(head))();
        if (finished !== null) {
          this.queue.shift();
          head.done(finished === 'completed');
        }
      }
    } catch {
      // Aborted by close(): the batches stay `processing` and resume at the next start.
    } finally {
      this.pumping = false;
    }
  }

  /** One turn on the oldest batch: null while rows are left, else how its rows ended. */
  private turn({ batch, context }: QueuedBatch): 'completed' | 'stopped' | null {
    const started = performance.now();
    for (;;) {
      const items = this.deps.batches.pendingCreation(batch.seq, ROWS_PER_READ);
      if (items.length === 0) return 'completed';
      for (const item of items) {
        if (this.processRow(batch, item, context)) return 'stopped';
        if (performance.now() - started >= TURN_MS) return null;
      }
    }
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
