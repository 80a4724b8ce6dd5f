// The fault matrix (issue #14, DESIGN §7): every fault × every phase of the journey is one test.
// Faults: 500s, a 429 storm, slow answers, dropped connections (Playwright routing on /api/v1/,
// switched on only during the phase under test), the sandbox killed and started again, the page
// reloaded, the tab closed and reopened (connected again through the Connect page, as a user
// would: the key was in the closed tab's sessionStorage), a second tab opened. Phases: reading
// (drop → columns), mapping (→ review grid), reviewing (→ Ready step), submitting (Send → every
// request answered), polling (→ every batch finished), exporting (download the failed rows).
// Phases that make no request still get their cell: the fault is on, and the journey must go on.
//
// After each cell: the job finished with the accounting invariant shown as holding; the sandbox
// holds no row twice (by batch and by reference/name) unless the user chose to resend a request
// whose answer was lost; what the user saw during the fault has a heading and says something
// (recorded as the cell's `saw` annotation), never a blank page; the failed row downloads.
// Waiting between polls (10–15 s each, the spec's rule) is skipped by moving the page's clock on,
// as a user who looks away for a while; the faults and the sandbox run in real time.
import { readFile } from 'node:fs/promises';
import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import Papa from 'papaparse';
import { startRestartableServerProcess, type RestartableServerProcess } from '../src/tooling/server-process';
import { faultCsv, UNSUPPORTED_CARRIER } from './support/files';
import { connectToSandbox, continueToReady, continueToReview, dropFile, jobBatchIds, jobFinishedBadge, send } from './support/journey';
import { type Resent, settleRequests, watchFor, watchToFinish, whatTheUserSees } from './support/watch';
import { installNetFault, type NetFault, type NetFaultKind, startDropProxy } from './support/net-faults';
import { newTab, type PageErrors } from './support/tabs';
import { expectInvariant, expectNoRowTwice } from './support/invariants';

const PHASES = ['reading', 'mapping', 'reviewing', 'submitting', 'polling', 'exporting'] as const;
type Phase = (typeof PHASES)[number];

const ROWS = 20;
const CAP = 5; // SANDBOX_MAX_BATCH_ROWS: four requests per job
const REQUESTS = ROWS / CAP;
/** How long a network fault stays on in the phases that last until the job is done. */
const STORM_MS = 4_000;
const SANDBOX_ENV = {
  // The matrix tests the runner a browser uses in direct mode: its faults are on the browser's own requests.
  CONSOLE_RUNS_JOBS: 'off',
  SANDBOX_MAX_BATCH_ROWS: String(CAP),
  SANDBOX_ROW_DELAY_MS: '10',
  // The matrix sends ~200 imports in a few minutes and moves the page's clock on: the limits are
  // not under test here (submit-limits.spec.ts is), so they must not get in the way.
  SANDBOX_IMPORT_LIMIT: '100000',
  SANDBOX_HOURLY_LIMIT: '1000000',
  SANDBOX_DAILY_LIMIT: '1000000',
  // The last row of every file has a carrier the sandbox refuses: one failed row to export.
  SANDBOX_CARRIERS: 'MAEU,MSCU,CMDU,COSU',
};

/** Bugs the matrix found (reported to the engine's owner): the cell is expected to fail. */
// Cells that show a known bug, marked test.fail() with the bug in the title (none now: the one
// here, a reader that could not load leaving the next drop "Reading…" for ever, is fixed).
const KNOWN_BUGS: Record<string, string> = {};

/** One cell's journey: the tab in use changes when the tab is closed and reopened. */
interface Journey {
  context: BrowserContext;
  page: Page;
  sandbox: RestartableServerProcess;
  fileName: string;
  csv: string;
  jobId: string | null;
  exported: boolean;
  errors: PageErrors;
  saw: string[];
  resent: Resent[];
  others: Page[];
  dropProxy: DropProxy | null;
}

// ---- the journey's steps, each idempotent so a tab that lost the wizard can take it up again ----

async function stepReading(j: Journey) {
  await dropFile(j.page, j.fileName, j.csv);
}
async function stepMapping(j: Journey) {
  await continueToReview(j.page, ROWS);
}
async function stepReviewing(j: Journey) {
  await continueToReady(j.page, ROWS);
}
async function stepSend(j: Journey) {
  j.jobId = await send(j.page, ROWS);
}
async function stepExport(j: Journey, page = j.page) {
  const results = page.getByRole('region', { name: 'Results' });
  const button = results.getByRole('button', { name: 'Download failed rows as CSV' });
  await expect(button).toBeVisible({ timeout: 20_000 });
  const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
  const rows = Papa.parse<string[]>(await readFile(await download.path(), 'utf8'), { newline: '\r\n' }).data;
  expect(rows[0]).toContain('error');
  expect(rows.filter((row) => row[3] === UNSUPPORTED_CARRIER)).toHaveLength(1);
  j.exported = true;
}

