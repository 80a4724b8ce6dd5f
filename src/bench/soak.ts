// The soak (`npm run soak`): a 100,000-row import end to end against the sandbox at row
// delay 0 and a shortened import window, with 5% of every /api/v1 request faulted by each kind
// (SANDBOX_FAULTS=500:0.05,429:0.05,slow:0.05,drop:0.05), in headless Chromium driving the real
// console as a person does: drop → review → Send → watch, every request whose answer was lost
// resolved with Resend, until every batch has finished. It then checks the accounting invariant
// on the page and the sandbox's own count of shipments.
// Reports: wall time, requests by kind (uploads, polls, other) and outcome, 429s, retries, unknown
// chunks and how they were resolved, the tab's peak JS heap, and the machine's load.
// `--rows N` changes the size. Writes bench-results/soak.json. Takes several minutes: not part of
// `npm test`.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Request } from '@playwright/test';
import Database from 'better-sqlite3';
import { CHROMIUM_ARGS, findChromium, NO_BROWSER_MESSAGE } from '../tooling/browser';
import { containerCheckDigit } from '../spreadsheet/iso6346';
import { startServerProcess } from '../tooling/server-process';
import { machineLoad } from './stats';

const at = process.argv.indexOf('--rows');
const ROWS = at >= 0 ? Number(process.argv[at + 1]) : 100_000;
const CAP = 5000;
const FAULTS = '500:0.05,429:0.05,slow:0.05,drop:0.05';
const SLOW_MS = 5_000;
const WINDOW_S = 5;
const TIMEOUT_MS = 45 * 60_000;
const DEMO_KEY = 'sandbox-demo-key-4173';

/** Valid container rows, each with its own reference but every 20th, which has none. */
function csv(rows: number): Buffer {
  const lines = ['tracking_number,tracking_type,reference,carrier,name'];
  for (let r = 0; r < rows; r++) {
    const owner = `${String.fromCharCode(65 + (Math.floor(r / 1e6) % 26))}SK`;
    const first = `${owner}U${String(r % 1_000_000).padStart(6, '0')}`;
    const reference = (r + 1) % 20 === 0 ? '' : `SOAK-${r + 1}`;
    lines.push(`${first}${containerCheckDigit(first)},container,${reference},MAEU,Soak ${r + 1}`);
  }
  return Buffer.from(lines.join('\r\n'));
}

/**
 * What the sandbox itself saw, from its request log: requests by kind (more than the page sent
 * when Chromium resent one whose connection was cut), answers by kind and status (a cut one logs
 * none: Fastify logs an answer when it has finished), and any warning or error it logged
 * (MaxListenersExceededWarning once came with every dropped import).
 */
const sandboxSaw = {
  requests: { upload: 0, poll: 0, other: 0 } as Record<Kind, number>,
  answers: { upload: {}, poll: {}, other: {} } as Record<Kind, Record<string, number>>,
  warnings: [] as string[],
  errorsLogged: 0,
};
/** Requests of each kind the sandbox received but logged no answer to: connections it cut. */
const cutBySandbox = () =>
  Object.fromEntries(
    (['upload', 'poll', 'other'] as const).map((kind) => [kind, sandboxSaw.requests[kind] - Object.values(sandboxSaw.answers[kind]).reduce((a, b) => a + b, 0)]),
  );
const kindOfRequest = new Map<string, Kind>();

function readSandboxLine(line: string, stream: 'stdout' | 'stderr'): void {
  if (stream === 'stderr') {
    if (/Warning/.test(line)) sandboxSaw.warnings.push(line.trim());
    return;
  }
  if (!line.startsWith('{')) return;
  const entry = JSON.parse(line) as { level: number; reqId?: string; msg?: string; req?: { method: string; url: string }; res?: { statusCode: number } };
  if (entry.level >= 50) sandboxSaw.errorsLogged++;
  if (entry.msg === 'incoming request' && entry.req && entry.reqId) {
    const kind = kindOfPath(entry.req.method, new URL(entry.req.url, 'http://sandbox').pathname);
    if (!kind) return;
    sandboxSaw.requests[kind]++;
    kindOfRequest.set(entry.reqId, kind);
  } else if (entry.msg === 'request completed' && entry.reqId && entry.res) {
    const kind = kindOfRequest.get(entry.reqId);
    if (!kind) return;
    const status = String(entry.res.statusCode);
    sandboxSaw.answers[kind][status] = (sandboxSaw.answers[kind][status] ?? 0) + 1;
  }
}

