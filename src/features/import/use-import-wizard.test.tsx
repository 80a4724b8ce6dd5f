import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import type { ImportRequestKind, ImportRequests, ReviewState, TableSummary } from '../../workers/import-protocol';
import type { ImportSession } from './import-session';
import { freshReview } from './test-support';
import { ImportSessionProvider } from './use-import-session';
import { useImportWizard } from './use-import-wizard';

const review = freshReview;

const summaryOf = (header: string[]): TableSummary => ({
  fileName: 'shipments.csv',
  kind: 'csv',
  sheets: [{ name: 'shipments', rowCount: 2 }],
  sheet: 'shipments',
  rowCount: 2,
  preview: [header, ['MSKU1234565', 'container', 'PO-1']],
  previewRowNumbers: [1, 2],
  numbering: 'Line',
  retried: false,
});

/**
 * A file reader that answers a read with `summary` and a build with its review, and lists what it
 * was asked. `checked`: a review answered with its first rows checked, and how its check ends.
 */
function readerOf(summary: TableSummary, checked?: { whole: ReviewState } | { failure: string } | { later: Promise<never> }) {
  const asked: { kind: ImportRequestKind; body: unknown }[] = [];
  const first: ReviewState = checked ? { ...review, checkedRows: 256, counts: { ...review.counts, rows: 100_000 } } : review;
  const session = {
    warm: () => undefined,
    cancel: () => undefined,
    tell: <K extends ImportRequestKind>(kind: K, body: ImportRequests[K]) => void asked.push({ kind, body }),
    request: <K extends ImportRequestKind>(kind: K, body: ImportRequests[K]) => {
      asked.push({ kind, body });
      if (kind === 'read') return Promise.resolve({ summary });
      if (kind === 'build-review') return Promise.resolve({ columns: ['tracking_number'], state: first, firstRows: [] });
      if (kind === 'review-checked' && checked) {
        if ('later' in checked) return checked.later;
        return 'whole' in checked ? Promise.resolve({ state: checked.whole, firstRows: [] }) : Promise.reject(new Error(checked.failure));
      }
      if (kind === 'reread') return Promise.resolve({ summary });
      return Promise.reject(new Error(`not asked of this reader: ${kind}`));
    },
  } as unknown as ImportSession;
  const wrapper = ({ children }: { children: ReactNode }) => <ImportSessionProvider session={session}>{children}</ImportSessionProvider>;
  return { asked, wrapper };
}

const builds = (asked: { kind: ImportRequestKind; body: unknown }[]) => asked.filter((request) => request.kind === 'build-review').map((request) => request.body);

