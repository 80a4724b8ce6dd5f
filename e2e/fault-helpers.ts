// Helpers of the fault matrix (issue #14): a sandbox that can be killed and started again on the
// same port and the same SQLite file (so the console's origin, its IndexedDB and the sandbox's
// batches all survive), network faults injected by Playwright routing and switched on only for
// the phase under test, and the checks every cell ends with: the accounting invariant on the job
// page, and the sandbox's own count of shipments by batch and by reference.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, type APIRequestContext, type BrowserContext, type Page, type Route } from '@playwright/test';
import { containerNumber, DEMO_KEY, jobFinishedBadge } from './submit-helpers';

const root = fileURLToPath(new URL('..', import.meta.url));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface RestartableSandbox {
  url: string;
  /** SIGKILL: no graceful shutdown, as a crash or an OOM kill would do. */
  kill: () => Promise<void>;
  /** Starts it again on the same port and file; its batches resume processing. */
  restart: () => Promise<void>;
  stop: () => Promise<void>;
}

/** A sandbox of its own on a fixed free port with a SQLite file, so a kill + restart keeps its data. */
export async function startRestartableSandbox(env: Record<string, string>): Promise<RestartableSandbox> {
  const dir = mkdtempSync(join(tmpdir(), 'fault-sandbox-'));
  const port = await freePort();
  const fullEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    SANDBOX_DB: join(dir, 'sandbox.sqlite'),
    LOG_LEVEL: 'warn',
    ...env,
  };
  let server: ChildProcess | null = null;
  const launch = async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/start.ts'], { cwd: root, env: fullEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    server = child;
    await new Promise<void>((resolve, reject) => {
      let output = '';
      const timer = setTimeout(() => reject(new Error(`The fault sandbox did not start:\n${output}`)), 120_000);
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (/on http:\/\/127\.0\.0\.1:\d+/.test(output)) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`The fault sandbox exited (${code}):\n${output}`));
      });
    });
  };
  const halt = async (signal: NodeJS.Signals) => {
    const child = server;
    server = null;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    await exited;
  };
  await launch();
  return {
    url: `http://127.0.0.1:${port}`,
    kill: () => halt('SIGKILL'),
    restart: launch,
    stop: async () => {
      await halt('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Files

/** The carrier every matrix file's last row has; the matrix sandbox does not support it, so that
 * row fails at the service (not in the console) and the job has a failed row to export. */
export const UNSUPPORTED_CARRIER = 'HLCU';

/**
 * `rows` valid rows named `<prefix> row <i>`; every fifth has no reference (only those could be
 * created twice); the last one's carrier is one the sandbox refuses.
 */
export function faultCsv(prefix: string, rows: number, owner = 'TGH'): string {
  const lines = ['tracking_number,tracking_type,reference,carrier,name'];
  for (let i = 1; i <= rows; i++) {
    const reference = i % 5 === 0 ? '' : `${prefix}-${i}`;
    const carrier = i === rows ? UNSUPPORTED_CARRIER : 'MAEU';
    lines.push(`${containerNumber(owner, 200000 + i)},container,${reference},${carrier},${prefix} row ${i}`);
  }
  return lines.join('\r\n');
}

// ---------------------------------------------------------------------------------------------
// Network faults, by Playwright routing on the API's paths

export type NetFaultKind = '500' | '429' | 'slow' | 'drop';

export interface NetFault {
  on: () => void;
  off: () => void;
  /** Requests the service has handled while their answer is held back (`slow` only). */
  held?: () => number;
  /** Requests the fault answered (or held back, or cut) while it was on. */
  hits: () => number;
}

const API = /\/api\/v1\//;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One kind of fault on every `/api/v1/` request of the context while switched on:
 * `500` answers 500 without the service seeing the request; `429` answers a 429 with Retry-After
 * and rate-limit headers (the service does not see it either); `slow` lets the service answer
 * and holds the answer back `slowMs`; `drop` lets the service handle the request and then cuts
 * the connection, so the caller cannot know whether an import was taken.
 */
export async function installNetFault(context: BrowserContext, kind: NetFaultKind, slowMs = 2_000, method?: 'POST'): Promise<NetFault> {
  let active = false;
  let hits = 0;
  let held = 0;
  await context.route(API, async (route: Route) => {
    if (!active || (method && route.request().method() !== method)) return route.fallback();
    hits++;
    switch (kind) {
      case '500':
        return route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ errors: [{ code: 'internal', message: 'Injected server error.', target: null }] }) });
      case '429': {
        const reset = Math.ceil(Date.now() / 1000) + 1;
        return route.fulfill({
          status: 429,
          contentType: 'application/json',
          headers: { 'Retry-After': '1', 'X-RateLimit-Limit': '20', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': String(reset) },
          body: JSON.stringify({ errors: [{ code: 'rate_limited', message: 'Too many requests; try again in 1 second.', target: null }] }),
        });
      }
      case 'slow': {
        const response = await route.fetch().catch(() => null);
        if (response) held++;
        await sleep(slowMs);
        if (!response) return route.abort('connectionreset').catch(() => undefined);
        return route.fulfill({ response }).catch(() => undefined);
      }
      case 'drop':
        // The service handles it (an import is taken), then the answer is lost.
        await route.fetch().catch(() => null);
        return route.abort('connectionreset').catch(() => undefined);
    }
  });
  return { on: () => void (active = true), off: () => void (active = false), hits: () => hits, held: () => held };
}

