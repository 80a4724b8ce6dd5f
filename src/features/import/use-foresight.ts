// The Ready step's foresight: gathers what the console knows of references and tracking numbers
// sent before — this browser's past jobs, the workspace's team history (console server only), and
// on request the service's own shipments — and hands it to the import worker, which holds the
// rows and foresees each (workers/review-session.ts). The page never holds the rows: it passes
// keys seen, and asks the worker for the rows' keys a page at a time to ask the team history.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ApiTarget } from '../../api/http-client';
import { fetchShipmentPage } from '../../api/shipments';
import { sharedBudget } from '../../api/rate-limit-budget';
import { hasTeamHistory, teamSeenAnswerBytes } from '../../api/team-history';
import { readServiceShipments, SERVICE_CHECK_PAGE_SIZE, type ServiceCheckPage } from '../../jobs/service-check';
import type { ReviewState, SeenKeysUpdate } from '../../workers/import-protocol';
import { useImportSession } from './use-import-session';

/** Where a source of known keys stands: `detail` says what was read ("4 past jobs"). */
export type SourceState = { state: 'reading' } | { state: 'read'; detail: string } | { state: 'failed'; message: string } | { state: 'absent' };

export type ServiceCheck =
  | { state: 'not-read' }
  | { state: 'counting' }
  /** The first page is read: the rest's cost is known and waits for the person's go. */
  | { state: 'confirm'; pagesRead: number; totalPages: number | null; total: number | null }
  | { state: 'reading'; pagesRead: number; totalPages: number | null; total: number | null }
  | { state: 'read'; pagesRead: number; total: number | null }
  | { state: 'stopped'; why: 'reserve' | 'cancelled'; pagesRead: number; totalPages: number | null; total: number | null }
  | { state: 'failed'; message: string; pagesRead: number; totalPages: number | null; total: number | null };

/** This browser's past jobs read for foresight at most, newest first. */
export const BROWSER_JOBS_READ = 200;

const sentence = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** What one page of shipments tells: every reference and number it holds (when it was sent is not known). */
function seenOfPage(page: ServiceCheckPage): SeenKeysUpdate {
  return {
    references: page.keys.flatMap((key) => (key.reference ? [[key.reference, 0] as [string, number]] : [])),
    trackingNumbers: page.keys.map((key) => [key.trackingNumber, 0] as [string, number]),
    confirmed: true,
  };
}

async function fetchCheckPage(target: ApiTarget, page: number, signal: AbortSignal): Promise<ServiceCheckPage> {
  const { shipments, pageInfo } = await fetchShipmentPage(target, { page, pageSize: SERVICE_CHECK_PAGE_SIZE }, signal);
  return { keys: shipments.map((shipment) => ({ reference: shipment.reference ?? null, trackingNumber: shipment.tracking_number })), totalPages: pageInfo.totalPages, total: pageInfo.total };
}

/** Requests the service allows now in its current window, or null when not known (or the window is over). */
function budgetRemaining(): number | null {
  const general = sharedBudget.getSnapshot().general;
  if (!general || (general.resetAt !== null && general.resetAt <= Date.now())) return null;
  return general.remaining;
}

/**
 * `active`: the Ready step is shown (sources are read each time it opens; keys already given to
 * the worker stay with its review). `reviewing`: a review is built (false: a new file or mapping,
 * whose review starts knowing nothing, so the service check is forgotten too). `reserve`: requests
 * the service check leaves in the budget.
 */
