import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { describe, expect, it } from 'vitest';
import type { BatchOutcome, ImportJob } from '../import-job';
import { OutcomeWriter } from './indexeddb-outcome-writer';
import { openJobDatabase } from './indexeddb-schema';

let count = 0;

/** The job store's layout (indexeddb-schema.ts) with one job, as the page makes it before any poll. */
async function storeWithJob(jobId: string) {
  const name = `outcomes-test-${++count}`;
  const db = await openJobDatabase(name, { create: true, closed: () => undefined });
  await db.put('jobs', { id: jobId, createdAt: 1 } as ImportJob);
  return { name, db };
}

const outcome = (jobId: string, batchId: string): BatchOutcome => ({
  jobId, batchId, chunkId: 0, status: 'completed', failureReason: null,
  items: [{ rowNumber: 2, creationStatus: 'created', trackingStatus: 'processing', shipmentId: 's1', reference: null, problems: [] }, null],
});

describe('OutcomeWriter', () => {
  it('saves an outcome where the job store reads it, while its job exists', async () => {
    const { name, db } = await storeWithJob('j1');
    const writer = new OutcomeWriter(name);
    expect(await writer.save(outcome('j1', 'b1'))).toBe(true);
    expect(await db.get('outcomes', ['j1', 'b1'])).toEqual(outcome('j1', 'b1'));
    await db.delete('jobs', 'j1');
    expect(await writer.save(outcome('j1', 'b2'))).toBe(false); // deleted meanwhile: nothing left behind
    expect(await db.get('outcomes', ['j1', 'b2'])).toBeUndefined();
    await writer.close();
    db.close();
  });

  it('does not make a database the job store never made', async () => {
    const name = `outcomes-test-${++count}-never-made`;
    const writer = new OutcomeWriter(name);
    expect(await writer.save(outcome('j1', 'b1'))).toBe(false);
    await writer.close();
    let upgradedFrom = -1;
    const db = await openDB(name, 1, { upgrade: (_db, old) => void (upgradedFrom = old) });
    expect(upgradedFrom).toBe(0); // still to be laid out by the job store
    db.close();
  });
});
