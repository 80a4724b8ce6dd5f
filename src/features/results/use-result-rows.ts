// The rows of open results that the grid has on hand, asked of the results thread a page at a
// time as the user scrolls (as the review grid asks the import worker: features/import/use-row-window.ts).
// When the results grow (a batch joined: a new version) the rows shown stay as stand-ins until
// their fresh copies arrive, so the grid never blanks while a job runs. The grid asks for the
// rows in sight (`ensure`) whenever they or the rows change.
import { useCallback, useState } from 'react';
import type { ResultsThread } from '../../jobs/thread/results-reader';
import type { ResultFilter, ResultRowView, ResultsSummary } from '../../jobs/thread/results-protocol';

const PAGE = 100;

interface Window {
  key: string;
  filter: ResultFilter;
  byIndex: Map<number, ResultRowView>;
  stale: Map<number, ResultRowView>;
  /** Pages asked for under this key (a filter shown again asks again: its rows were dropped). */
  asked: Set<number>;
}

export function useResultRows(thread: ResultsThread, results: ResultsSummary, filter: ResultFilter) {
  const { session, version } = results;
  const count = results.counts[filter];
  const key = `${session}:${version}:${filter}`;
  const [rows, setRows] = useState<Window>(() => ({ key, filter, byIndex: new Map(), stale: new Map(), asked: new Set() }));

  // Another version of the same filter: keep the rows shown as stand-ins; another filter: none.
  if (rows.key !== key) {
    const stale = rows.filter === filter ? new Map([...rows.stale, ...rows.byIndex]) : new Map<number, ResultRowView>();
    setRows({ key, filter, byIndex: new Map(), stale, asked: new Set() });
  }
  const { asked } = rows;

  const fetchPage = useCallback(
    (page: number) => {
      // Asked under an older key (rendered before the reset above took effect): not this window's.
      if (rows.key !== key || asked.has(page)) return;
      const from = page * PAGE;
      const to = Math.min(count, from + PAGE);
      if (from >= to) return;
      asked.add(page);
      thread
        .request('results-rows', { session, filter, from, to })
        .then((answer) => {
          if (answer.version !== version) return;
          setRows((current) => {
            if (current.key !== key) return current;
            const byIndex = new Map(current.byIndex);
            answer.rows.forEach((row, i) => byIndex.set(answer.from + i, row));
            return { ...current, byIndex };
          });
        })
        .catch(() => asked.delete(page));
    },
    [thread, session, version, filter, count, key, rows.key, asked],
  );

  const ensure = useCallback(
    (from: number, to: number) => {
      for (let page = Math.floor(from / PAGE); page <= Math.floor(Math.max(from, to - 1) / PAGE); page++) fetchPage(page);
    },
    [fetchPage],
  );

  const rowAt = (index: number): ResultRowView | undefined => rows.byIndex.get(index) ?? rows.stale.get(index);
  return { rowAt, ensure };
}