export function useForesight({
  target: given,
  active,
  reviewing,
  reserve,
  onState,
}: {
  target: ApiTarget;
  active: boolean;
  reviewing: boolean;
  reserve: number;
  onState: (state: ReviewState) => void;
}) {
  const session = useImportSession();
  // The sources are read again when the connection changes, not when its object is made again.
  const { baseUrl, apiKey } = given;
  const target = useMemo<ApiTarget>(() => ({ baseUrl, apiKey }), [baseUrl, apiKey]);
  const [browser, setBrowser] = useState<SourceState>({ state: 'reading' });
  const [team, setTeam] = useState<SourceState>(hasTeamHistory(target) ? { state: 'reading' } : { state: 'absent' });
  const [service, setService] = useState<ServiceCheck>({ state: 'not-read' });
  const check = useRef<AbortController | null>(null);
  // This browser's past jobs do not change with the rows: read once per review, not at each visit of the Ready step.
  const browserRead = useRef(false);
  const onStateNow = useRef(onState);
  useEffect(() => {
    onStateNow.current = onState;
  }, [onState]);

  /** `more`: more keys follow at once; the worker foresees with the last. */
  const give = useCallback(
    async (add: SeenKeysUpdate, more = false) => {
      const { state } = await session.request('foresee', { add, more });
      if (!more) onStateNow.current(state);
    },
    [session],
  );

  useEffect(() => {
    if (!active) return;
    let live = true;
    const readBrowser = async () => {
      if (browserRead.current) return;
      setBrowser({ state: 'reading' });
      try {
        // The job store (IndexedDB) loads with the Ready step, as Send loads it.
        const { jobStore } = await import('../../jobs/job-runtime');
        const jobs = (await jobStore.listJobs()).filter((job) => job.serviceUrl === target.baseUrl).slice(0, BROWSER_JOBS_READ);
        for (const job of jobs) {
          for (const chunk of job.chunks) {
            if (!live) return;
            if (chunk.state.status !== 'accepted') continue;
            // One chunk's rows and outcome at a time, each in its own task: no one read holds the
            // page for a whole job's outcomes.
            const payload = await jobStore.getPayload(job.id, chunk.id);
            if (!payload) continue;
            const outcome = await jobStore.getOutcome(job.id, chunk.state.batchId);
            const failed = outcome?.items.map((item) => item?.creationStatus.toLowerCase() === 'failed');
            // The worker reads the rows as sent, and foresees once they are all in.
            await give({ sent: [{ sentAt: chunk.state.at, body: payload.body, ...(failed ? { failed } : {}) }] }, true);
          }
        }
        if (!live) return;
        await give({});
        browserRead.current = true;
        // No past job is nothing to know from: the sentence names only the sources that said something.
        setBrowser({ state: 'read', detail: jobs.length === 0 ? '' : jobs.length === 1 ? '1 past job' : `${jobs.length.toLocaleString('en')} past jobs` });
      } catch (error) {
        if (live) setBrowser({ state: 'failed', message: sentence(error) });
      }
    };
    const readTeam = async () => {
      if (!hasTeamHistory(target)) {
        setTeam({ state: 'absent' });
        return;
      }
      setTeam({ state: 'reading' });
      try {
        for (let page = 0; live; page++) {
          // The keys and the answer go from the worker to the console server and back as they are.
          const { query, more } = await session.request('foresight-keys', { page });
          if (query) await give({ teamAnswer: await teamSeenAnswerBytes(target, query) });
          if (!more) break;
        }
        if (live) setTeam({ state: 'read', detail: 'the team history of this workspace' });
      } catch (error) {
        if (live) setTeam({ state: 'failed', message: sentence(error) });
      }
    };
    // First an empty update: the rows are foreseen (all creating) before any source answers.
    void give({})
      .then(() => Promise.all([readBrowser(), readTeam()]))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [active, give, session, target]);

  /** Reads the rest of the shipments from page `from` (the person agreed to the cost). */
  const readFrom = useCallback(
    async (from: number, known: { totalPages: number | null; total: number | null }) => {
      const controller = new AbortController();
      check.current = controller;
      let pagesRead = from - 1;
      let totals = known;
      setService({ state: 'reading', pagesRead, ...totals });
      // The worker takes each page in turn; the reader does not wait for it.
      let given = Promise.resolve();
      try {
        const { end } = await readServiceShipments({
          from,
          fetchPage: (page, signal) => fetchCheckPage(target, page, signal),
          remaining: budgetRemaining,
          reserve,
          signal: controller.signal,
          onPage: (page, result) => {
            pagesRead = page;
            totals = { totalPages: result.totalPages ?? totals.totalPages, total: result.total ?? totals.total };
            given = given.then(() => give(seenOfPage(result)));
            setService({ state: 'reading', pagesRead, ...totals });
          },
        });
        await given;
        setService(end === 'done' ? { state: 'read', pagesRead, total: totals.total } : { state: 'stopped', why: end, pagesRead, ...totals });
      } catch (error) {
        await given.catch(() => undefined);
        setService({ state: 'failed', message: sentence(error), pagesRead, ...totals });
      } finally {
        if (check.current === controller) check.current = null;
      }
    },
    [give, reserve, target],
  );

  /** Check against the service: reads the first page, which tells what the rest costs. */
  const startCheck = useCallback(async () => {
    const controller = new AbortController();
    check.current = controller;
    setService({ state: 'counting' });
    try {
      const first = await fetchCheckPage(target, 1, controller.signal);
      await give(seenOfPage(first));
      const totalPages = first.totalPages ?? (first.keys.length < SERVICE_CHECK_PAGE_SIZE ? 1 : null);
      setService(totalPages === 1 ? { state: 'read', pagesRead: 1, total: first.total } : { state: 'confirm', pagesRead: 1, totalPages, total: first.total });
    } catch (error) {
      setService(controller.signal.aborted ? { state: 'not-read' } : { state: 'failed', message: sentence(error), pagesRead: 0, totalPages: null, total: null });
    } finally {
      if (check.current === controller) check.current = null;
    }
  }, [give, target]);

  const cancelCheck = useCallback(() => {
    check.current?.abort();
    setService((now) => (now.state === 'confirm' ? { state: 'stopped', why: 'cancelled', pagesRead: now.pagesRead, totalPages: now.totalPages, total: now.total } : now));
  }, []);

  // A new review knows nothing of the last one's check (set while rendering, as React advises for state that follows a prop).
  const [wasReviewing, setWasReviewing] = useState(reviewing);
  if (reviewing !== wasReviewing) {
    setWasReviewing(reviewing);
    if (!reviewing) setService({ state: 'not-read' });
  }
  useEffect(() => {
    if (reviewing) return;
    check.current?.abort();
    browserRead.current = false;
  }, [reviewing]);

  // Leaving the page stops a check under way.
  useEffect(() => () => check.current?.abort(), []);

  return { browser, team, service, startCheck, readFrom, cancelCheck };
}
