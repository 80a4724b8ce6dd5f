import { afterEach, describe, expect, it, vi } from 'vitest';
import { newServerJobSchema, type NewServerJob } from '../contract/server-jobs';
import { consoleRunsJobs, createServerJob, serverJobPayload } from './server-jobs';

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

describe('handing a job to the console server', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  const job: NewServerJob = {
    id: 'job-0123456789',
    createdAt: 1,
    source: { kind: 'file', fileName: 'shipments.csv', size: 1000, contentHash: null },
    endpoint: 'file',
    headers: ['tracking_number', 'tracking_type'],
    chunkRows: 3,
    rowsRead: 301,
    numbering: 'Line',
    skippedBeforeSend: [{ rowNumber: 2, reason: 'Excluded in the review.' }],
    notify: false,
    sentBy: 'Ana',
    chunks: Array.from({ length: 100 }, (_, i) => ({
      rowNumbers: [3 * i + 3, 3 * i + 4, 3 * i + 5],
      body: { format: 'csv' as const, csv: `tracking_number,tracking_type\r\nMSKU${i},container\r\n"a, ""b""",bl\r\nx → y,booking` },
      withoutReference: i % 3,
      ...(i % 2 === 0 ? { foreseen: 'cu?' } : {}),
    })),
  };

  it('sends the job as the schema reads it, written in parts while the page goes on with other tasks', async () => {
    // Each chunk takes 3 ms to write, by this clock: a task of the page's holds two or three.
    let clock = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => (clock += 3));
    const stringify = JSON.stringify;
    let writtenInTask = 0;
    let mostInOneTask = 0;
    vi.spyOn(JSON, 'stringify').mockImplementation((...args: Parameters<typeof JSON.stringify>) => {
      const value: unknown = args[0];
      if (typeof value === 'object' && value !== null && 'rowNumbers' in value) mostInOneTask = Math.max(mostInOneTask, ++writtenInTask);
      return stringify(...args);
    });
    let sent: unknown = null;
    let otherTasks = 0;
    let otherTasksBeforeFetch = -1;
    vi.stubGlobal('fetch', async (_url: string, init: RequestInit) => {
      otherTasksBeforeFetch = otherTasks;
      sent = JSON.parse(typeof init.body === 'string' ? init.body : await (init.body as Blob).text());
      return Response.json({ job: { id: job.id, createdAt: 1, updatedAt: 1, finishedAt: null, runState: 'running', pausedReason: null, chunks: [], batches: {}, runsOn: 'console-server' } });
    });
    // Another task of the page's, queued after Send began, again and again until the job is sent.
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      otherTasks++;
      writtenInTask = 0;
      if (otherTasksBeforeFetch < 0) channel.port2.postMessage(null);
    };
    const made = createServerJob(ownServer, job);
    channel.port2.postMessage(null);
    expect((await made).id).toBe(job.id);
    channel.port1.close();
    expect(sent).toEqual(newServerJobSchema.parse(job));
    expect(otherTasksBeforeFetch).toBeGreaterThanOrEqual(30);
    expect(mostInOneTask).toBeLessThanOrEqual(3);
  });
});
