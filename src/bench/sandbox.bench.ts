// Sandbox figures: rows per second processed at SANDBOX_ROW_DELAY_MS=0 for a
// 5,000-row file import, and the shipments list's median and p95 with 100,000 shipments in the
// store, through inject() so that the network is not measured. Uses a temporary file database
// with WAL, as `npm start` does. Prints a markdown table and writes bench-results/sandbox.json.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Batch } from '../contract/batch';
import { containerCheckDigit } from '../spreadsheet/iso6346';
import { buildApp } from '../server/app';
import { testConfig } from '../server/config';
import { DEMO_API_KEY, sandboxKeys } from '../server/sandbox/sandbox-keys';
import { openStore } from '../server/sandbox/store/open-store';
import { ShipmentStore } from '../server/sandbox/store/shipments';
import { seedWorkspaces } from '../server/sandbox/store/workspaces';
import { simulateTracking } from '../server/sandbox/tracking/simulate';
import { closeParsePool, multipartBody } from '../server/test-support';

const FILE_ROWS = 5_000;
const STORE_SHIPMENTS = 100_000;
const LIST_REQUESTS = 200;
const AUTH = { authorization: `Bearer ${DEMO_API_KEY}` };

function containerNumber(serial: number): string {
  const firstTen = `MSCU${String(serial).padStart(6, '0')}`;
  return `${firstTen}${containerCheckDigit(firstTen) ?? 0}`;
}

function importCsv(): string {
  const lines = ['tracking_number,tracking_type,reference,carrier,name,assignees,tags,cf_po_number'];
  for (let i = 0; i < FILE_ROWS; i++) {
    const number = i % 3 === 0 ? `MAEU${String(700_000_000 + i)}` : containerNumber(i);
    const type = i % 3 === 0 ? 'bill_of_lading' : 'container';
    lines.push(`${number},${type},BENCH-${i},${i % 3 === 0 ? 'MAEU' : 'MSCU'},Shipment ${i},ana.lopez@example.com,"bench, file",PO-${i}`);
  }
  return `${lines.join('\n')}\n`;
}

/** Fills the store directly, in one transaction, with shipments that carry realistic tracking. */
function seedShipments(dbPath: string, count: number): void {
  const db = openStore(dbPath);
  seedWorkspaces(db, sandboxKeys({ apiKeys: null }));
  const shipments = new ShipmentStore(db);
  const tracking = simulateTracking('MSCU1234566', 'container', 'MSCU', Date.now());
  db.transaction(() => {
    for (let i = 0; i < count; i++) {
      const key = shipments.create('demo', `SEED-${i}`, { trackingNumber: 'MSCU1234566', trackingType: 'container', carrierScac: 'MSCU', tags: ['seed'] });
      shipments.recordTracking(key.seq, tracking);
    }
  })();
  db.close();
}

async function waitUntilFinal(app: FastifyInstance, id: string): Promise<Batch> {
  for (;;) {
    const batch = (await app.inject({ url: `/api/v1/shipments/imports/${id}`, headers: AUTH })).json<Batch>();
    if (batch.status !== 'processing') return batch;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))] ?? NaN;
}

async function timeList(app: FastifyInstance, url: (i: number) => string): Promise<{ median: number; p95: number }> {
  const times: number[] = [];
  for (let i = 0; i < LIST_REQUESTS; i++) {
    const started = performance.now();
    const response = await app.inject({ url: url(i), headers: AUTH });
    times.push(performance.now() - started);
    if (response.statusCode !== 200) throw new Error(`list answered ${response.statusCode}: ${response.body}`);
  }
  times.sort((a, b) => a - b);
  return { median: percentile(times, 0.5), p95: percentile(times, 0.95) };
}

const round = (value: number, digits = 1) => Number(value.toFixed(digits));