/**
 * Dropped connections as a network drops them: an HTTP proxy in front of the sandbox that, while
 * on, lets the sandbox handle each `/api/v1/` request and then destroys the browser's socket
 * instead of passing the answer on. Unlike `route.abort()`, this is what Chromium's own network
 * stack sees, so whatever it does about a reset keep-alive connection happens too.
 */
export async function startDropProxy(target: string): Promise<NetFault & { url: string; stop: () => Promise<void> }> {
  const upstream = new URL(target);
  let active = false;
  let hits = 0;
  const server = createHttpServer((req, res) => {
    const drop = active && (req.url ?? '').startsWith('/api/v1/');
    const proxied = httpRequest({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      if (drop) {
        hits++;
        answer.resume();
        answer.on('end', () => req.socket.destroy());
        return;
      }
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    proxied.on('error', () => req.socket.destroy());
    req.pipe(proxied);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    on: () => void (active = true),
    off: () => void (active = false),
    hits: () => hits,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// ---------------------------------------------------------------------------------------------
// Tabs

/** Uncaught errors and Content-Security-Policy violations seen in a fault context's tabs. */
export type PageErrors = string[];

/**
 * A new tab of `context` that reports uncaught errors and CSP violations (by the
 * `securitypolicyviolation` event, as e2e/fixtures.ts does for its own page) into `errors`.
 */
export async function newTab(context: BrowserContext, errors: PageErrors): Promise<Page> {
  const page = await context.newPage();
  await page.exposeFunction('__reportCspViolation', (text: string) => errors.push(`CSP violation: ${text}`)).catch(() => undefined);
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { __reportCspViolation?: (text: string) => void }).__reportCspViolation;
      report?.(`${event.effectiveDirective} blocked ${event.blockedURI || '(inline)'} at ${event.sourceFile}:${event.lineNumber}`);
    });
  });
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
  return page;
}

// ---------------------------------------------------------------------------------------------
// The journey's steps

/** Connects through the Connect page of `url` (the restartable sandbox), as a user does. */
export async function connectVia(page: Page, url: string): Promise<void> {
  await page.goto(`${url}/connect`);
  await page.getByRole('button', { name: 'Use local sandbox' }).click();
  await expect(page.getByRole('heading', { name: 'Import shipments' })).toBeVisible();
}

export async function dropFile(page: Page, name: string, text: string): Promise<void> {
  await page.getByLabel('Spreadsheet file').setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(text) });
  await expect(page.getByRole('button', { name: 'Continue to review' })).toBeVisible();
}

export async function continueToReview(page: Page, rows: number): Promise<void> {
  await page.getByRole('button', { name: 'Continue to review' }).click();
  await expect(page.getByRole('button', { name: new RegExp(`Continue with ${rows.toLocaleString('en')} ready rows`) })).toBeVisible();
}

export async function continueToReady(page: Page, rows: number): Promise<void> {
  await page.getByRole('button', { name: new RegExp(`Continue with ${rows.toLocaleString('en')} ready rows`) }).click();
  await expect(page.getByRole('heading', { name: 'What sending costs' })).toBeVisible();
}

/** Send; returns the job id from the job page's address. */
export async function send(page: Page, rows: number): Promise<string> {
  await page.getByRole('button', { name: `Send ${rows.toLocaleString('en')} rows` }).click();
  await expect(page).toHaveURL(/\/imports\/[0-9a-f-]{36}$/);
  return page.url().split('/').pop()!;
}

/** A row range the user chose to resend (its rows without a reference may now exist twice). */
export interface Resent {
  firstRow: number;
  lastRow: number;
}

