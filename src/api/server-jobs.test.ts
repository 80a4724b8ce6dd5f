import { afterEach, describe, expect, it, vi } from 'vitest';
import { consoleRunsJobs } from './server-jobs';

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
