// What the sandbox routes share: the stores, the processor and the settings.
import type { ServerConfig } from '../../config';
import type { ParsePool } from '../parsing/parse-pool';
import type { BatchProcessor } from '../processing/batch-processor';
import type { BatchStore } from '../store/batches';
import type { ShipmentStore } from '../store/shipments';
import type { WorkspaceStore } from '../store/workspaces';

export interface SandboxServices {
  config: ServerConfig;
  workspaces: WorkspaceStore;
  batches: BatchStore;
  shipments: ShipmentStore;
  processor: BatchProcessor;
  /** Parses uploaded files in worker threads. */
  parsePool: ParsePool;
}
