import { Link, useNavigate } from '@tanstack/react-router';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useConnection } from '../../api/use-connection';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { PageHeader } from '../../components/page-header';
import { chooseChunkRows } from '../../jobs/job-settings';
import { jobStore, teamReporter } from '../../jobs/job-runtime';
import type { VirtualGridHandle } from '../../components/virtual-grid';
import { type GridHandlers, KEYS_HINT_ID, QuickAddGrid, RowIssues } from './quick-add-grid';
import { MAX_QUICK_ADD_ROWS, QUICK_ADD_COLUMNS, checkQuickAdd, emptyRow, pasteRows, toRequests } from './quick-add-rows';
import { formatCount, plural as count } from '../../components/plural';

const STARTING_ROWS = 3;

/** Journey 11: type or paste a few shipments, checked as a file's rows are, sent as one JSON list job. */
export function QuickAddPage() {
  const connection = useConnection();
  const navigate = useNavigate();
  const [rows, setRows] = useState<string[][]>(() => Array.from({ length: STARTING_ROWS }, emptyRow));
  const [notes, setNotes] = useState<string[]>([]);
  const [sendProblem, setSendProblem] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  // The row whose issues are listed in full: the one the focus was last in.
  const [activeRow, setActiveRow] = useState(0);
  const shownRow = Math.min(activeRow, rows.length - 1);
  const grid = useRef<VirtualGridHandle>(null);
  const check = useMemo(() => checkQuickAdd(rows), [rows]);
  const ready = check.filled - check.errorRows;
  const full = rows.length >= MAX_QUICK_ADD_ROWS;

  // A cell to focus once the render that adds it is done (a new row).
  const focusAfterRender = useRef<{ row: number; column: number } | null>(null);
  useEffect(() => {
    if (!focusAfterRender.current) return;
    const { row, column } = focusAfterRender.current;
    focusAfterRender.current = null;
    grid.current?.focusCell(row, column);
  });
  const focusCell = (row: number, column: number) => grid.current?.focusCell(row, column);

  const addRow = () => {
    focusAfterRender.current = { row: rows.length, column: 0 };
    setRows((current) => (current.length >= MAX_QUICK_ADD_ROWS ? current : [...current, emptyRow()]));
  };

  // Stable across renders, so rows whose text and issues did not change skip rendering.
  const handlers = useMemo<GridHandlers>(
    () => ({
      onChange: (row, column, value) => {
        setSendProblem(null);
        setRows((current) => current.map((cells, index) => (index === row ? cells.map((cell, c) => (c === column ? value : cell)) : cells)));
      },
      onPaste: (row, column, text) => {
        setSendProblem(null);
        setRows((current) => {
          const pasted = pasteRows(current, { row, column }, text);
          setNotes(pasted.notes);
          return pasted.rows;
        });
      },
      onRemove: (row) => {
        setRows((current) => (current.length === 1 ? [emptyRow()] : current.filter((_, index) => index !== row)));
        setNotes([]);
      },
      onEnterLastRow: (row, column) => {
        focusAfterRender.current = { row: row + 1, column };
        setRows((current) => (current.length >= MAX_QUICK_ADD_ROWS ? current : [...current, emptyRow()]));
      },
    }),
    [],
  );

  const send = async () => {
    if (check.filled === 0) {
      setSendProblem('Type or paste at least one shipment first.');
      focusCell(0, 0);
      return;
    }
    if (check.errorRows > 0) {
      setSendProblem(`Fix or remove ${check.errorRows === 1 ? 'the row' : `the ${check.errorRows} rows`} with errors first: nothing is sent until every row can be.`);
      const first = check.rows.findIndex((row) => row.hasError);
      const column = QUICK_ADD_COLUMNS.findIndex((field) => check.rows[first]?.issues[field]?.some((issue) => issue.level === 'error'));
      focusCell(first, Math.max(0, column));
      return;
    }
    if (!connection) return;
    setSending(true);
    try {
      const { requests, rowNumbers } = toRequests(check);
      const job = await jobStore.createJob({
        source: { kind: 'quick-add' },
        serviceUrl: connection.baseUrl,
        rowsRead: requests.length,
        numbering: 'Row',
        skipped: [],
        rows: { format: 'json', requests, rowNumbers },
        chunkRows: chooseChunkRows({ sandbox: connection.sandbox, advertisedRows: null }),
      });
      // Sent in this connection's workspace: the team history shows it there, and only there.
      void teamReporter.claim(job.id);
      await navigate({ to: '/imports/$jobId', params: { jobId: job.id } });
    } catch (error) {
      setSendProblem(`The job could not be created: ${error instanceof Error ? error.message : String(error)}`);
      setSending(false);
    }
  };

  return (
    <div className="space-y-5">
      <PageHeader
        title="Quick add"
        description={
          <>
            Type or paste a few shipments (up to {MAX_QUICK_ADD_ROWS}); they are checked as a file&apos;s rows are and sent as one list. Paste cells straight from a spreadsheet, with or without its header row. For more rows, <Link to="/" className="text-brand-700 underline">import a file</Link>.
          </>
        }
      />
      <p role="status" aria-live="polite" className="text-sm text-slate-700">
        {check.filled === 0
          ? 'No shipments yet.'
          : `${count(check.filled, 'shipment')}: ${formatCount(ready)} ready, ${formatCount(check.errorRows)} with errors, ${formatCount(check.warningRows)} with warnings.`}
      </p>
      {notes.length > 0 && (
        <Alert tone="info" title="Pasted">
          <ul className="list-disc pl-4">
            {notes.map((note) => <li key={note}>{note}</li>)}
          </ul>
        </Alert>
      )}
      <p id={KEYS_HINT_ID} className="text-xs text-slate-600">
        Tab and Shift+Tab move across the cells, row after row; Up and Down (or Enter) move between rows. Enter in the last row adds one. Paste cells
        from a spreadsheet into any cell.
      </p>
      <QuickAddGrid rows={rows} checked={check.rows} activeRow={shownRow} onActiveRow={setActiveRow} handlers={handlers} gridRef={grid} />
      <RowIssues index={shownRow} checked={check.rows[shownRow]} onFix={(column, fix) => handlers.onChange(shownRow, column, fix)} />
      <div className="flex flex-wrap items-center gap-3">
        <Button variant="secondary" onClick={addRow} disabled={full}>Add row</Button>
        {full && <p className="text-sm text-slate-700">Quick add takes up to {MAX_QUICK_ADD_ROWS} shipments at a time. For more, import a file.</p>}
        <div className="ml-auto">
          <Button onClick={() => void send()} disabled={sending || !connection}>
            {sending ? 'Creating the job…' : `Send ${count(check.filled, 'shipment')}`}
          </Button>
        </div>
      </div>
      {sendProblem && <Alert tone="error" title="Not sent">{sendProblem}</Alert>}
    </div>
  );
}
