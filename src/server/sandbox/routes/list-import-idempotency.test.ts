// Idempotency-Key on the two import endpoints (src/server/README.md, "Idempotency keys"): a repeated
// request under the same key in the same workspace gets the first batch and imports nothing.
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { Batch } from '../../../contract/batch';
import { shipmentListSchema } from '../../../contract/shipment';
import { openStore } from '../store/open-store';
import { BatchStore } from '../store/batches';
import { readIdempotencyKey } from '../store/idempotency';
import { AUTH, importList, uploadFile, sandbox, waitForBatch, warmParsePool } from '../../test-support';

let app: FastifyInstance;
beforeAll(() => warmParsePool(), 60_000);
afterEach(async () => app.close());

// The list needs a reference: a second import of it would show its rows "updated".
const ROWS = [
  { reference: 'I-1', tracking_number: 'MSCU1234566', tracking_type: 'container', carrier_scac: 'MSCU' },
  { reference: 'I-2', tracking_number: 'MSCU1234566', tracking_type: 'container', carrier_scac: 'MSCU' },
];
// No reference: a second import of these file rows would create two more shipments.
const CSV = 'tracking_number,tracking_type,reference,carrier\nMSCU1234566,container,,MSCU\nMSCU1234566,container,,MSCU\n';

const withKey = (key: string, auth: Record<string, string> = AUTH) => ({ ...auth, 'idempotency-key': key });

async function shipmentCount(auth: Record<string, string> = AUTH): Promise<number> {
  const response = await app.inject({ url: '/api/v1/shipments/?page_size=100', headers: auth });
  return shipmentListSchema.parse(response.json()).data.length;
}

describe('Idempotency-Key on POST /api/v1/shipments/imports', () => {
  test('the same key twice makes one batch: the repeat gets it back, 202, and imports nothing', async () => {
    app = await sandbox();
    const first = await importList(app, ROWS, withKey('job-1:0'));
    const again = await importList(app, ROWS, withKey('job-1:0'));
    expect(first.statusCode).toBe(202);
    expect(again.statusCode).toBe(202);
    expect(again.json<Batch>().id).toBe(first.json<Batch>().id);
    expect(again.json<Batch>().total_requests).toBe(2);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const done = await waitForBatch(app, first.json<Batch>().id);
    expect(done.results.map((item) => item.creation_status)).toEqual(['created', 'created']);
    expect(await shipmentCount()).toBe(2);
  });

  test('different keys are different imports: two batches', async () => {
    app = await sandbox();
    const first = await importList(app, ROWS, withKey('job-1:0'));
    const second = await importList(app, ROWS, withKey('job-1:1'));
    expect(second.statusCode).toBe(202);
    expect(second.json<Batch>().id).not.toBe(first.json<Batch>().id);
    await waitForBatch(app, first.json<Batch>().id);
    const repeat = await waitForBatch(app, second.json<Batch>().id);
    expect(repeat.results.map((item) => item.creation_status)).toEqual(['updated', 'updated']);
  });

  test('a different list under a used key is refused with 422 naming the first batch', async () => {
    app = await sandbox();
    const first = await importList(app, ROWS, withKey('job-1:0'));
    const other = await importList(app, ROWS.slice(0, 1), withKey('job-1:0'));
    expect(other.statusCode).toBe(422);
    expect(other.json()).toEqual({
      errors: [
        expect.objectContaining({
          target: 'Idempotency-Key',
          message: `This Idempotency-Key was used in the last 24 hours for a different import (batch ${first.json<Batch>().id}); send these rows under a new key.`,
        }),
      ],
    });
    await waitForBatch(app, first.json<Batch>().id);
    expect(await shipmentCount()).toBe(2);
  });

  test('keys are per workspace: the same key in another workspace is a new import there', async () => {
    const a = { authorization: 'Bearer key-of-workspace-a-0001' };
    const b = { authorization: 'Bearer key-of-workspace-b-0002' };
    app = await sandbox({ apiKeys: [{ key: 'key-of-workspace-a-0001', workspace: 'a' }, { key: 'key-of-workspace-b-0002', workspace: 'b' }] });
    const inA = await importList(app, ROWS, withKey('shared', a));
    const inB = await importList(app, ROWS, withKey('shared', b));
    expect(inB.statusCode).toBe(202);
    expect(inB.json<Batch>().id).not.toBe(inA.json<Batch>().id);
    expect(inB.headers['idempotent-replayed']).toBeUndefined();
    // Another workspace's use of a key is not even named to it: other rows under it are imported.
    const usedInA = await importList(app, ROWS, withKey('used-in-a', a));
    const otherInB = await importList(app, ROWS.slice(0, 1), withKey('used-in-a', b));
    expect(otherInB.statusCode).toBe(202);
    expect(otherInB.json<Batch>().id).not.toBe(usedInA.json<Batch>().id);
    await waitForBatch(app, usedInA.json<Batch>().id, 5000, a);
    await waitForBatch(app, otherInB.json<Batch>().id, 5000, b);
    await waitForBatch(app, inA.json<Batch>().id, 5000, a);
    await waitForBatch(app, inB.json<Batch>().id, 5000, b);
    expect(await shipmentCount(a)).toBe(2);
    expect(await shipmentCount(b)).toBe(2);
  });

  test('no key: every request is an import of its own, as before', async () => {
    app = await sandbox();
    const first = await importList(app, ROWS);
    const second = await importList(app, ROWS);
    expect(second.json<Batch>().id).not.toBe(first.json<Batch>().id);
  });

  test('a key that is not 1–255 visible ASCII characters is refused with a sentence, not ignored', async () => {
    app = await sandbox();
    const response = await importList(app, ROWS, withKey('x'.repeat(256)));
    expect(response.statusCode).toBe(400);
    expect(response.json<{ errors: { message: string }[] }>().errors[0]!.message).toBe(
      'The Idempotency-Key header must be sent once, 1 to 255 visible ASCII characters; this one has 256 characters.',
    );
  });
});