/** Clicks one Resend (or Skip) of a request whose answer was lost, if the page offers one. */
async function resolveOneUnknown(page: Page, resolve: 'resend' | 'skip', resent: Resent[]): Promise<boolean> {
  const button = page.getByRole('button', { name: resolve === 'resend' ? /^Resend rows \d+–\d+$/ : /^Skip rows \d+–\d+$/ }).first();
  if (!(await button.isVisible().catch(() => false))) return false;
  // Bounded: the button of a chunk just resent leaves the page a moment after the click, and an
  // unbounded action on a locator that no longer matches waits until the test's own timeout
  // (that, not the job, was why *× submitting* cells "did not finish" once in a few runs).
  const label = (await button.getAttribute('aria-label', { timeout: 1_000 }).catch(() => null)) ?? '';
  const match = /(\d+)–(\d+)/.exec(label);
  const clicked = await button.click({ timeout: 2_000 }).then(() => true, () => false);
  if (clicked && match && resolve === 'resend') resent.push({ firstRow: Number(match[1]), lastRow: Number(match[2]) });
  return clicked;
}

/**
 * Watches the job page for `ms` as a user does: a request whose answer was lost is resent
 * (Resend), and the waits between polls are skipped by moving the page's clock on (a user who
 * looks away for a while). Returns early when the job has finished.
 */
export async function watchFor(page: Page, ms: number, resent: Resent[], resolve: 'resend' | 'skip' = 'resend'): Promise<boolean> {
  const finished = jobFinishedBadge(page);
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await finished.isVisible().catch(() => false)) return true;
    if (await resolveOneUnknown(page, resolve, resent)) continue;
    await page.clock.fastForward(4_000).catch(() => undefined);
    await page.waitForTimeout(150);
  }
  return finished.isVisible().catch(() => false);
}

/** Watches until the job has finished; fails the test if it does not within `timeoutMs`. */
export async function watchToFinish(page: Page, timeoutMs = 60_000): Promise<Resent[]> {
  const resent: Resent[] = [];
  if (!(await watchFor(page, timeoutMs, resent))) {
    // Say where it stopped: what the page shows and the job's record as the runner left it.
    const state = `${await whatTheUserSees(page).catch(() => '?')}\n${await storedJobState(page)}`;
    await expect(jobFinishedBadge(page), `the job finished; it did not:\n${state}`).toBeVisible({ timeout: 1_000 });
  }
  return resent;
}

/** The job of the page's address as stored in IndexedDB: run state, each chunk's and batch's state. */
export async function storedJobState(page: Page): Promise<string> {
  const jobId = /\/imports\/([0-9a-f-]{36})/.exec(page.url())?.[1];
  if (!jobId) return `(no job in ${page.url()})`;
  return page
    .evaluate(
      (id) =>
        new Promise<string>((resolve) => {
          const open = indexedDB.open('import-console-jobs');
          open.onerror = () => resolve('(IndexedDB would not open)');
          open.onsuccess = () => {
            const get = open.result.transaction('jobs').objectStore('jobs').get(id);
            get.onerror = () => resolve('(job not readable)');
            get.onsuccess = () => {
              type Stored = { runState: string; pausedReason: string | null; finishedAt: number | null; chunks: { id: number; attempts: number; state: { status: string } }[]; batches: Record<string, { status: string; finishedAt: number | null; lastPolledAt: number | null; completed: number; total: number }> };
              const job = get.result as Stored | undefined;
              if (!job) return resolve('(no such job stored)');
              const chunks = job.chunks.map((c) => `#${c.id} ${JSON.stringify(c.state)} ×${c.attempts}`).join('; ');
              const batches = Object.entries(job.batches).map(([b, p]) => `${b.slice(0, 8)} ${p.status} ${p.completed}/${p.total} finished=${p.finishedAt} polled=${p.lastPolledAt}`).join('; ');
              resolve(`job ${job.runState}${job.pausedReason ? ` (${job.pausedReason})` : ''} finishedAt=${job.finishedAt} now=${Date.now()}\nchunks: ${chunks}\nbatches: ${batches}`);
            };
          };
        }),
      jobId,
    )
    .catch((error: unknown) => `(could not read the job: ${String(error)})`);
}

/** Moves the clock on until no request is still to send (each accepted or lost), at most `ms`. */
export async function settleRequests(page: Page, requests: number, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await page.getByText(`Requests accepted: ${requests} of ${requests}`).isVisible().catch(() => false)) return;
    if (await page.getByText(/still to send 0 \+ answer lost [1-9]/).isVisible().catch(() => false)) return;
    await page.clock.fastForward(2_000).catch(() => undefined);
    await page.waitForTimeout(150);
  }
}

/** The job page's three "Holds" lines, and no "Does not hold". */
export async function expectInvariant(page: Page, rows: number): Promise<void> {
  await expect(page.getByText(new RegExp(`Holds:\\s*rows read ${rows} = sent \\d+ \\+ skipped \\d+`))).toBeVisible();
  await expect(page.getByText(/Holds:\s*rows sent \d+ = Σ total_requests/)).toBeVisible();
  await expect(page.getByText(/Holds:\s*every sent row is in exactly one result item/)).toBeVisible();
  await expect(page.getByText(/Does not hold/)).toHaveCount(0);
}