const dir = mkdtempSync(join(tmpdir(), 'sandbox-bench-'));
const dbPath = join(dir, 'sandbox.sqlite');
const config = testConfig({ dbPath, rowDelayMs: 0, hourlyLimit: 1e9, dailyLimit: 1e9, importLimit: 1e9 });
let app: FastifyInstance | undefined;
try {
  const seedStarted = performance.now();
  seedShipments(dbPath, STORE_SHIPMENTS - FILE_ROWS);
  const seedMs = performance.now() - seedStarted;

  app = await buildApp(config);
  await app.ready();

  const upload = multipartBody(importCsv(), 'bench.csv');
  const importStarted = performance.now();
  const accepted = await app.inject({ method: 'POST', url: '/api/v1/shipments/imports/file', payload: upload.payload, headers: { ...AUTH, ...upload.headers } });
  const acceptMs = performance.now() - importStarted;
  if (accepted.statusCode !== 202) throw new Error(`import answered ${accepted.statusCode}: ${accepted.body}`);
  const batch = await waitUntilFinal(app, accepted.json<Batch>().id);
  const processMs = performance.now() - importStarted - acceptMs;
  if (batch.status !== 'completed' || batch.completed_requests !== FILE_ROWS) throw new Error(`batch ended ${batch.status}`);
  const rowsPerSecond = FILE_ROWS / (processMs / 1000);

  const batchPages = FILE_ROWS / 25;
  const allPages = STORE_SHIPMENTS / 25;
  const lists = {
    batchFirstPage: await timeList(app, () => `/api/v1/shipments?batch_id=${batch.id}`),
    batchRandomPage: await timeList(app, (i) => `/api/v1/shipments?batch_id=${batch.id}&page=${1 + ((i * 37) % batchPages)}`),
    allFirstPage: await timeList(app, () => '/api/v1/shipments'),
    allRandomPage: await timeList(app, (i) => `/api/v1/shipments/?page=${1 + ((i * 7919) % allPages)}`),
  };
  const lines = [
    '| what | figure |',
    '|---|---|',
    `| file import, ${FILE_ROWS.toLocaleString('en-US')} rows at delay 0: processing | ${Math.round(rowsPerSecond).toLocaleString('en-US')} rows/s (${round(processMs / 1000, 2)} s) |`,
    `| same file: upload, read and accept (202) | ${Math.round(acceptMs)} ms |`,
    `| list by batch_id, page 1 (100,000 shipments) | median ${round(lists.batchFirstPage.median)} ms, p95 ${round(lists.batchFirstPage.p95)} ms |`,
    `| list by batch_id, pages 1–${batchPages} | median ${round(lists.batchRandomPage.median)} ms, p95 ${round(lists.batchRandomPage.p95)} ms |`,
    `| list without filter, page 1 | median ${round(lists.allFirstPage.median)} ms, p95 ${round(lists.allFirstPage.p95)} ms |`,
    `| list without filter, pages 1–${allPages} | median ${round(lists.allRandomPage.median)} ms, p95 ${round(lists.allRandomPage.p95)} ms |`,
  ];
  console.log(lines.join('\n'));
  console.log(`\n(${STORE_SHIPMENTS - FILE_ROWS} shipments seeded in ${round(seedMs / 1000, 2)} s; ${LIST_REQUESTS} requests per list figure, page_size 25)`);

  mkdirSync('bench-results', { recursive: true });
  writeFileSync(
    join('bench-results', 'sandbox.json'),
    `${JSON.stringify(
      {
        fileRows: FILE_ROWS,
        storeShipments: STORE_SHIPMENTS,
        importAcceptMs: round(acceptMs),
        importProcessMs: round(processMs),
        rowsPerSecond: Math.round(rowsPerSecond),
        listMs: Object.fromEntries(Object.entries(lists).map(([name, figures]) => [name, { median: round(figures.median, 2), p95: round(figures.p95, 2) }])),
      },
      null,
      2,
    )}\n`,
  );
} finally {
  // The app's parse pool outlives app.close() (apps share it): free its threads now rather than at exit.
  await app?.close();
  await closeParsePool(config);
  rmSync(dir, { recursive: true, force: true });
}