describe('useImportWizard', () => {
  it('asks for the review while the Columns step is shown, once per file, with the mapping it proposes; Continue asks with the mapping then shown', async () => {
    const { asked, wrapper } = readerOf(summaryOf(['Container No', 'Type', 'Ref']));
    const { result } = renderHook(() => useImportWizard([], 300, []), { wrapper });
    act(() => result.current.readFile(new File(['x'], 'shipments.csv')));
    await waitFor(() => expect(result.current.state.current.step).toBe('map'));
    const shown = result.current.state.current;
    if (shown.step !== 'map') throw new Error('not on the Columns step');
    await waitFor(() => expect(builds(asked)).toEqual([{ headerRow: 0, mapping: shown.mapping }]));
    // A column mapped by hand is not built ahead again: Continue builds it.
    act(() => result.current.chooseTarget(2, null));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(builds(asked)).toHaveLength(1);
    act(() => result.current.buildReview());
    await waitFor(() => expect(result.current.state.current.step).toBe('review'));
    const atContinue = builds(asked)[1] as { mapping: { target: string | null }[] };
    expect(atContinue.mapping[2]?.target).toBeNull();
  });

  it('Continue with the proposal takes the review built ahead, asking nothing more', async () => {
    const { asked, wrapper } = readerOf(summaryOf(['Container No', 'Type', 'Ref']));
    const { result } = renderHook(() => useImportWizard([], 300, []), { wrapper });
    act(() => result.current.readFile(new File(['x'], 'shipments.csv')));
    await waitFor(() => expect(builds(asked)).toHaveLength(1));
    act(() => result.current.buildReview());
    await waitFor(() => expect(result.current.state.current.step).toBe('review'));
    expect(builds(asked)).toHaveLength(1);
  });

  it('Continue asks the worker to hold its check while the review is drawn, and lifts the hold once it is', async () => {
    const { asked, wrapper } = readerOf(summaryOf(['Container No', 'Type', 'Ref']));
    const { result } = renderHook(() => useImportWizard([], 300, []), { wrapper });
    act(() => result.current.readFile(new File(['x'], 'shipments.csv')));
    await waitFor(() => expect(builds(asked)).toHaveLength(1));
    const holds = () => asked.filter((request) => request.kind === 'hold-check').map((request) => request.body);
    expect(holds()).toEqual([]);
    act(() => result.current.buildReview());
    expect(holds()).toEqual([{ forMs: 250 }]);
    await waitFor(() => expect(result.current.state.current.step).toBe('review'));
    await waitFor(() => expect(holds()).toEqual([{ forMs: 250 }, { forMs: 0 }]));
  });

  it('a large file: the grid opens with its first rows checked, and the counts come whole when the rest are', async () => {
    const whole: ReviewState = { ...review, version: 1, checkedRows: 100_000, counts: { ...review.counts, rows: 100_000, readyRows: 99_000, errorRows: 1_000 } };
    const { wrapper } = readerOf(summaryOf(['Container No', 'Type', 'Ref']), { whole });
    const { result } = renderHook(() => useImportWizard([], 300, []), { wrapper });
    act(() => result.current.readFile(new File(['x'], 'shipments.csv')));
    await waitFor(() => expect(result.current.state.current.step).toBe('map'));
    act(() => result.current.buildReview());
    await waitFor(() => expect(result.current.state.current).toMatchObject({ step: 'review', review: whole, error: null }));
  });

  it('a check that stops after the first rows says so on the review step', async () => {
    const { wrapper } = readerOf(summaryOf(['Container No', 'Type', 'Ref']), { failure: 'The file is too large to read in this browser tab.' });
    const { result } = renderHook(() => useImportWizard([], 300, []), { wrapper });
    act(() => result.current.readFile(new File(['x'], 'shipments.csv')));
    await waitFor(() => expect(result.current.state.current.step).toBe('map'));
    act(() => result.current.buildReview());
    await waitFor(() =>
      expect(result.current.state.current).toMatchObject({ step: 'review', error: 'The rows could not all be checked: The file is too large to read in this browser tab.' }),
    );
  });

  it('a check of a review left behind (Back, the file read again) that fails later says nothing on the step now shown', async () => {
    let fail: (error: Error) => void = () => undefined;
    const later = new Promise<never>((_, reject) => (fail = reject));
    const { wrapper } = readerOf(summaryOf(['Container No', 'Type', 'Ref']), { later });
    const { result } = renderHook(() => useImportWizard([], 300, []), { wrapper });
    act(() => result.current.readFile(new File(['x'], 'shipments.csv')));
    await waitFor(() => expect(result.current.state.current.step).toBe('map'));
    act(() => result.current.buildReview());
    await waitFor(() => expect(result.current.state.current.step).toBe('review'));
    act(() => result.current.back());
    act(() => result.current.reread({ delimiter: ';' }));
    await waitFor(() => expect(result.current.state.current).toMatchObject({ step: 'map', busy: false }));
    await act(async () => {
      fail(new Error('The rows were mapped or read again before they were all checked; that change was not applied to the new review.'));
      await new Promise((resolve) => setTimeout(resolve, 10));
    });
    expect(result.current.state.current).toMatchObject({ step: 'map', error: null });
  });

  it('builds nothing ahead when the proposal leaves a required column unmapped', async () => {
    const { asked, wrapper } = readerOf(summaryOf(['Ref', 'Notes', 'Other']));
    const { result } = renderHook(() => useImportWizard([], 300, []), { wrapper });
    act(() => result.current.readFile(new File(['x'], 'shipments.csv')));
    await waitFor(() => expect(result.current.state.current.step).toBe('map'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(builds(asked)).toEqual([]);
  });
});
