import { expect, test } from 'vitest';
import { ParsePool } from './parse-pool';

/** Handles of worker threads and their message ports that keep this process's event loop alive. */
const heldByWorkers = () => process.getActiveResourcesInfo().filter((type) => type === 'Worker' || type === 'MessagePort').length;

const CSV = () => [new TextEncoder().encode('tracking_number,tracking_type\nCSQU3054383,container\n')];

test('the pool holds the process while it has work and lets it go when idle, replaced workers included', async () => {
  // The soak and the sandbox bench had to close the pool to exit: an idle pool held the process
  // (a 'message' listener added after unref() refs the worker's port again).
  const before = heldByWorkers();
  const pool = new ParsePool({ workers: 1, timeoutMs: 60_000, heapMb: 64 });
  try {
    // A caller waiting for a worker to load is work: the process must not exit under it.
    const ready = pool.ready();
    expect(heldByWorkers()).toBeGreaterThan(before);
    await ready;
    expect(heldByWorkers()).toBe(before);

    // So is a file being read.
    const parse = pool.parse(CSV(), 'shipments.csv', {});
    expect(heldByWorkers()).toBeGreaterThan(before);
    expect(await parse).toMatchObject({ ok: true });
    expect(heldByWorkers()).toBe(before);

    // A client that goes away terminates the worker reading its file; the one spawned in its
    // place is let go as well once it is idle.
    const client = new AbortController();
    const abandoned = pool.parse(CSV(), 'shipments.csv', {}, client.signal);
    client.abort();
    expect(await abandoned).toMatchObject({ ok: false, status: 499 });
    expect(pool.stats().replaced).toBe(1);
    await pool.ready();
    expect(heldByWorkers()).toBe(before);
  } finally {
    await pool.close();
  }
}, 120_000);
