// The Ready step's cost and Send button: what the job will cost the rate limit before the first
// request, then one click creates the import job (src/jobs/) and opens its live progress page.
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { sandboxInfoQueryOptions } from '../../api/connect';
import { sharedBudget } from '../../api/rate-limit-budget';
import { rememberMapping } from '../../api/remembered-mappings';
import { useConnection } from '../../api/use-connection';
import { useObservable } from '../../api/use-observable';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { whenIdle } from '../../components/when-idle';
import type { RememberedMapping } from '../../contract/remembered-mapping';
import type { JobSource } from '../../jobs/import-job';
import { estimateJobCost } from '../../jobs/job-cost';
import { chooseChunkRows } from '../../jobs/job-settings';
import type { RowNumbering, SubmissionRows } from '../../workers/import-protocol';
import type { SourceFacts } from './use-import-wizard';
import { formatCount as n } from '../../components/plural';

const time = (ms: number) => new Date(ms).toLocaleTimeString('en-GB');

/** Rows per request for the connected service: the sandbox's advertised cap, else the setting. */
export function useChunkRows(): number {
  const connection = useConnection();
  const { data: info } = useQuery({ ...sandboxInfoQueryOptions, enabled: connection?.sandbox === true });
  return chooseChunkRows({ sandbox: connection?.sandbox === true, advertisedRows: info?.max_batch_rows ?? null });
}

export function SendPanel({
  rowsToSend,
  chunkRows,
  numbering,
  fileName,
  sheet,
  retrySource,
  sourceFacts,
  loadRows,
  mappingToRemember,
  preloadJobPage,
}: {
  rowsToSend: number;
  chunkRows: number;
  /** What the rows' numbers count (the file read's; a retry's original file's): the job keeps it. */
  numbering: RowNumbering;
  fileName: string;
  /** The sheet the rows come from (workbooks only): the job's rows are then numbered as the sheet's rows. */
  sheet?: string;
  /** Set when the rows are a job's fix & retry: the new job links back to it. */
  retrySource: Extract<JobSource, { kind: 'retry' }> | null;
  /** The dropped file's size and SHA-256 (null for fix & retry's rows): the job keeps them. */
  sourceFacts: () => SourceFacts | null;
  loadRows: (chunkRows: number) => Promise<SubmissionRows>;
  /** The file's mapping to remember once the job is made, or null when there is nothing to remember. */
  mappingToRemember?: () => RememberedMapping | null;
  /** Loads the job page's code ahead of Send (the route's to give: features do not import each other). */
  preloadJobPage?: () => void;
}) {
  const connection = useConnection();
  const navigate = useNavigate();
  const budget = useObservable(sharedBudget);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [now] = useState(() => Date.now());
  useEffect(() => whenIdle(() => {
    // What Send needs next, loaded while the person reads the cost: evaluated at Send, it would
    // be a long task on the page's thread in the window that must have none of 50 ms or more.
    void import('../../jobs/chunking');
    preloadJobPage?.();
  }), [preloadJobPage]);
  if (!connection) return null;
  const cost = estimateJobCost({ rows: rowsToSend, chunkRows, general: budget.general, importBucket: budget.import, now });

  const send = async () => {
    setBusy(true);
    setError(null);
    try {
      // Asked first: the worker starts the digest of the bytes it holds, then cuts the rows.
      const facts = retrySource ? null : sourceFacts();
      // The job store reads the hash; if the rows fail first, a failed hash must not go unhandled.
      facts?.contentHash.catch(() => undefined);
      const rows = await loadRows(chunkRows);
      // The job store (IndexedDB, papaparse) loads with the first Send, not with the Import page.
      const { jobStore, teamReporter } = await import('../../jobs/job-runtime');
      const job = await jobStore.createJob({
        source: retrySource ?? { kind: 'file', fileName, size: facts?.size ?? null, contentHash: null, ...(sheet === undefined ? {} : { sheet }) },
        serviceUrl: connection.baseUrl,
        rowsRead: rows.rowsRead,
        numbering,
        skipped: rows.skipped.map((row) => ({ rowNumber: row.rowNumber, reason: row.reasons.join(' ') })),
        rows: { format: 'csv-chunks', headers: rows.headers, chunks: rows.chunks },
        chunkRows,
        ...(facts ? { contentHash: facts.contentHash } : {}),
      });
      const remember = mappingToRemember?.();
      // The job does not wait for the memory: a server that cannot keep it costs the team only its next mapping.
      if (remember) rememberMapping(connection, remember).catch(() => undefined);
      // Sent in this connection's workspace: the team history shows it there, and only there.
      void teamReporter.claim(job.id);
      await navigate({ to: '/imports/$jobId', params: { jobId: job.id } });
    } catch (e) {
      setError(`The import job could not be created: ${e instanceof Error ? e.message : String(e)}`);
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="cost-heading" className="space-y-3 rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
      <h3 id="cost-heading" className="text-base font-semibold text-slate-900">What sending costs</h3>
      <p className="text-sm text-slate-700">
        {n(cost.uploads)} {cost.uploads === 1 ? 'upload' : 'uploads'} of up to {n(chunkRows)} rows, and about {n(cost.polls)} status checks (one per batch every 10–15 seconds
        while it processes).{' '}
        {cost.generalRemaining !== null
          ? `The service allows ${n(cost.generalRemaining)} more requests${cost.generalLimit !== null ? ` of ${n(cost.generalLimit)}` : ''} in its current window`
          : 'The remaining request budget is not known until the service answers'}
        {cost.importRemaining !== null && `, ${n(cost.importRemaining)} of them imports`}.
      </p>
      {cost.resumesAt !== null && (
        <Alert tone="warning" title={`The ${cost.blockedBy} is in the way`}>
          Sending starts now and pauses when the {cost.blockedBy} runs out; it resumes at {time(cost.resumesAt)}, by itself, as long as the console is open in a tab.
        </Alert>
      )}
      {error && <Alert tone="error">{error}</Alert>}
      <Button onClick={() => void send()} disabled={busy || rowsToSend === 0}>
        {busy ? 'Creating the import job…' : `Send ${n(rowsToSend)} ${rowsToSend === 1 ? 'row' : 'rows'}`}
      </Button>
    </section>
  );
}