/** Back to where the user was after the tab lost its state: the job from History, or the file again. */
async function takeUp(j: Journey, upTo: Phase) {
  if (j.jobId !== null) {
    await j.page.goto(`${j.sandbox.url}/history`);
    await j.page.getByRole('link', { name: new RegExp(`^Open .*${j.fileName.replace('.', '\\.')}`) }).click();
    await expect(j.page).toHaveURL(new RegExp(j.jobId));
    return;
  }
  const order: Phase[] = ['reading', 'mapping', 'reviewing'];
  const ready = j.page.getByRole('heading', { name: 'What sending costs' });
  const grid = j.page.getByRole('button', { name: /Continue with \d+ ready rows/ });
  const mapped = j.page.getByRole('button', { name: 'Continue to review' });
  await expect(j.page.getByRole('heading', { name: 'Import shipments', level: 1 })).toBeVisible();
  await expect(j.page.getByLabel('Spreadsheet file')).toBeAttached();
  let done = (await ready.isVisible()) ? 3 : (await grid.isVisible()) ? 2 : (await mapped.isVisible()) ? 1 : 0;
  const steps = [stepReading, stepMapping, stepReviewing];
  for (; done <= order.indexOf(upTo); done++) await steps[done]!(j);
}

async function see(j: Journey, when: string, page = j.page) {
  await expect(page.getByRole('heading', { level: 1 }).first(), 'the page has a heading, not a blank').toBeVisible();
  const text = await whatTheUserSees(page);
  expect(text.length).toBeGreaterThan(3);
  j.saw.push(`${when}: ${text}`);
}

// ---- the faults: each runs the phase's step with its disturbance ----

type Disturb = (j: Journey, phase: Phase, step: () => Promise<void>) => Promise<void>;

function networkFault(kind: NetFaultKind | 'socket drop'): Disturb {
  return async (j, phase, step) => {
    const fault = kind === 'socket drop' ? j.dropProxy! : await installNetFault(j.context, kind);
    fault.on();
    try {
      if (phase === 'submitting') {
        // The user resends lost requests while the fault is still on, as one would.
        await stepSend(j);
        await watchFor(j.page, STORM_MS, j.resent);
      } else if (phase === 'polling') {
        await watchFor(j.page, STORM_MS, j.resent);
      } else {
        await step();
      }
      await see(j, `${kind} on`);
      j.saw.push(`requests faulted: ${fault.hits()}`);
      // Sending makes requests while the fault is on: none met means the fault missed them
      // (requests made by a worker, say, where routing did not reach).
      if (phase === 'submitting') expect(fault.hits(), 'requests that met the fault while sending').toBeGreaterThan(0);
    } finally {
      fault.off();
    }
  };
}

const restartSandbox: Disturb = async (j, phase, step) => {
  if (phase === 'submitting') {
    await stepSend(j);
    await expect(j.page.getByText(/Requests accepted: [1-9]\d* of /)).toBeVisible({ timeout: 20_000 });
    await j.sandbox.kill();
    await settleRequests(j.page, REQUESTS, 2_000);
  } else if (phase === 'polling') {
    await j.sandbox.kill();
    await watchFor(j.page, 2_000, j.resent);
  } else if (phase === 'reading') {
    // The reader's worker script comes from the server that is down: the drop may fail with a
    // sentence; the user drops the file again once the server is back.
    await j.sandbox.kill();
    await j.page.getByLabel('Spreadsheet file').setInputFiles({ name: j.fileName, mimeType: 'text/csv', buffer: Buffer.from(j.csv) });
    await expect(j.page.getByRole('button', { name: 'Continue to review' }).or(j.page.getByRole('alert'))).toBeVisible();
    await see(j, 'sandbox down');
    await j.sandbox.restart();
    if (await j.page.getByRole('alert').isVisible()) {
      await expect(j.page.getByRole('alert')).toContainText('The file reader could not be started');
      await j.page.getByLabel('Spreadsheet file').setInputFiles({ name: j.fileName, mimeType: 'text/csv', buffer: Buffer.from(j.csv) });
      await expect(j.page.getByRole('button', { name: 'Continue to review' }), 'the file is read once the server is back').toBeVisible({ timeout: 30_000 });
    }
    return;
  } else {
    await j.sandbox.kill();
    await step();
  }
  await see(j, 'sandbox down');
  await j.sandbox.restart();
};