async function startSandbox(dbPath: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const server = await startServerProcess({
    env: {
      // A file store rather than the default in-memory one, so that the audit below can read
      // what the sandbox holds, row by row.
      SANDBOX_DB: dbPath,
      SANDBOX_ROW_DELAY_MS: '0',
      SANDBOX_IMPORT_WINDOW_S: String(WINDOW_S),
      SANDBOX_FAULTS: FAULTS,
      SANDBOX_FAULT_SLOW_MS: String(SLOW_MS),
      // Its request log, for readSandboxLine (one line per request in and answer out).
      LOG_LEVEL: 'info',
    },
    echoStderr: true,
    onLine: readSandboxLine,
  });
  return { url: server.url, stop: () => server.stop() };
}

/**
 * What the sandbox's store holds after the import, read from its file: every soak row has its
 * own container number, so "created exactly once" is one shipment per tracking number, checked
 * by reference (rows with one) and by batch (rows without one, whose only trace is the batch
 * whose item created them). Rows sent in more than one batch are a Resend's or a lost key's.
 */
function auditStore(dbPath: string) {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    const one = <T>(sql: string) => db.prepare(sql).get() as T;
    const shipments = one<{ total: number; withReference: number; distinctNumbers: number; distinctReferences: number }>(
      `SELECT count(*) AS total, count(reference) AS withReference, count(DISTINCT tracking_number) AS distinctNumbers,
              count(DISTINCT reference) AS distinctReferences FROM shipments`,
    );
    const batches = one<{ batches: number; totalRequests: number; unfinished: number }>(
      `SELECT count(*) AS batches, coalesce(sum(total_requests), 0) AS totalRequests,
              count(*) FILTER (WHERE status NOT IN ('completed', 'failed')) AS unfinished FROM batches`,
    );
    const items = one<{ items: number; created: number; updated: number; failed: number; distinctNumbers: number }>(
      `SELECT count(*) AS items, count(*) FILTER (WHERE creation_status = 'created') AS created,
              count(*) FILTER (WHERE creation_status = 'updated') AS updated,
              count(*) FILTER (WHERE creation_status = 'failed') AS failed,
              count(DISTINCT tracking_number) AS distinctNumbers FROM result_items`,
    );
    // Tracking numbers held by more than one shipment (rows without a reference imported twice).
    const numbersTwice = one<{ n: number }>(
      'SELECT count(*) AS n FROM (SELECT tracking_number FROM shipments GROUP BY tracking_number HAVING count(*) > 1)',
    ).n;
    // Rows that arrived in more than one batch, and the batches that repeat rows of another.
    const rowsInTwoBatches = one<{ n: number }>(
      'SELECT count(*) AS n FROM (SELECT tracking_number FROM result_items GROUP BY tracking_number HAVING count(DISTINCT batch_seq) > 1)',
    ).n;
    const idempotencyKeys = one<{ n: number }>('SELECT count(*) AS n FROM idempotency_keys').n;
    return { shipments, numbersTwice, batches, items, rowsInTwoBatches, idempotencyKeys };
  } finally {
    db.close();
  }
}

async function shipmentTotal(url: string): Promise<number> {
  // The sandbox's injected faults apply to this client too: try until an answer arrives.
  const response = await fetch(`${url}/api/v1/shipments?page_size=1`, { headers: { Authorization: `Bearer ${DEMO_KEY}` } }).catch(() => null);
  if (!response?.ok) return shipmentTotal(url);
  return ((await response.json()) as { pagination: { total: number } }).pagination.total;
}

type Kind = 'upload' | 'poll' | 'other';
interface Tally {
  sent: number;
  ok: number;
  status429: number;
  status5xx: number;
  otherStatus: number;
  dropped: number;
  slow: number;
  /** Answered from the Idempotency-Key (Idempotent-Replayed: true): a repeat created no batch. */
  replayed: number;
  /** Sent by the client itself after a failed answer to the same request (not a user's Resend). */
  retries: number;
}
const tally = (): Tally => ({ sent: 0, ok: 0, status429: 0, status5xx: 0, otherStatus: 0, dropped: 0, slow: 0, replayed: 0, retries: 0 });

function kindOf(request: Request): Kind | null {
  return kindOfPath(request.method(), new URL(request.url()).pathname);
}

function kindOfPath(method: string, pathname: string): Kind | null {
  if (!pathname.startsWith('/api/v1/')) return null;
  if (method === 'POST' && pathname.startsWith('/api/v1/shipments/imports')) return 'upload';
  if (method === 'GET' && /^\/api\/v1\/shipments\/imports\/[^/]+$/.test(pathname)) return 'poll';
  return 'other';
}

