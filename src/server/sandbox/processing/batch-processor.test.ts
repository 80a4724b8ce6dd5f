import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { Batch } from '../../../contract/batch';
import { AUTH, importList, readBatch, sandbox, waitForBatch } from '../../test-support';

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

const row = (reference: string, trackingNumber: string, type = 'bill_of_lading') => ({
  reference,
  tracking_number: trackingNumber,
  tracking_type: type,
  carrier_scac: trackingNumber.slice(0, 4),
});

async function shipment(server: FastifyInstance, reference: string): Promise<Record<string, unknown> | undefined> {
  const list = (await server.inject({ url: '/api/v1/shipments?page_size=100', headers: AUTH })).json<{ data: Record<string, unknown>[] }>();
  return list.data.find((entry) => entry.reference === reference);
}

describe('test numbers', () => {
  test('a container with a wrong check digit and MAEU240000404 fail tracking with not_found', async () => {
    const server = await sandbox();
    app = server;
    const batch = await waitForBatch(server, (await importList(server, [row('T-1', 'MSCU1234560', 'container'), row('T-2', 'MAEU240000404')])).json<Batch>().id);
    expect(batch).toMatchObject({ status: 'completed', completed_requests: 2 });
    expect(batch.results.map((item) => [item.creation_status, item.tracking_status])).toEqual([
      ['created', 'failed'],
      ['created', 'failed'],
    ]);
    expect(await shipment(server, 'T-1')).toMatchObject({ last_process_status: 'track_failed', last_process_failure_reason: 'not_found' });
    expect(await shipment(server, 'T-2')).toMatchObject({ last_process_status: 'track_failed', last_process_failure_reason: 'not_found' });
  });

  test('HLCU240000408 keeps tracking processing for a while, and the batch waits for it', async () => {
    const server = await sandbox({ slowTrackingMs: 300 });
    app = server;
    const id = (await importList(server, [row('SL-1', 'HLCU240000408'), row('SL-2', 'MSCU1234566', 'container')])).json<Batch>().id;
    await expect.poll(async () => (await readBatch(server, id)).results[1]?.tracking_status).toBe('succeeded');
    const midway = await readBatch(server, id);
    expect(midway).toMatchObject({ status: 'processing', completed_requests: 1 });
    expect(midway.results[0]).toMatchObject({ creation_status: 'created', tracking_status: 'processing' });
    expect(await shipment(server, 'SL-1')).toMatchObject({ last_process_status: 'processing' });

    const done = await waitForBatch(server, id);
    expect(done).toMatchObject({ status: 'completed', completed_requests: 2 });
    expect(done.results[0]).toMatchObject({ tracking_status: 'succeeded' });
    expect(await shipment(server, 'SL-1')).toMatchObject({ last_process_status: 'track_succeeded' });
  });

  test('CMDU240000500 fails the batch: the rows before it stand, it and the rest fail with batch_failed', async () => {
    const server = await sandbox();
    app = server;
    const rows = [row('FB-1', 'MSCU1234566', 'container'), row('FB-2', 'CMDU240000500'), row('FB-3', 'MSCU1234566', 'container')];
    const batch = await waitForBatch(server, (await importList(server, rows)).json<Batch>().id);
    expect(batch).toMatchObject({ status: 'failed', total_requests: 3, completed_requests: 3 });
    expect(batch.failure_reason).toMatch(/Row 2 .*CMDU240000500/);
    expect(batch.results.map((item) => item.creation_status)).toEqual(['created', 'failed', 'failed']);
    expect(batch.results[2]?.errors).toEqual([{ code: 'batch_failed', message: expect.stringContaining('before this row') as string, target: null }]);
    expect(await shipment(server, 'FB-3')).toBeUndefined();
  });

  test('a failing batch cuts short the slow tracking still running', async () => {
    const server = await sandbox({ slowTrackingMs: 60_000 });
    app = server;
    const batch = await waitForBatch(server, (await importList(server, [row('CS-1', 'HLCU240000408'), row('CS-2', 'CMDU240000500')])).json<Batch>().id);
    expect(batch.status).toBe('failed');
    expect(batch.results[0]).toMatchObject({ creation_status: 'created', tracking_status: 'failed' });
    expect(await shipment(server, 'CS-1')).toMatchObject({ last_process_status: 'track_failed', last_process_failure_reason: 'batch_failed' });
  });
});

describe('restart', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sandbox-resume-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test('a batch left processing resumes after a restart, each row processed exactly once', async () => {
    const dbPath = join(dir, 'nested', 'store.sqlite');
    const rows = Array.from({ length: 12 }, (_, i) => row(`RS-${i}`, 'MSCU1234566', 'container'));
    const first = await sandbox({ dbPath, rowDelayMs: 25 });
    app = first;
    const id = (await importList(first, rows)).json<Batch>().id;
    await expect.poll(async () => (await readBatch(first, id)).completed_requests).toBeGreaterThanOrEqual(3);
    const beforeClose = (await readBatch(first, id)).completed_requests;
    await first.close();
    app = undefined;
    expect(beforeClose).toBeLessThan(10);

    const second = await sandbox({ dbPath, rowDelayMs: 0 });
    app = second;
    const done = await waitForBatch(second, id);
    expect(done).toMatchObject({ status: 'completed', completed_requests: 12 });
    expect(done.results.every((item) => item.creation_status === 'created' && item.tracking_status === 'succeeded')).toBe(true);
    const list = (await second.inject({ url: '/api/v1/shipments', headers: AUTH })).json<{ pagination: { total: number } }>();
    expect(list.pagination.total).toBe(12);
  });

  test('slow tracking pending at a restart finishes after it', async () => {
    const dbPath = join(dir, 'store.sqlite');
    const first = await sandbox({ dbPath, slowTrackingMs: 200 });
    app = first;
    const id = (await importList(first, [row('RT-1', 'HLCU240000408')])).json<Batch>().id;
    await expect.poll(async () => (await readBatch(first, id)).results[0]?.creation_status).toBe('created');
    await first.close();

    const second = await sandbox({ dbPath, slowTrackingMs: 200 });
    app = second;
    const done = await waitForBatch(second, id);
    expect(done.results[0]).toMatchObject({ tracking_status: 'succeeded' });
  });

  test('closing the server stops processing without leaving timers behind', async () => {
    const server = await sandbox({ rowDelayMs: 10_000 });
    const id = (await importList(server, [row('CL-1', 'MSCU1234566', 'container')])).json<Batch>().id;
    const started = Date.now();
    await server.close();
    expect(Date.now() - started).toBeLessThan(1000);
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
  });
});