/** The batch ids the job page lists. */
export async function jobBatchIds(page: Page): Promise<string[]> {
  const table = page.getByRole('table').filter({ has: page.getByRole('columnheader', { name: 'Batch' }) });
  return (await table.locator('tbody tr td:first-child').allTextContents()).map((s) => s.trim());
}

interface ListedShipment {
  reference: string | null;
  name: string | null;
}

async function listShipments(request: APIRequestContext, url: string, query: string): Promise<{ total: number; data: ListedShipment[] }> {
  const response = await request.get(`${url}/api/v1/shipments?${query}`, { headers: { Authorization: `Bearer ${DEMO_KEY}` } });
  expect(response.status(), `GET /api/v1/shipments?${query}`).toBe(200);
  const body = (await response.json()) as { data: ListedShipment[]; pagination: { total: number } };
  return { total: body.pagination.total, data: body.data };
}

async function figure(page: Page, label: string): Promise<number> {
  const text = await page.locator('dt', { hasText: new RegExp(`^${label}$`) }).locator('xpath=following-sibling::dd[1]').textContent();
  return Number((text ?? '').replace(/,/g, ''));
}

/**
 * The sandbox's own view: the job's batches created or updated exactly the shipments the page
 * counts as created + updated; among the newest shipments every row of the file but the refused
 * one appears, and none twice (by reference, and by name for rows without one) except rows
 * without a reference in a range the user chose to resend. Returns the rows the sandbox holds.
 */
export async function expectNoRowTwice(
  request: APIRequestContext,
  url: string,
  { prefix, rows, batchIds, resent, page }: { prefix: string; rows: number; batchIds: string[]; resent: Resent[]; page: Page },
): Promise<number> {
  let byBatches = 0;
  for (const batchId of batchIds) byBatches += (await listShipments(request, url, `batch_id=${batchId}&page_size=1`)).total;
  expect(byBatches, 'shipments the job’s batches hold = created + updated on the job page').toBe((await figure(page, 'Created')) + (await figure(page, 'Updated')));
  const newest = [...(await listShipments(request, url, 'page_size=100&page=1')).data, ...(await listShipments(request, url, 'page_size=100&page=2')).data];
  const names = new Map<string, number>();
  const references = new Map<string, number>();
  for (const shipment of newest) {
    if (!shipment.name?.startsWith(`${prefix} row `)) continue;
    names.set(shipment.name, (names.get(shipment.name) ?? 0) + 1);
    if (shipment.reference) references.set(shipment.reference, (references.get(shipment.reference) ?? 0) + 1);
  }
  const twice: string[] = [...references].filter(([, count]) => count > 1).map(([reference, count]) => `reference ${reference} ×${count}`);
  for (const [name, count] of names) {
    if (count === 1) continue;
    const i = Number(name.slice(`${prefix} row `.length));
    // Each Resend of a range may create its rows without a reference once more: the user's choice.
    // Ranges are the file's line numbers: data row i is line i + 1 (the header is line 1).
    const resends = i % 5 === 0 ? resent.filter((r) => i + 1 >= r.firstRow && i + 1 <= r.lastRow).length : 0;
    if (count > 1 + resends) twice.push(`${name} ×${count} (resent ${resends}×)`);
  }
  expect(twice, 'rows the sandbox holds more than once without the user resending them').toEqual([]);
  // Nothing lost: every row but the one the service refuses is in the sandbox.
  expect(names.size, 'rows of the file the sandbox holds').toBe(rows - 1);
  return names.size;
}

/** What the user sees now: the page's heading, the job's state and progress, any alert or status, as text. */
export async function whatTheUserSees(page: Page): Promise<string> {
  const heading = (await page.getByRole('heading', { level: 1 }).first().textContent({ timeout: 5_000 }).catch(() => null))?.trim() ?? '';
  const progress = await page.getByText(/^(Requests accepted|Rows processed): /).allTextContents().catch(() => [] as string[]);
  const lost = (await page.getByRole('heading', { name: 'Requests whose answer was lost' }).count()) > 0 ? ['Requests whose answer was lost (Resend / Skip offered)'] : [];
  const notes = await page.locator('[role=alert], [role=status]').filter({ hasText: /\S/ }).allInnerTexts().catch(() => [] as string[]);
  return [heading, ...progress, ...lost, ...notes.map((t) => t.replace(/\s+/g, ' ').trim())].filter(Boolean).join(' | ');
}
