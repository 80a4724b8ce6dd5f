import { afterEach, describe, expect, it, vi } from 'vitest';
import { consoleRunsJobs, serverJobPayload } from './server-jobs';

const ownServer = { baseUrl: '', apiKey: 'k' };

describe('whether the console server runs the jobs', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('says what /console.json says', async () => {
    vi.stubGlobal('fetch', () => Promise.resolve(Response.json({ mode: 'sandbox', runs_jobs: true })));
    expect(await consoleRunsJobs(ownServer)).toBe(true);
  });

  it('is no for a service on another origin, without asking', async () => {
    const asked = vi.fn();
    vi.stubGlobal('fetch', asked);
    expect(await consoleRunsJobs({ baseUrl: 'https://svc.example', apiKey: 'k' })).toBe(false);
    expect(asked).not.toHaveBeenCalled();
  });

  it('refuses to guess when the server could not say: a Send is not run in the browser on a failed answer', async () => {
    vi.stubGlobal('fetch', () => Promise.resolve(new Response('Bad gateway', { status: 502 })));
    await expect(consoleRunsJobs(ownServer)).rejects.toThrow("The console's server did not say who sends this job (/console.json answered 502)");
    vi.stubGlobal('fetch', () => Promise.resolve(new Response('<html>', { status: 200 })));
    await expect(consoleRunsJobs(ownServer)).rejects.toThrow('/console.json could not be read');
  });
});

describe('a chunk as the console server kept it', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('keeps what the Ready step foresaw of its rows, which the job page compares with the outcome', async () => {
    const kept = { jobId: 'j', chunkId: 0, rowNumbers: [2, 3], body: { format: 'csv', csv: 'a\r\n1\r\n2' }, foreseen: 'cu' };
    vi.stubGlobal('fetch', () => Promise.resolve(Response.json(kept)));
    expect(await serverJobPayload(ownServer, 'j', 0)).toEqual(kept);
  });
});
