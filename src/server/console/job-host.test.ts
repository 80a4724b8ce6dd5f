// The console server's per-workspace job hosts are bounded: a workspace whose jobs are all finished
// and that nothing has asked for a while is closed (its runner stopped, its store and what it
// remembers of its jobs let go) and made again on its next request; one with an unfinished job is kept.
import { afterEach, describe, expect, it } from 'vitest';
import { SqliteJobDatabase } from '../../jobs/storage/sqlite-storage';
import { HOST_IDLE_MS, JobHosts } from './job-host';

/** A service that never answers: a job's chunk stays under way (until the host closes). */
const silentService: typeof fetch = (_input, init) =>
  new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal!.reason as Error), { once: true }));

let close: (() => Promise<void>) | null = null;
afterEach(async () => {
  await close?.();
  close = null;
});

async function ready(hosts: JobHosts, workspace: string): Promise<void> {
  const { store } = hosts.host(workspace);
  while (store.getSnapshot().status !== 'ready') await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('the console server’s job hosts', () => {
  it('closes a workspace left idle with nothing unfinished, and keeps one whose job is unfinished', async () => {
    let t = 1_800_000_000_000;
    const database = new SqliteJobDatabase(':memory:');
    const hosts = new JobHosts({ database, serviceFetch: () => silentService, ownKey: () => 'server-held', now: () => t });
    close = async () => {
      await hosts.close();
      database.close();
    };
    const idle = hosts.host('idle');
    idle.start();
    const busy = hosts.host('busy');
    busy.start();
    await busy.store.createJob({
      source: { kind: 'file', fileName: 'week.csv', size: null, contentHash: null },
      serviceUrl: '',
      rowsRead: 1,
      numbering: 'Line',
      skipped: [],
      rows: { format: 'csv', headers: ['tracking_number', 'tracking_type'], rows: [['MSCU1234566', 'container']], rowNumbers: [2] },
      chunkRows: 300,
    });
    await ready(hosts, 'idle');
    await ready(hosts, 'busy');

    t += HOST_IDLE_MS - 1;
    await hosts.evictIdle();
    expect(hosts.host('idle')).toBe(idle);

    t += HOST_IDLE_MS;
    await hosts.evictIdle();
    const again = hosts.host('idle');
    expect(again).not.toBe(idle);
    expect(hosts.host('busy')).toBe(busy);
    await ready(hosts, 'idle');
    expect(again.store.getSnapshot().jobs).toEqual([]);
    expect((await busy.store.listJobs()).map((job) => job.finishedAt)).toEqual([null]);
  });
});