/**
 * Send, and once the first request is accepted, wait until the sandbox has handled the next
 * upload while its answer is still on its way: the moment a reload or a closed tab makes the
 * answer lost although the rows arrived (the case a silent resend would duplicate).
 */
async function sendAndCatchAnUploadInFlight(j: Journey): Promise<NetFault> {
  await stepSend(j);
  const hold = await installNetFault(j.context, 'slow', 5_000, 'POST');
  await expect(j.page.getByText(new RegExp(`Requests accepted: [1-9]\\d* of ${REQUESTS}`))).toBeVisible({ timeout: 20_000 });
  hold.on();
  await expect.poll(() => hold.held?.() ?? 0, { message: 'an upload handled by the sandbox, its answer held', timeout: 20_000 }).toBeGreaterThan(0);
  return hold;
}

const reloadPage: Disturb = async (j, phase, step) => {
  if (phase === 'submitting') {
    const hold = await sendAndCatchAnUploadInFlight(j);
    await j.page.reload();
    hold.off();
    await see(j, 'reloaded');
    await takeUp(j, phase);
    return;
  } else if (phase !== 'polling') {
    if (phase === 'exporting') {
      await j.page.reload();
      await see(j, 'reloaded');
    }
    await step();
    if (phase === 'exporting') return;
  }
  await j.page.reload();
  await see(j, 'reloaded');
  await takeUp(j, phase);
};

const closeAndReopen: Disturb = async (j, phase, step) => {
  let hold: NetFault | null = null;
  if (phase === 'submitting') hold = await sendAndCatchAnUploadInFlight(j);
  else if (phase !== 'polling' && phase !== 'exporting') await step();
  await j.page.close();
  hold?.off();
  j.page = await newTab(j.context, j.errors);
  await j.page.goto(`${j.sandbox.url}/history`);
  await see(j, 'reopened, before connecting');
  await connectToSandbox(j.page, j.sandbox.url);
  await takeUp(j, phase);
  if (phase === 'exporting') await step();
};

const secondTab: Disturb = async (j, phase, step) => {
  const other = await newTab(j.context, j.errors);
  j.others.push(other);
  await connectToSandbox(other, j.sandbox.url);
  if (j.jobId !== null) await other.goto(`${j.sandbox.url}/imports/${j.jobId}`);
  if (phase === 'exporting') {
    await stepExport(j, other);
  } else if (phase === 'submitting') {
    await stepSend(j);
    await other.goto(`${j.sandbox.url}/imports/${j.jobId}`);
    await settleRequests(j.page, REQUESTS, STORM_MS);
  } else if (phase === 'polling') {
    await watchFor(j.page, STORM_MS, j.resent);
  } else {
    await step();
  }
  await see(j, 'second tab', other);
};

const FAULTS: [string, Disturb][] = [
  ['500s', networkFault('500')],
  ['429 storm', networkFault('429')],
  ['slow answers', networkFault('slow')],
  // Dropped at the socket by a proxy, so Chromium's network stack sees the reset (see support/net-faults.ts).
  ['dropped connections', networkFault('socket drop')],
  ['sandbox restarted', restartSandbox],
  ['page reloaded', reloadPage],
  ['tab closed and reopened', closeAndReopen],
  ['second tab opened', secondTab],
];

/**
 * `npm test` runs these cells of the matrix (every fault while submitting, where a lost or doubled
 * row would come from, and every phase at least once), so that CI stays within its 20 minutes;
 * `npm run test:faults` (FAULT_MATRIX=full) runs all 48.
 */
const EVERY_RUN = new Set([
  '500s/submitting', '500s/exporting',
  '429 storm/submitting', '429 storm/polling',
  'slow answers/submitting',
  'dropped connections/submitting', 'dropped connections/polling',
  'sandbox restarted/reading', 'sandbox restarted/submitting', 'sandbox restarted/polling',
  'page reloaded/submitting', 'page reloaded/reviewing',
  'tab closed and reopened/submitting', 'tab closed and reopened/polling',
  'second tab opened/submitting', 'second tab opened/mapping',
]);
const FULL_MATRIX = process.env.FAULT_MATRIX === 'full';

type DropProxy = Awaited<ReturnType<typeof startDropProxy>>;
let sandbox: RestartableServerProcess;
test.beforeAll(async () => {
  sandbox = await startRestartableServerProcess({ env: SANDBOX_ENV });
});
test.afterAll(async () => {
  await sandbox.stop();
});