describe('Idempotency-Key on POST /api/v1/shipments/imports/file', () => {
  test('the same file under the same key makes one batch', async () => {
    app = await sandbox();
    const first = await uploadFile(app, CSV, 'ships-part-1.csv', withKey('job-2:0'));
    const again = await uploadFile(app, CSV, 'ships-part-1.csv', withKey('job-2:0'));
    expect(first.statusCode).toBe(202);
    expect(again.statusCode).toBe(202);
    expect(again.json<Batch>().id).toBe(first.json<Batch>().id);
    await waitForBatch(app, first.json<Batch>().id);
    expect(await shipmentCount()).toBe(2);
  });

  test('without a key the same file twice is two imports (what the key prevents)', async () => {
    app = await sandbox();
    const first = await uploadFile(app, CSV, 'ships-part-1.csv');
    const again = await uploadFile(app, CSV, 'ships-part-1.csv');
    await waitForBatch(app, first.json<Batch>().id);
    await waitForBatch(app, again.json<Batch>().id);
    expect(await shipmentCount()).toBe(4);
  });

  test('another file under a used key is refused (422); a list under a file’s key too', async () => {
    app = await sandbox();
    const first = await uploadFile(app, CSV, 'a.csv', withKey('job-2:0'));
    expect(first.statusCode).toBe(202);
    const other = await uploadFile(app, `${CSV}MSCU1234566,container,,MSCU\n`, 'a.csv', withKey('job-2:0'));
    expect(other.statusCode).toBe(422);
    expect((await importList(app, ROWS, withKey('job-2:0'))).statusCode).toBe(422);
    await waitForBatch(app, first.json<Batch>().id);
    expect(await shipmentCount()).toBe(2);
  });
});

describe('keeping keys (SANDBOX_IDEMPOTENCY_HOURS)', () => {
  test('a key is forgotten after its retention period: the same request is then a new import', () => {
    const db = openStore(':memory:');
    db.prepare("INSERT INTO workspaces (id, name) VALUES ('w', 'W')").run();
    const store = new BatchStore(db);
    const hour = 3_600_000;
    const request = (now: number) => {
      const read = readIdempotencyKey('k-1', 'list', '[1]', now, 24 * hour);
      if (!read.ok || !read.request) throw new Error('key not read');
      return read.request;
    };
    const row = { input: {}, reference: null, trackingNumber: 'N', trackingType: 'container', carrierScac: null, name: null };
    const first = store.create('w', 'list', [row], request(0));
    expect(first.kind).toBe('created');
    expect(store.create('w', 'list', [row], request(24 * hour - 1)).kind).toBe('same');
    const later = store.create('w', 'list', [row], request(24 * hour));
    expect(later.kind).toBe('created');
    expect(store.create('w', 'list', [row], request(24 * hour + 1)).kind).toBe('same');
    db.close();
  });
});
