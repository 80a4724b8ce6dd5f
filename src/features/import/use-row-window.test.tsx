import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import type { ImportRequestKind, ImportRequests, ReviewRowView } from '../../workers/import-protocol';
import type { ImportSession } from './import-session';
import { ImportSessionProvider } from './use-import-session';
import { useRowWindow } from './use-row-window';

const rowOf = (index: number): ReviewRowView => ({ index, rowNumber: index + 2, values: [`CSQU${index}`], issues: [], excluded: false });

/** A file reader that answers get-rows from a 250-row view at version `version`, and lists what it was asked. */
function readerOf(version: number, failWith: { message: string | null } = { message: null }) {
  const asked: ImportRequests['get-rows'][] = [];
  const session = {
    warm: () => undefined,
    cancel: () => undefined,
    request: <K extends ImportRequestKind>(kind: K, body: ImportRequests[K]) => {
      if (kind !== 'get-rows') return Promise.reject(new Error(`not asked of this reader: ${kind}`));
      const { from, to } = body as ImportRequests['get-rows'];
      asked.push({ from, to });
      if (failWith.message) return Promise.reject(new Error(failWith.message));
      return Promise.resolve({ from, rows: Array.from({ length: to - from }, (_, i) => rowOf(from + i)), version });
    },
  } as unknown as ImportSession;
  const wrapper = ({ children }: { children: ReactNode }) => <ImportSessionProvider session={session}>{children}</ImportSessionProvider>;
  return { asked, wrapper };
}

describe('useRowWindow', () => {
  it('shows the rows the review was built with at once, and asks only for the pages after them', async () => {
    const { asked, wrapper } = readerOf(0);
    const first = { version: 0, rows: Array.from({ length: 100 }, (_, i) => rowOf(i)) };
    const { result } = renderHook(() => useRowWindow(0, 0, 250, first), { wrapper });
    act(() => result.current.ensure(0, 40));
    await waitFor(() => expect(result.current.rowAt(0)?.values).toEqual(['CSQU0']));
    expect(asked).toEqual([]);
    act(() => result.current.ensure(90, 130));
    expect(asked).toEqual([{ from: 100, to: 200 }]);
  });

  it('keeps the rows it was built with beside a later page that came first (a window taller than a page)', async () => {
    const { asked, wrapper } = readerOf(0);
    const first = { version: 0, rows: Array.from({ length: 100 }, (_, i) => rowOf(i)) };
    const { result } = renderHook(() => useRowWindow(0, 0, 250, first), { wrapper });
    act(() => result.current.ensure(0, 130));
    expect(asked).toEqual([{ from: 100, to: 200 }]);
    await waitFor(() => expect(result.current.rowAt(120)?.values).toEqual(['CSQU120']));
    await waitFor(() => expect(result.current.rowAt(0)?.values).toEqual(['CSQU0']));
  });

  it('asks for the first page when the rows it was built with are of another version', async () => {
    const { asked, wrapper } = readerOf(3);
    const first = { version: 0, rows: Array.from({ length: 100 }, (_, i) => rowOf(i)) };
    const { result } = renderHook(() => useRowWindow(3, 1, 250, first), { wrapper });
    expect(result.current.rowAt(0)).toBeUndefined();
    act(() => result.current.ensure(0, 40));
    expect(asked).toEqual([{ from: 0, to: 100 }]);
    await waitFor(() => expect(result.current.rowAt(0)?.values).toEqual(['CSQU0']));
  });

  it('says why a page did not come (a file moved on disk), asks again when next needed, and stops saying it once a page comes', async () => {
    const moved: { message: string | null } = { message: 'The file changed or moved on your disk since it was dropped; drop it again.' };
    const { asked, wrapper } = readerOf(0, moved);
    const { result } = renderHook(() => useRowWindow(0, 0, 250), { wrapper });
    act(() => result.current.ensure(0, 40));
    await waitFor(() => expect(result.current.failure).toBe(moved.message));
    expect(result.current.rowAt(0)).toBeUndefined();
    moved.message = null;
    act(() => result.current.ensure(0, 40));
    await waitFor(() => expect(result.current.rowAt(0)?.values).toEqual(['CSQU0']));
    expect(result.current.failure).toBeNull();
    expect(asked).toEqual([{ from: 0, to: 100 }, { from: 0, to: 100 }]);
  });
});
