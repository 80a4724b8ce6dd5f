// Shipments of a workspace and their containers. Lists are newest first (by seq); the batch_id
// filter goes through batch_shipments so that it reads only the batch's rows at any store size.
import { randomUUID } from 'node:crypto';
import type { Container, Shipment } from '../../../contract/shipment';
import type { TrackingType } from '../../../contract/shipment-request';
import type { TrackingResult } from '../tracking/simulate';
import type { Db } from './open-store';

interface ShipmentRow {
  seq: number;
  id: string;
  reference: string | null;
  tracking_number: string;
  tracking_type: string;
  carrier_scac: string | null;
  name: string | null;
  tags: string;
  viewers: string;
  assignees: string;
  custom_fields: string;
  last_process_status: string;
  last_process_failure_reason: string | null;
  data_status: string | null;
  container_stage: string | null;
  tracking: string;
  created_at: string;
  updated_at: string;
}

/** Fields an import row or a PATCH sets; undefined leaves the stored value as it is. */
export interface ShipmentChanges {
  trackingNumber?: string;
  trackingType?: TrackingType;
  carrierScac?: string;
  name?: string;
  tags?: string[];
  viewers?: string[];
  assignees?: string[];
  /** Merged into the stored values; null removes a field. */
  customFields?: Record<string, string | null>;
}

export interface ShipmentKey {
  seq: number;
  id: string;
}

export interface StoredShipment extends ShipmentKey {
  name: string | null;
}

export interface ShipmentPage {
  data: Shipment[];
  total: number;
}

const NO_JOURNEY = { pre: null, pol: null, pod: null, pde: null };

function containersUri(shipmentId: string): string {
  return `/api/v1/shipment/${shipmentId}/containers`;
}

function toShipment(row: ShipmentRow): Shipment {
  const tracking = JSON.parse(row.tracking) as Record<string, unknown>;
  return {
    id: row.id,
    reference: row.reference,
    tracking_number: row.tracking_number,
    tracking_type: row.tracking_type,
    carrier_scac: row.carrier_scac,
    name: row.name,
    tags: JSON.parse(row.tags) as string[],
    viewers: JSON.parse(row.viewers) as string[],
    assignees: JSON.parse(row.assignees) as string[],
    last_process_status: row.last_process_status,
    last_process_failure_reason: row.last_process_failure_reason,
    data_status: row.data_status,
    container_stage: row.container_stage,
    custom_fields: JSON.parse(row.custom_fields) as Record<string, string>,
    created_at: row.created_at,
    updated_at: row.updated_at,
    tracking: { ...tracking, containers_uri: containersUri(row.id) },
  };
}

export class ShipmentStore {
  private readonly statements;

  constructor(private readonly db: Db) {
    this.statements = {
      byReference: db.prepare<[string, string], ShipmentRow>('SELECT * FROM shipments WHERE workspace_id = ? AND reference = ?'),
      keyByReference: db.prepare<[string, string], StoredShipment>('SELECT seq, id, name FROM shipments WHERE workspace_id = ? AND reference = ?'),
      byId: db.prepare<[string, string], ShipmentRow>('SELECT * FROM shipments WHERE workspace_id = ? AND id = ?'),
      bySeq: db.prepare<[number], ShipmentRow>('SELECT * FROM shipments WHERE seq = ?'),
      insert: db.prepare(
        `INSERT INTO shipments (id, workspace_id, reference, tracking_number, tracking_type, carrier_scac, name, tags,
           viewers, assignees, custom_fields, last_process_status, tracking, created_at, updated_at)
         VALUES (@id, @workspace_id, @reference, @tracking_number, @tracking_type, @carrier_scac, @name, @tags,
           @viewers, @assignees, @custom_fields, 'processing', @tracking, @now, @now)`,
      ),
      update: db.prepare(
        `UPDATE shipments SET tracking_number = @tracking_number, tracking_type = @tracking_type, carrier_scac = @carrier_scac,
           name = @name, tags = @tags, viewers = @viewers, assignees = @assignees, custom_fields = @custom_fields, updated_at = @now
         WHERE seq = @seq`,
      ),
      setTracking: db.prepare(
        `UPDATE shipments SET last_process_status = @status, last_process_failure_reason = @reason, data_status = @data_status,
           tracking = @tracking, updated_at = @now WHERE seq = @seq`,
      ),
      deleteContainers: db.prepare<[number]>('DELETE FROM containers WHERE shipment_seq = ?'),
      insertContainer: db.prepare(
        'INSERT INTO containers (shipment_seq, position, number, iso_type, status, events) VALUES (?, ?, ?, ?, ?, ?)',
      ),
      containers: db.prepare<[number], { number: string; iso_type: string | null; status: string | null; events: string }>(
        'SELECT number, iso_type, status, events FROM containers WHERE shipment_seq = ? ORDER BY position',
      ),
      pageAll: db.prepare<[string, number, number], ShipmentRow>(
        'SELECT * FROM shipments WHERE workspace_id = ? ORDER BY seq DESC LIMIT ? OFFSET ?',
      ),
      countAll: db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM shipments WHERE workspace_id = ?'),
      pageOfBatch: db.prepare<[number, number, number], ShipmentRow>(
        `SELECT s.* FROM batch_shipments b JOIN shipments s ON s.seq = b.shipment_seq
         WHERE b.batch_seq = ? ORDER BY b.shipment_seq DESC LIMIT ? OFFSET ?`,
      ),
      countOfBatch: db.prepare<[number], { n: number }>('SELECT count(*) AS n FROM batch_shipments WHERE batch_seq = ?'),
      link: db.prepare<[number, number]>('INSERT OR IGNORE INTO batch_shipments (batch_seq, shipment_seq) VALUES (?, ?)'),
    };
  }

