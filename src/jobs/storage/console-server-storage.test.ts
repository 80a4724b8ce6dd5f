// @vitest-environment jsdom
// The list of the server's jobs as a hidden tab reads it: on only while a job it shows waits to
// say it finished (server-job-finish.ts), so "notify me" works with the tab in the background.
import { focusManager } from '@tanstack/query-core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConsoleServerJobStorage } from './console-server-storage';

const serverJob = (notify: boolean) => ({ id: 'job-1', createdAt: 1, updatedAt: 1, finishedAt: null, runState: 'running', pausedReason: null, chunks: [], batches: {}, runsOn: 'console-server', notify });

let reads = 0;

async function listReadsWhileHidden(notify: boolean, thenFocused = false): Promise<number> {
  reads = 0;
  vi.stubGlobal('fetch', () => {
    reads++;
    return Promise.resolve(Response.json({ data: [serverJob(notify)] }));
  });
  focusManager.setFocused(false);
  const storage = new ConsoleServerJobStorage({ target: () => Promise.resolve({ baseUrl: '', apiKey: 'a-key-of-twenty-chars' }), sentBy: () => null, pollMs: 20 });
  const stop = storage.subscribe(() => {});
  await new Promise((resolve) => setTimeout(resolve, 400));
  const hiddenReads = reads;
  if (thenFocused) {
    focusManager.setFocused(true);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  stop();
  return hiddenReads;
}

afterEach(() => {
  focusManager.setFocused(undefined);
  vi.unstubAllGlobals();
});

describe('ConsoleServerJobStorage in a hidden tab', () => {
  it('reads the list on while a running job has notify on, and not otherwise', async () => {
    expect(await listReadsWhileHidden(true)).toBeGreaterThanOrEqual(5);
    expect(await listReadsWhileHidden(false)).toBe(1);
  });

  it('reads it again as the tab comes back, and on every few moments while shown', async () => {
    expect(await listReadsWhileHidden(false, true)).toBe(1);
    expect(reads).toBeGreaterThanOrEqual(4);
  });
});
