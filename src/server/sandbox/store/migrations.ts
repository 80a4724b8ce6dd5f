// Schema of the sandbox store, applied in order at start; PRAGMA user_version records how many
// have run, so an existing file database is upgraded in place and never re-created.
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE workspaces (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL
  );
  CREATE TABLE api_keys (
    key_hash BLOB PRIMARY KEY,
    workspace_id TEXT NOT NULL REFERENCES workspaces(id)
  );
  CREATE TABLE members (
    workspace_id TEXT NOT NULL REFERENCES workspaces(id),
    email TEXT NOT NULL,
    PRIMARY KEY (workspace_id, email)
  ) WITHOUT ROWID;
  CREATE TABLE custom_fields (
    workspace_id TEXT NOT NULL REFERENCES workspaces(id),
    slug TEXT NOT NULL,
    name TEXT NOT NULL,
    PRIMARY KEY (workspace_id, slug)
  ) WITHOUT ROWID;

  -- seq orders shipments newest first and keys the join tables compactly.
  CREATE TABLE shipments (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    workspace_id TEXT NOT NULL REFERENCES workspaces(id),
    reference TEXT,
    tracking_number TEXT NOT NULL,
    tracking_type TEXT NOT NULL,
    carrier_scac TEXT,
    name TEXT,
    tags TEXT NOT NULL DEFAULT '[]',
    viewers TEXT NOT NULL DEFAULT '[]',
    assignees TEXT NOT NULL DEFAULT '[]',
    custom_fields TEXT NOT NULL DEFAULT '{}',
    last_process_status TEXT NOT NULL,
    last_process_failure_reason TEXT,
    data_status TEXT,
    container_stage TEXT,
    tracking TEXT NOT NULL DEFAULT '{}',
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE UNIQUE INDEX shipments_by_reference ON shipments (workspace_id, reference) WHERE reference IS NOT NULL;
  CREATE INDEX shipments_by_workspace ON shipments (workspace_id, seq);

  CREATE TABLE containers (
    shipment_seq INTEGER NOT NULL REFERENCES shipments(seq),
    position INTEGER NOT NULL,
    number TEXT NOT NULL,
    iso_type TEXT,
    status TEXT,
    events TEXT NOT NULL DEFAULT '[]',
    PRIMARY KEY (shipment_seq, position)
  );

  CREATE TABLE batches (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    workspace_id TEXT NOT NULL REFERENCES workspaces(id),
    source TEXT NOT NULL,
    status TEXT NOT NULL,
    created_at TEXT NOT NULL,
    total_requests INTEGER NOT NULL,
    completed_requests INTEGER NOT NULL DEFAULT 0,
    failure_reason TEXT
  );
  CREATE INDEX batches_by_status ON batches (status);

  -- input keeps the submitted row so that processing can resume after a restart.
  CREATE TABLE result_items (
    batch_seq INTEGER NOT NULL REFERENCES batches(seq),
    position INTEGER NOT NULL,
    id TEXT NOT NULL UNIQUE,
    row_number INTEGER NOT NULL,
    input TEXT NOT NULL,
    reference TEXT,
    tracking_type TEXT NOT NULL,
    tracking_number TEXT NOT NULL,
    carrier_scac TEXT,
    name TEXT,
    creation_status TEXT NOT NULL,
    tracking_status TEXT NOT NULL,
    shipment_id TEXT,
    errors TEXT NOT NULL DEFAULT '[]',
    warnings TEXT NOT NULL DEFAULT '[]',
    tracking_due_at INTEGER,
    PRIMARY KEY (batch_seq, position)
  );

  -- Shipments created or updated by a batch: the batch_id filter of the list walks this index.
  CREATE TABLE batch_shipments (
    batch_seq INTEGER NOT NULL REFERENCES batches(seq),
    shipment_seq INTEGER NOT NULL REFERENCES shipments(seq),
    PRIMARY KEY (batch_seq, shipment_seq)
  ) WITHOUT ROWID;
  `,
  `
  -- Idempotency-Key of an import that created a batch (src/server/README.md, "Idempotency keys"): a repeat
  -- within the retention period answers with that batch. request_hash tells a repeat of the same
  -- request from a different one sent under the same key.
  CREATE TABLE idempotency_keys (
    workspace_id TEXT NOT NULL REFERENCES workspaces(id),
    key TEXT NOT NULL,
    request_hash TEXT NOT NULL,
    batch_seq INTEGER NOT NULL REFERENCES batches(seq),
    created_at INTEGER NOT NULL,
    PRIMARY KEY (workspace_id, key)
  ) WITHOUT ROWID;
  CREATE INDEX idempotency_keys_by_age ON idempotency_keys (created_at);
  `,
];