async function main() {
  const executablePath = findChromium();
  if (!executablePath) {
    console.log(NO_BROWSER_MESSAGE);
    return;
  }
  const loadAtStart = machineLoad();
  const storeDir = mkdtempSync(join(tmpdir(), 'soak-'));
  const dbPath = join(storeDir, 'sandbox.sqlite');
  const sandbox = await startSandbox(dbPath);
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
    const tallies: Record<Kind, Tally> = { upload: tally(), poll: tally(), other: tally() };
    const started = new Map<Request, number>();
    /** Per method and path, how the last answer failed (null: it did not). */
    const lastFailed = new Map<string, keyof Tally | null>();
    let resends = 0;
    const keyOf = (request: Request) => `${request.method()} ${new URL(request.url()).pathname}`;
    const failed = (request: Request, how: keyof Tally) => {
      const kind = kindOf(request);
      if (!kind) return;
      tallies[kind][how]++;
      lastFailed.set(keyOf(request), how === 'ok' ? null : how);
    };
    page.on('request', (request) => {
      const kind = kindOf(request);
      if (!kind) return;
      tallies[kind].sent++;
      started.set(request, Date.now());
      // An upload is retried by the client only after a 429 (a lost answer waits for the user);
      // anything else after any failed answer.
      const last = lastFailed.get(keyOf(request));
      if (last && (kind !== 'upload' || last === 'status429')) tallies[kind].retries++;
    });
    page.on('response', (response) => {
      const request = response.request();
      const kind = kindOf(request);
      if (!kind) return;
      if (Date.now() - (started.get(request) ?? Date.now()) >= SLOW_MS - 100) tallies[kind].slow++;
      if (response.headers()['idempotent-replayed'] === 'true') tallies[kind].replayed++;
      const status = response.status();
      failed(request, status === 429 ? 'status429' : status >= 500 ? 'status5xx' : status >= 400 ? 'otherStatus' : 'ok');
    });
    page.on('requestfailed', (request) => failed(request, 'dropped'));

    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    let peakHeap = 0;
    const sampleHeap = async () => {
      const { metrics } = await cdp.send('Performance.getMetrics');
      peakHeap = Math.max(peakHeap, metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? 0);
    };
    const sampler = setInterval(() => void sampleHeap().catch(() => undefined), 1_000);

    const dropAt = Date.now();
    await page.goto(`${sandbox.url}/connect`);
    await page.getByRole('button', { name: 'Use local sandbox' }).click();
    await page.getByLabel('Spreadsheet file').setInputFiles({ name: 'soak.csv', mimeType: 'text/csv', buffer: csv(ROWS) });
    await page.getByRole('button', { name: 'Continue to review' }).click({ timeout: 180_000 });
    await page.getByRole('button', { name: /Continue with [\d,]+ ready rows/ }).click({ timeout: 180_000 });
    const sendButton = page.getByRole('button', { name: /^Send [\d,]+ rows$/ });
    await sendButton.waitFor({ timeout: 180_000 });
    const shipmentsBefore = await shipmentTotal(sandbox.url);
    const sendAt = Date.now();
    await sendButton.click();
    await page.waitForURL(/\/imports\/[0-9a-f-]{36}$/);
    console.log(`sending ${ROWS} rows…`);

    const finished = page.getByText(/^✓\s*Finished$/);
    const unknownChunks: string[] = [];
    const deadline = Date.now() + TIMEOUT_MS;
    let lastReport = Date.now();
    while (!(await finished.isVisible())) {
      if (Date.now() > deadline) throw new Error(`Not finished after ${TIMEOUT_MS / 60_000} min.`);
      // A Resend already clicked stays on the page, disabled, until the job has applied it (with
      // the console's server running the job, until the page's next read of it): not clicked twice.
      const resend = page.getByRole('button', { name: /^Resend rows \d+–\d+$/, disabled: false }).first();
      if (await resend.isVisible()) {
        const label = (await resend.getAttribute('aria-label')) ?? '';
        const reason = await resend.locator('xpath=ancestor::li[1]//p[2]').textContent().catch(() => '');
        unknownChunks.push(`${label.replace('Resend rows ', 'rows ')}: ${reason?.trim()}`);
        resends++;
        await resend.click();
        continue;
      }
      if (Date.now() - lastReport > 30_000) {
        lastReport = Date.now();
        console.log(`${Math.round((Date.now() - sendAt) / 1000)} s: ${(await page.getByText(/^Rows processed: /).first().textContent()) ?? ''}`);
      }
      await page.waitForTimeout(1_000);
    }
    const finishedAt = Date.now();
    clearInterval(sampler);
    await sampleHeap();

    const holds = async (pattern: RegExp) => (await page.getByText(pattern).count()) > 0;
    const invariant = {
      readAddsUp: await holds(new RegExp(`Holds:\\s*rows read ${ROWS.toLocaleString('en')} = sent`)),
      sentMatchesBatches: await holds(/Holds:\s*rows sent [\d,]+ = Σ total_requests/),
      everyRowOneItem: await holds(/Holds:\s*every sent row is in exactly one result item/),
      doesNotHold: await page.getByText(/Does not hold/).count(),
    };
    const accounting = (await page.getByText(/rows read [\d,]+ = sent/).first().textContent())?.replace(/\s+/g, ' ').trim();
    const created = (await shipmentTotal(sandbox.url)) - shipmentsBefore;
    const figure = async (label: string) =>
      Number(((await page.locator('dt', { hasText: new RegExp(`^${label}$`) }).locator('xpath=following-sibling::dd[1]').textContent()) ?? '').replace(/,/g, ''));
    const pageCounts = { created: await figure('Created'), updated: await figure('Updated'), failed: await figure('Failed') };

    const store = auditStore(dbPath);
    const figures = {
      rows: ROWS,
      faults: FAULTS,
      machineLoadAtStart: loadAtStart,
      machineLoadAtEnd: machineLoad(),
      dropToFinishedS: Math.round((finishedAt - dropAt) / 100) / 10,
      sendToFinishedS: Math.round((finishedAt - sendAt) / 100) / 10,
      chunks: Math.ceil(ROWS / CAP),
      uploads: tallies.upload,
      polls: tallies.poll,
      other: tallies.other,
      status429: tallies.upload.status429 + tallies.poll.status429 + tallies.other.status429,
      retries: tallies.upload.retries + tallies.poll.retries + tallies.other.retries,
      unknownChunks: unknownChunks.length,
      unknownResolvedBy: `Resend ×${resends}`,
      unknownDetails: unknownChunks,
      accounting,
      invariant,
      // Every row is a distinct shipment: more than ROWS means a chunk imported twice.
      shipmentsCreated: created,
      jobPageCounts: pageCounts,
      rowsWithoutReference: Math.floor(ROWS / 20),
      peakJsHeapMB: Math.round(peakHeap / 2 ** 20),
      store,
      // Counted by the sandbox: it also answered the soak's own two shipment counts ('other').
      sandboxSaw: { ...sandboxSaw, cut: cutBySandbox() },
    };
    console.log(JSON.stringify(figures, null, 2));
    mkdirSync('bench-results', { recursive: true });
    writeFileSync('bench-results/soak.json', JSON.stringify(figures, null, 2));
    const ok = invariant.readAddsUp && invariant.sentMatchesBatches && invariant.everyRowOneItem && invariant.doesNotHold === 0;
    if (!ok) {
      console.error('The accounting invariant does not hold.');
      process.exitCode = 1;
    }
    // Exactly once, Resend or not: every upload to the console's own server carries the chunk's
    // Idempotency-Key, the same on a Resend and on Chromium's own resend of a cut request, and
    // the sandbox answers a repeated key with the first batch. A chunk imported twice shows as a
    // row without a reference created twice, or rows in more than one batch.
    const exactlyOnce =
      store.shipments.total === ROWS && store.shipments.distinctNumbers === ROWS && store.numbersTwice === 0 && store.rowsInTwoBatches === 0;
    if (!exactlyOnce) {
      console.error(
        `Rows were not created exactly once: ${store.shipments.total} shipments for ${ROWS} rows, ${store.numbersTwice} tracking numbers held twice, ${store.rowsInTwoBatches} rows in more than one batch (${resends} Resend).`,
      );
      process.exitCode = 1;
    }
    // Faults are the sandbox's own doing: handling them must not make it warn or log an error.
    if (sandboxSaw.warnings.length > 0 || sandboxSaw.errorsLogged > 0) {
      console.error(`The sandbox logged ${sandboxSaw.warnings.length} warnings and ${sandboxSaw.errorsLogged} errors.`);
      process.exitCode = 1;
    }
  } finally {
    await browser.close();
    await sandbox.stop();
    rmSync(storeDir, { recursive: true, force: true });
  }
}

await main();
