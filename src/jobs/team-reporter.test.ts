import { describe, expect, it } from 'vitest';
import type { TeamChunkRows, TeamJobReport } from '../contract/team-history';
import type { ChunkPayload, ImportJob, JobChunk } from './import-job';
import { TeamReporter, teamReport } from './team-reporter';

const chunk = (id: number, state: JobChunk['state']): JobChunk => ({
  id,
  firstPosition: id * 2,
  rowCount: 2,
  firstRow: id * 2 + 2,
  lastRow: id * 2 + 3,
  withoutReference: 0,
  state,
  attempts: state.status === 'pending' ? 0 : 1,
});

function job(overrides: Partial<ImportJob> = {}): ImportJob {
  return {
    id: 'job-00000001',
    createdAt: 1_000,
    updatedAt: 1_000,
    finishedAt: null,
    source: { kind: 'file', fileName: 'weekly.xlsx', size: 10, contentHash: null, sheet: 'Data' },
    endpoint: 'file',
    headers: ['tracking_number'],
    chunkRows: 2,
    serviceUrl: '',
    rowsRead: 5, numbering: 'Row',
    skippedBeforeSend: [{ rowNumber: 7, reason: 'excluded in review' }],
    chunks: [chunk(0, { status: 'accepted', batchId: 'b-1', at: 1 }), chunk(1, { status: 'pending' })],
    nextChunkId: 2,
    batches: {},
    runState: 'running',
    pausedReason: null,
    notify: false,
    ...overrides,
  };
}

function harness(initial: ImportJob[], options: { failRows?: number; claimed?: Record<string, string>; tag?: string } = {}) {
  let jobs = initial;
  const claimed: Record<string, string> = options.claimed ?? Object.fromEntries(initial.map((job) => [job.id, 'ws-a']));
  let tag = options.tag ?? 'ws-a';
  const listeners = new Set<() => void>();
  const reports: { id: string; report: TeamJobReport }[] = [];
  const rows: { id: string; chunkId: number; rows: TeamChunkRows }[] = [];
  const kept = new Map<string, number[]>();
  let failRows = options.failRows ?? 0;
  const reporter = new TeamReporter({
    jobs: { subscribe: (listener) => (listeners.add(listener), () => listeners.delete(listener)), getSnapshot: () => ({ jobs }) },
    getPayload: (jobId, chunkId): Promise<ChunkPayload> =>
      Promise.resolve({ jobId, chunkId, rowNumbers: [2, 3], body: { format: 'csv', csv: `tracking_number\r\nA${chunkId}\r\nB${chunkId}\r\n` } }),
    connected: () => true,
    workspaceTag: () => Promise.resolve(tag),
    claims: { get: (jobId) => claimed[jobId] ?? null, set: (jobId, value) => void (claimed[jobId] = value) },
    sentBy: () => 'Ana',
    report: (id, report) => {
      reports.push({ id, report });
      return Promise.resolve({ rowsKept: kept.get(id) ?? [] });
    },
    keepRows: (id, chunkId, body) => {
      if (failRows-- > 0) return Promise.reject(new Error('dropped'));
      rows.push({ id, chunkId, rows: body });
      kept.set(id, [...(kept.get(id) ?? []), chunkId]);
      return Promise.resolve();
    },
  });
  const change = async (next: ImportJob[]) => {
    jobs = next;
    listeners.forEach((listener) => listener());
    await reporter.drain();
  };
  const connectAs = (next: string) => {
    tag = next;
  };
  return { reporter, reports, rows, change, connectAs };
}

describe('teamReport', () => {
  it("says the job in History's words, with its chunks' batch ids and the file's numbering", () => {
    const report = teamReport(job(), 'Ana', true);
    expect(report).toMatchObject({
      version: 1_000,
      rowsSkipped: 1,
      source: { kind: 'file', name: 'weekly.xlsx', size: 10, contentHash: null, retryOf: null },
      numbering: 'Row',
      sentBy: 'Ana',
      state: 'Sending',
      finished: false,
      skipped: [{ rowNumber: 7, reason: 'excluded in review' }],
    });
    expect(report.chunks.map((c) => [c.id, c.status, c.batchId])).toEqual([
      [0, 'accepted', 'b-1'],
      [1, 'pending', null],
    ]);
    expect(teamReport(job(), null, false)).not.toHaveProperty('skipped');
  });

  it('gives a retry the numbering the job was made with, though the job it retried is gone', () => {
    const retry = job({ source: { kind: 'retry', jobId: 'deleted-job', label: 'Retry of march.csv' }, numbering: 'Line' });
    expect(teamReport(retry, null, false).numbering).toBe('Line');
  });
});

describe('TeamReporter', () => {
  it('reports each version of a job once, with the rows of each chunk that went out, and the skipped rows only the first time', async () => {
    const { reporter, reports, rows, change } = harness([job()]);
    reporter.start();
    await reporter.drain();
    expect(reports).toHaveLength(1);
    expect(reports[0]?.report.skipped).toHaveLength(1);
    expect(rows.map((r) => r.chunkId)).toEqual([0]);

    await change([job()]); // no new version
    expect(reports).toHaveLength(1);

    await change([job({ updatedAt: 2_000, chunks: [chunk(0, { status: 'accepted', batchId: 'b-1', at: 1 }), chunk(1, { status: 'sending', since: 2 })] })]);
    expect(reports).toHaveLength(2);
    expect(reports[1]?.report).not.toHaveProperty('skipped');
    expect(rows.map((r) => r.chunkId)).toEqual([0, 1]);
    reporter.stop();
  });

  it("reports a job only to the workspace it was sent in: never an unclaimed job, never while connected to another workspace", async () => {
    const { reporter, reports, connectAs } = harness([job()], { claimed: {} });
    await reporter.drain();
    expect(reports).toEqual([]);
    connectAs('ws-b');
    await reporter.claim('job-00000001');
    expect(reports.map((r) => r.id)).toEqual(['job-00000001']);
    connectAs('ws-a');
    await reporter.drain();
    expect(reports).toHaveLength(1);
  });

  it('leaves out jobs sent straight to a service on another origin', async () => {
    const { reporter, reports } = harness([job({ serviceUrl: 'https://api.example.com' })]);
    await reporter.drain();
    expect(reports).toEqual([]);
  });

  it('tries a job again at its next change when its rows could not be kept', async () => {
    const { reporter, reports, rows, change } = harness([job()], { failRows: 1 });
    await reporter.drain();
    expect(rows).toEqual([]);
    await change([job()]);
    expect(reports).toHaveLength(2);
    expect(reports[1]?.report.skipped).toHaveLength(1);
    expect(rows.map((r) => r.chunkId)).toEqual([0]);
  });
});
