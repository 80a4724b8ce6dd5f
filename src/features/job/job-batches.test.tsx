import 'fake-indexeddb/auto';
import { createMemoryHistory, createRootRoute, createRoute, createRouter, Outlet, RouterProvider, useParams } from '@tanstack/react-router';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BatchProgress, ImportJob } from '../../jobs/import-job';
import { madeJob, transition } from '../../jobs/job-machine';
import { jobStore } from '../../jobs/job-runtime';
import { BatchTable, UnknownChunks } from './job-batches';
import type { JobView } from './job-view';

function batch(batchId: string, acceptedAt: number): BatchProgress & { stalled: boolean } {
  return {
    batchId, chunkId: acceptedAt, status: 'completed', total: 2, completed: 2,
    counts: { created: 2, updated: 0, failed: 0, withWarnings: 0, trackingFailed: 0 },
    problems: [], problemCount: 0, acceptedAt, lastPolledAt: acceptedAt, lastMovedAt: acceptedAt, finishedAt: acceptedAt, failureReason: null, unmatchedItems: 0,
    stalled: false,
  };
}

function BatchPageStub() {
  const { batchId } = useParams({ strict: false });
  return <h1>Batch {batchId}</h1>;
}

function renderBatches(batchIds: string[]) {
  const view = { batches: batchIds.map((id, i) => batch(id, i + 1)) } as JobView;
  const root = createRootRoute({ component: Outlet });
  const routes = [
    createRoute({ getParentRoute: () => root, path: '/imports/$jobId', component: () => <BatchTable view={view} now={10} /> }),
    createRoute({ getParentRoute: () => root, path: '/batches/$batchId', component: BatchPageStub }),
  ];
  const router = createRouter({ routeTree: root.addChildren(routes), history: createMemoryHistory({ initialEntries: ['/imports/job-1'] }) });
  render(<RouterProvider router={router} />);
  return router;
}

/** A clipboard that takes text (or refuses it), in place of the browser's. */
function stubClipboard(writeText: (text: string) => Promise<void>) {
  const clipboard = { writeText: vi.fn(writeText) };
  // user-event puts its own clipboard on navigator: replace that one for the test.
  Object.defineProperty(navigator, 'clipboard', { value: clipboard, configurable: true });
  return clipboard;
}

afterEach(() => {
  Reflect.deleteProperty(navigator, 'clipboard');
  vi.restoreAllMocks();
});

/** A job of two one-row chunks whose answers were both lost. */
function jobWithLostAnswers(): ImportJob {
  let job = madeJob(
    { id: 'job-1', at: 0, source: { kind: 'quick-add' }, endpoint: 'list', headers: [], chunkRows: 1, serviceUrl: 'https://svc.example', rowsRead: 2, numbering: 'Row', skippedBeforeSend: [], notify: false },
    [{ rowNumbers: [1], withoutReference: 1 }, { rowNumbers: [2], withoutReference: 0 }],
  );
  for (const chunkId of [0, 1]) {
    job = transition(job, { type: 'claim', chunkId, at: 1 }).job!;
    job = transition(job, { type: 'lost', chunkId, error: 'The connection dropped before the service answered.', at: 2 }).job!;
  }
  return job;
}

