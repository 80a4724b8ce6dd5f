import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { BatchOutcome, ChunkPayload, ImportJob, OutcomeItem } from '../../jobs/import-job';
import { ForesightOutcome } from './foresight-outcome';

const stored = vi.hoisted(() => ({ payloads: new Map<number, unknown>(), outcomes: new Map<string, unknown>() }));
vi.mock('../../jobs/job-runtime', () => ({
  jobStore: {
    getPayload: (_jobId: string, chunkId: number) => Promise.resolve(stored.payloads.get(chunkId)),
    getOutcome: (_jobId: string, batchId: string) => Promise.resolve(stored.outcomes.get(batchId)),
  },
}));

const item = (rowNumber: number, creationStatus: string, reference: string | null): OutcomeItem => ({ rowNumber, creationStatus, trackingStatus: 'succeeded', shipmentId: 's', reference, problems: [] });

function job(finishedAt: number | null): ImportJob {
  return {
    id: 'j', createdAt: 0, updatedAt: 0, finishedAt, source: { kind: 'file', fileName: 'a.csv', size: null, contentHash: null }, endpoint: 'file',
    headers: [], chunkRows: 3, serviceUrl: '', rowsRead: 3, numbering: 'Line', skippedBeforeSend: [], nextChunkId: 1, batches: {}, runState: 'finished', pausedReason: null, notify: false,
    chunks: [{ id: 0, firstPosition: 0, rowCount: 3, firstRow: 2, lastRow: 4, withoutReference: 1, state: { status: 'accepted', batchId: 'b', at: 0 }, attempts: 1 }],
  };
}

function show(finishedAt: number | null) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <ForesightOutcome job={job(finishedAt)} numbering="Line" />
    </QueryClientProvider>,
  );
}

function keep(foreseen: string | undefined, items: OutcomeItem[]) {
  const payload: ChunkPayload = { jobId: 'j', chunkId: 0, rowNumbers: [2, 3, 4], body: { format: 'csv', csv: '' }, ...(foreseen === undefined ? {} : { foreseen }) };
  const outcome: BatchOutcome = { jobId: 'j', batchId: 'b', chunkId: 0, status: 'completed', failureReason: null, items };
  stored.payloads.set(0, payload);
  stored.outcomes.set('b', outcome);
}

describe('ForesightOutcome', () => {
  it('says how many rows did not do what the Ready step foresaw, and lists them on request', async () => {
    keep('cun', [item(2, 'updated', 'API-1'), item(3, 'updated', 'R2'), item(4, 'created', null)]);
    show(10);
    const region = await screen.findByRole('region', { name: 'As foreseen?' });
    expect(region).toHaveTextContent('1 row did not do what the Ready step foresaw: 1 foreseen to create updated an existing shipment.');
    await userEvent.click(within(region).getByRole('button', { name: 'Show this row' }));
    const rows = within(screen.getByRole('region', { name: 'Rows not as foreseen' })).getAllByRole('row');
    expect(rows.map((row) => row.textContent)).toEqual(['LineReferenceForeseenThe service', '2API-1create a shipmentupdated an existing shipment']);
  });

  it('says all rows did as foreseen', async () => {
    keep('cun', [item(2, 'created', 'N-1'), item(3, 'updated', 'R2'), item(4, 'created', null)]);
    show(10);
    expect(await screen.findByRole('region', { name: 'As foreseen?' })).toHaveTextContent('All 3 rows the service took did what the Ready step foresaw.');
  });

  it('shows nothing for a job that kept no foresight, or before it finished', async () => {
    keep(undefined, [item(2, 'updated', 'API-1')]);
    show(10);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('region', { name: 'As foreseen?' })).toBeNull();
    keep('c', [item(2, 'updated', 'API-1')]);
    show(null);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('region', { name: 'As foreseen?' })).toBeNull();
  });
});
