import { useCallback, useEffect, useRef, useState } from 'react';
import type { FirstRows, ReviewRowView } from '../../workers/import-protocol';
import { useImportSession } from './use-import-session';

const PAGE = 100;

/**
 * The rows of the current view that the grid has on hand, fetched from the worker a page at a
 * time as the user scrolls. When `version` changes after an edit the old rows stay on screen
 * until their fresh copies arrive, so an edit never blanks the grid. `failure`: why the last page
 * asked for did not come (the worker's sentence), until one does.
 */
export function useRowWindow(version: number, viewVersion: number, viewLength: number, first?: FirstRows) {
  const session = useImportSession();
  // The first page comes with the review when it is still the view's, and is not asked again when whole.
  const firstHeld = first !== undefined && first.version === version;
  const firstWhole = firstHeld && first.rows.length >= Math.min(PAGE, viewLength);
  // The first page is rendered with the step, in one task: rows a task later would wait for a
  // frame of the step without them. The worker's check is held meanwhile (useImportWizard), so
  // that task and its frame have a processor to themselves.
  const [rows, setRows] = useState<{ version: number; viewVersion: number; byIndex: Map<number, ReviewRowView>; stale: Map<number, ReviewRowView> }>(() => ({
    version,
    viewVersion,
    byIndex: new Map(firstHeld ? first.rows.map((row, i): [number, ReviewRowView] => [i, row]) : []),
    stale: new Map(),
  }));
  const requested = useRef(new Set<string>(firstWhole ? [`${version}:0`] : []));
  /** Why the last page asked for did not come, until one does. */
  const [failure, setFailure] = useState<string | null>(null);
  const range = useRef<[number, number]>([0, 0]);

  const fetchPage = useCallback(
    (page: number, forVersion: number) => {
      const key = `${forVersion}:${page}`;
      if (requested.current.has(key)) return;
      requested.current.add(key);
      const from = page * PAGE;
      const to = Math.min(viewLength, from + PAGE);
      if (from >= to) return;
      session
        .request('get-rows', { from, to })
        .then((answer) => {
          setFailure(null);
          if (answer.version !== forVersion) return;
          setRows((current) => {
            if (current.version !== forVersion) return current;
            const byIndex = new Map(current.byIndex);
            answer.rows.forEach((row, i) => byIndex.set(answer.from + i, row));
            return { ...current, byIndex };
          });
        })
        .catch((error: unknown) => {
          // Asked again when next needed; meanwhile the step says why (a file moved on disk since the drop).
          requested.current.delete(key);
          setFailure((error as Error).message);
        });
    },
    [session, viewLength],
  );

  const ensure = useCallback(
    (from: number, to: number, forVersion: number) => {
      range.current = [from, to];
      for (let page = Math.floor(from / PAGE); page <= Math.floor(Math.max(from, to - 1) / PAGE); page++) fetchPage(page, forVersion);
    },
    [fetchPage],
  );

  // A new version: keep the old rows as stand-ins while the view's order is the same, drop them
  // when it changed (adjusting state while rendering, as React recommends for derived state).
  if (rows.version !== version) {
    const stale = rows.viewVersion === viewVersion ? new Map([...rows.stale, ...rows.byIndex]) : new Map<number, ReviewRowView>();
    setRows({ version, viewVersion, byIndex: new Map(), stale });
  }

  useEffect(() => {
    ensure(range.current[0], range.current[1], version);
  }, [version, viewLength, ensure]);

  /** Puts a row the worker just sent (after an edit) wherever the grid shows it, at once. */
  const patchRow = useCallback((row: ReviewRowView) => {
    const patch = (map: Map<number, ReviewRowView>) => {
      let next = map;
      for (const [position, shown] of map) {
        if (shown.index !== row.index) continue;
        if (next === map) next = new Map(map);
        next.set(position, row);
      }
      return next;
    };
    setRows((current) => ({ ...current, byIndex: patch(current.byIndex), stale: patch(current.stale) }));
  }, []);

  const rowAt = (index: number): ReviewRowView | undefined => rows.byIndex.get(index) ?? rows.stale.get(index);
  return { rowAt, patchRow, ensure: (from: number, to: number) => ensure(from, to, version), failure };
}