describe('The job page’s requests whose answer was lost', () => {
  it('takes one answer per loss: a second click, or a page a poll behind, sends nothing more', async () => {
    const job = jobWithLostAnswers();
    const resend = vi.spyOn(jobStore, 'resendChunk').mockResolvedValue({ job, refused: null });
    // The page is a poll behind: the job it shows still has the chunk lost.
    render(<UnknownChunks job={job} />);
    const button = screen.getByRole('button', { name: 'Resend rows 1–1' });
    await userEvent.click(button);
    await userEvent.click(button);
    expect(resend).toHaveBeenCalledTimes(1);
    expect(button).toHaveAttribute('aria-disabled', 'true');
    expect(screen.getByRole('button', { name: 'Skip rows 1–1' })).toHaveAttribute('aria-disabled', 'true');
    // The other loss is still the person's to answer.
    expect(screen.getByRole('button', { name: 'Resend rows 2–2' })).not.toHaveAttribute('aria-disabled', 'true');
  });

  it('says why an answer was refused, and lets the person answer again when it never reached the job', async () => {
    const job = jobWithLostAnswers();
    vi.spyOn(jobStore, 'skipChunk').mockResolvedValueOnce({ job, refused: 'Rows 2–2 skipped: only a chunk whose answer was lost is skipped.' });
    const resend = vi.spyOn(jobStore, 'resendChunk').mockRejectedValueOnce(new Error('The console’s server did not answer.')).mockResolvedValue({ job, refused: null });
    render(<UnknownChunks job={job} />);
    await userEvent.click(screen.getByRole('button', { name: 'Skip rows 2–2' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Rows 2–2 skipped: only a chunk whose answer was lost is skipped.');
    await userEvent.click(screen.getByRole('button', { name: 'Resend rows 1–1' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Your answer for rows 1–1 did not reach the job: The console’s server did not answer.');
    const again = screen.getByRole('button', { name: 'Resend rows 1–1' });
    await waitFor(() => expect(again).not.toHaveAttribute('aria-disabled', 'true'));
    await userEvent.click(again);
    expect(resend).toHaveBeenCalledTimes(2);
  });
});

describe('The job page’s batches', () => {
  it('links every batch id to its batch page, the cell holding the id alone', async () => {
    const router = renderBatches(['b-one', 'b-two']);
    const table = await screen.findByRole('table');
    const ids = within(table).getAllByRole('row').slice(1).map((row) => within(row).getAllByRole('cell')[0]?.textContent);
    expect(ids).toEqual(['b-one', 'b-two']);
    const link = within(table).getByRole('link', { name: 'b-two' });
    expect(link).toHaveAttribute('href', '/batches/b-two');
    await userEvent.click(link);
    expect(await screen.findByRole('heading', { name: 'Batch b-two' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/batches/b-two');
  });

  it('copies the batch page’s absolute address and says so politely', async () => {
    renderBatches(['b-one', 'b-two']);
    const button = await screen.findByRole('button', { name: 'Copy link to batch b-two' });
    const clipboard = stubClipboard(() => Promise.resolve());
    await userEvent.click(button);
    expect(clipboard.writeText).toHaveBeenCalledWith(`${window.location.origin}/batches/b-two`);
    const said = await screen.findByText('Link copied.');
    expect(said).toHaveAttribute('aria-live', 'polite');

    // A second copy empties the sentence and says it again, so it is announced again.
    const texts: string[] = [];
    const watch = new MutationObserver(() => texts.push(said.textContent ?? ''));
    watch.observe(said, { childList: true, subtree: true, characterData: true });
    await userEvent.click(screen.getByRole('button', { name: 'Copy link to batch b-one' }));
    await waitFor(() => expect(texts.at(-1)).toBe('Link copied.'));
    watch.disconnect();
    expect(texts).toContain('');
    expect(clipboard.writeText).toHaveBeenLastCalledWith(`${window.location.origin}/batches/b-one`);
  });

  it('says when the browser refuses the clipboard, and shows the address to copy by hand', async () => {
    renderBatches(['b-one']);
    const button = await screen.findByRole('button', { name: 'Copy link to batch b-one' });
    stubClipboard(() => Promise.reject(new DOMException('Write permission denied.', 'NotAllowedError')));
    await userEvent.click(button);
    const said = await screen.findByText(/^The browser did not allow copying\./);
    expect(said).toHaveTextContent(`Copy the link by hand: ${window.location.origin}/batches/b-one`);
    expect(screen.queryByText('Link copied.')).toBeNull();
  });
});
