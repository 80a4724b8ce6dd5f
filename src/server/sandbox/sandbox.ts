// The sandbox: a local implementation of the tracking service's API (api-spec.md as DESIGN §3
// decides it) on a SQLite store. Batches left processing by an earlier run resume when the
// server is ready; closing the server stops processing before the store closes.
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { addAuth } from './auth';
import type { ServerConfig } from '../config';
import { addFaults, type FaultControl } from './faults';
import { sharedParsePool } from './parsing/parse-pool';
import { BatchProcessor } from './processing/batch-processor';
import { supportedCarriers } from './processing/supported-carriers';
import { addRateLimits } from './rate-limits';
import { registerBatchRead } from './routes/batch-read';
import { registerContainers } from './routes/containers';
import { registerCustomFields } from './routes/custom-fields';
import { registerFileImport } from './routes/file-import';
import { registerListImport } from './routes/list-import';
import { registerSandboxInfo } from './routes/sandbox-info';
import type { SandboxServices } from './routes/services';
import { registerShipmentList } from './routes/shipment-list';
import { registerShipmentPatch } from './routes/shipment-patch';
import { sandboxKeys } from './sandbox-keys';
import { BatchStore } from './store/batches';
import { openStore } from './store/open-store';
import { ShipmentStore } from './store/shipments';
import { WorkspaceStore, seedWorkspaces } from './store/workspaces';

export async function registerSandbox(app: FastifyInstance, config: ServerConfig): Promise<void> {
  const db = openStore(config.dbPath);
  const keys = sandboxKeys(config);
  seedWorkspaces(db, keys);
  const workspaces = new WorkspaceStore(db);
  const batches = new BatchStore(db);
  const shipments = new ShipmentStore(db);
  const processor = new BatchProcessor({
    db,
    batches,
    shipments,
    workspaces,
    rowDelayMs: config.rowDelayMs,
    slowTrackingMs: config.slowTrackingMs,
    supportedCarriers: supportedCarriers(config.carriers),
    log: app.log,
  });
  const parsePool = sharedParsePool({ workers: config.parseWorkers, timeoutMs: config.parseTimeoutMs, heapMb: config.parseHeapMb }, app.log);
  const services: SandboxServices = { config, workspaces, batches, shipments, processor, parsePool };

  app.addHook('onReady', (done) => {
    processor.resume();
    done();
  });
  app.addHook('onClose', async () => {
    await processor.close();
    db.close();
  });

  let faults: FaultControl | null = null;
  app.decorate('sandboxFaults', { getter: () => faults });

  const [firstKey] = keys;
  if (firstKey) registerSandboxInfo(app, services, firstKey);

  await app.register(
    async (api) => {
      addAuth(api, workspaces.keyHashes(), config.disabledKeys);
      addRateLimits(api, config);
      if (config.faults) faults = addFaults(api, config.faults, config.faultSlowMs);
      await api.register(multipart, {
        // Two file parts are refused by the route (it reads every part); fields and parts stay small.
        limits: { fileSize: config.maxFileBytes, files: 2, fields: 10, parts: 20, headerPairs: 100 },
      });
      registerListImport(api, services);
      registerFileImport(api, services);
      registerBatchRead(api, services);
      registerShipmentList(api, services);
      registerShipmentPatch(api, services);
      registerContainers(api, services);
      registerCustomFields(api, services);
    },
    { prefix: '/api/v1' },
  );
}