  findByReference(workspaceId: string, reference: string): StoredShipment | undefined {
    return this.statements.keyByReference.get(workspaceId, reference);
  }

  get(workspaceId: string, by: { id: string } | { reference: string }): (Shipment & { seq: number }) | undefined {
    const row = 'id' in by ? this.statements.byId.get(workspaceId, by.id) : this.statements.byReference.get(workspaceId, by.reference);
    return row ? { ...toShipment(row), seq: row.seq } : undefined;
  }

  getBySeq(seq: number): Shipment {
    const row = this.statements.bySeq.get(seq);
    if (!row) throw new Error(`shipment ${seq} vanished`);
    return toShipment(row);
  }

  /** Creates a shipment whose tracking is still to run. */
  create(workspaceId: string, reference: string | null, changes: Required<Pick<ShipmentChanges, 'trackingNumber' | 'trackingType' | 'carrierScac'>> & ShipmentChanges): ShipmentKey {
    const id = randomUUID();
    const customFields = Object.fromEntries(Object.entries(changes.customFields ?? {}).filter(([, value]) => value !== null));
    const result = this.statements.insert.run({
      id,
      workspace_id: workspaceId,
      reference,
      tracking_number: changes.trackingNumber,
      tracking_type: changes.trackingType,
      carrier_scac: changes.carrierScac,
      name: changes.name ?? null,
      tags: JSON.stringify(changes.tags ?? []),
      viewers: JSON.stringify(changes.viewers ?? []),
      assignees: JSON.stringify(changes.assignees ?? []),
      custom_fields: JSON.stringify(customFields),
      tracking: JSON.stringify(NO_JOURNEY),
      now: new Date().toISOString(),
    });
    return { seq: Number(result.lastInsertRowid), id };
  }

  /** Applies the fields that are set; the others keep their stored values. */
  update(seq: number, changes: ShipmentChanges): void {
    const row = this.statements.bySeq.get(seq);
    if (!row) throw new Error(`shipment ${seq} vanished`);
    const customFields = { ...(JSON.parse(row.custom_fields) as Record<string, string>) };
    for (const [slug, value] of Object.entries(changes.customFields ?? {})) {
      if (value === null) delete customFields[slug];
      else customFields[slug] = value;
    }
    this.statements.update.run({
      seq,
      tracking_number: changes.trackingNumber ?? row.tracking_number,
      tracking_type: changes.trackingType ?? row.tracking_type,
      carrier_scac: changes.carrierScac ?? row.carrier_scac,
      name: changes.name ?? row.name,
      tags: changes.tags ? JSON.stringify(changes.tags) : row.tags,
      viewers: changes.viewers ? JSON.stringify(changes.viewers) : row.viewers,
      assignees: changes.assignees ? JSON.stringify(changes.assignees) : row.assignees,
      custom_fields: JSON.stringify(customFields),
      now: new Date().toISOString(),
    });
  }

  markTrackingPending(seq: number): void {
    this.statements.setTracking.run({ seq, status: 'processing', reason: null, data_status: null, tracking: JSON.stringify(NO_JOURNEY), now: new Date().toISOString() });
    this.statements.deleteContainers.run(seq);
  }

  recordTracking(seq: number, result: TrackingResult | { ok: false; reason: string }): void {
    const now = new Date().toISOString();
    this.statements.deleteContainers.run(seq);
    if (!result.ok) {
      this.statements.setTracking.run({ seq, status: 'track_failed', reason: result.reason, data_status: 'no_data', tracking: JSON.stringify(NO_JOURNEY), now });
      return;
    }
    const tracking = { tracking_freshness: 'ok', ...result.journey };
    this.statements.setTracking.run({ seq, status: 'track_succeeded', reason: null, data_status: 'success', tracking: JSON.stringify(tracking), now });
    result.containers.forEach((container, position) => {
      this.statements.insertContainer.run(seq, position, container.number, container.iso_type, container.status, JSON.stringify(container.events));
    });
  }

  linkToBatch(batchSeq: number, shipmentSeq: number): void {
    this.statements.link.run(batchSeq, shipmentSeq);
  }

  containers(seq: number): Container[] {
    return this.statements.containers.all(seq).map((row) => ({
      number: row.number,
      iso_type: row.iso_type,
      status: row.status,
      events: JSON.parse(row.events) as Container['events'],
    }));
  }

  page(workspaceId: string, batchSeq: number | null, page: number, pageSize: number): ShipmentPage {
    const offset = (page - 1) * pageSize;
    return this.db.transaction(() => {
      if (batchSeq === null) {
        return {
          data: this.statements.pageAll.all(workspaceId, pageSize, offset).map(toShipment),
          total: this.statements.countAll.get(workspaceId)?.n ?? 0,
        };
      }
      return {
        data: this.statements.pageOfBatch.all(batchSeq, pageSize, offset).map(toShipment),
        total: this.statements.countOfBatch.get(batchSeq)?.n ?? 0,
      };
    })();
  }
}