let cellNumber = 0;
for (const [faultName, disturb] of FAULTS) {
  test.describe(`fault: ${faultName}`, () => {
    // One browser context and tab for the fault's six cells (connecting and loading the console
    // once, not per cell); a cell that closes the tab leaves its new one for the next.
    let context: BrowserContext;
    let tab: Page;
    /** Set when a cell failed (or failed as expected): the next cell starts in a new tab. */
    let tabSpoilt = false;
    const errors: PageErrors = [];
    // The dropped-connections cells reach the sandbox through the dropping proxy.
    let dropProxy: DropProxy | null = null;
    let base: RestartableServerProcess;
    test.beforeAll(async ({ browser }) => {
      base = sandbox;
      if (faultName === 'dropped connections') {
        dropProxy = await startDropProxy(sandbox.url);
        base = { ...sandbox, url: dropProxy.url };
      }
      context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
      await context.clock.install();
      tab = await newTab(context, errors);
      await connectToSandbox(tab, base.url);
    });
    test.afterAll(async () => {
      await context.close();
      await dropProxy?.stop();
    });

    for (const phase of PHASES.filter((p) => FULL_MATRIX || EVERY_RUN.has(`${faultName}/${p}`))) {
      const bug = KNOWN_BUGS[`${faultName}/${phase}`];
      test(`${faultName} while ${phase}${bug ? ` — BUG: ${bug}` : ''}`, async () => {
        if (bug) test.fail();
        test.setTimeout(90_000);
        const prefix = `FM${String(++cellNumber).padStart(2, '0')}${Date.now().toString(36).slice(-4).toUpperCase()}`;
        errors.length = 0;
        if (tabSpoilt && !tab.isClosed()) await tab.close();
        if (tab.isClosed()) {
          tab = await newTab(context, errors);
          await connectToSandbox(tab, base.url);
        }
        tabSpoilt = false;
        if (!(await tab.getByRole('heading', { name: 'Import shipments' }).isVisible())) {
          await tab.getByRole('link', { name: 'Import', exact: true }).click();
          await expect(tab.getByLabel('Spreadsheet file')).toBeAttached();
        }
        const j: Journey = {
          context,
          page: tab,
          sandbox: base,
          fileName: `${prefix.toLowerCase()}.csv`,
          csv: faultCsv(prefix, ROWS),
          jobId: null,
          exported: false,
          errors,
          saw: [],
          resent: [],
          others: [],
          dropProxy,
        };
        const steps: Record<Phase, () => Promise<void>> = {
          reading: () => stepReading(j),
          mapping: () => stepMapping(j),
          reviewing: () => stepReviewing(j),
          submitting: async () => {
            await stepSend(j);
            await settleRequests(j.page, REQUESTS, 30_000);
          },
          polling: async () => {
            j.resent.push(...(await watchToFinish(j.page)));
          },
          exporting: () => stepExport(j),
        };
        const t0 = Date.now();
        const mark = (what: string) => process.env.FM_DEBUG && console.log(`${what} +${Date.now() - t0} ms`);
        try {
          for (const p of PHASES) {
            mark(p);
            if (p === 'exporting') j.resent.push(...(await watchToFinish(j.page)));
            if (p === phase) await disturb(j, p, steps[p]);
            else if (p !== 'exporting' || !j.exported) await steps[p]();
          }
          if (!j.exported) await stepExport(j);
          mark('checks');

          // The job finished; the invariant holds on every tab; the sandbox holds no row twice.
          await expectInvariant(j.page, ROWS);
          for (const other of j.others) {
            await other.goto(`${base.url}/imports/${j.jobId}`);
            await expect(jobFinishedBadge(other)).toBeVisible();
            await expectInvariant(other, ROWS);
          }
          const held = await expectNoRowTwice(context.request, base.url, { prefix, rows: ROWS, batchIds: await jobBatchIds(j.page), resent: j.resent, page: j.page });
          expect(errors, 'uncaught errors and CSP violations in the console').toEqual([]);
          mark('done');
          test.info().annotations.push({ type: 'rows in sandbox', description: String(held) });
        } catch (error) {
          tabSpoilt = true;
          throw error;
        } finally {
          test.info().annotations.push(
            { type: 'saw', description: j.saw.join(' ‖ ') },
            { type: 'resent', description: j.resent.map((r) => `${r.firstRow}–${r.lastRow}`).join(', ') || 'none' },
          );
          tab = j.page;
          for (const other of j.others) await other.close().catch(() => undefined);
        }
      });
    }
  });
}
