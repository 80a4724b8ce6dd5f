// A team sending at once through one console server (DESIGN §6): 3 and 10 senders, each a browser's
// submit loop (the console's own HTTP client with its own rate-limit budget, one import after the
// other, each chunk under its Idempotency-Key), all started together against a console server in
// sandbox mode with a small import limit and row cap (4 imports per 10 s, 300 rows), while a person
// asks for a page of shipments every 2 s. Measures: the service's 429 answers (target 0); time
// until every chunk is accepted against the shared floor ⌈chunks ÷ import limit⌉ windows (target
// ≤ 1.1×; the last window opens one window before that floor, so a paced team ends just after it); the pacer's added latency per request from its Server-Timing (p50, p99; "free" = sent
// as soon as asked, "held" = waited for the budget); the person's page latency; the server's
// longest event-loop hold (monitorEventLoopDelay inside the server process, 5 ms sampling).
// `--senders 3,10` picks the team sizes; `--before` runs each size again with CONSOLE_PACER=off,
// the console as it was without a pacer; `--proxy` puts the console in proxy mode with the key held
// by the server, in front of a second server whose sandbox (without a pacer of its own) stands in
// for the service: the pacer then knows no limit before the service's answers. Writes
// bench-results/team.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { containerCheckDigit } from '../spreadsheet/iso6346';
import { importFile } from '../api/imports';
import { type HttpDeps, httpDepsWith } from '../api/http-client';
import { RateLimitBudget, sleep } from '../api/rate-limit-budget';
import { startServerProcess, type ServerProcess } from '../tooling/server-process';
import { machineLoad } from './stats';

const IMPORT_LIMIT = 4;
const WINDOW_S = 10;
const ROW_CAP = 300;
const ROWS_PER_SENDER = 1_000;
const PAGE_EVERY_MS = 2_000;

const sizesAt = process.argv.indexOf('--senders');
const SIZES = (sizesAt >= 0 ? process.argv[sizesAt + 1]! : '3,10').split(',').map(Number);
const BEFORE = process.argv.includes('--before');
const PROXY = process.argv.includes('--proxy');

const LOOP_PROBE = `
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { isMainThread } from 'node:worker_threads';
if (isMainThread && process.send) {
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  process.on('message', (message) => {
    if (message === 'reset') delay.reset();
    process.send({ maxDelayMs: delay.max / 1e6 });
  });
  process.channel.unref();
}
`;

function askProbe(server: ServerProcess, message: 'reset' | 'report'): Promise<{ maxDelayMs: number }> {
  return new Promise((resolve) => {
    server.child.once('message', (answer) => resolve(answer as { maxDelayMs: number }));
    server.child.send(message);
  });
}

interface Answer {
  kind: 'import' | 'page';
  status: number;
  /** The pacer's Server-Timing: how long it held the request, and whether it waited for the budget. */
  pacerMs: number | null;
  pacer: 'free' | 'held' | 'refused' | null;
  totalMs: number;
  at: number;
}

function chunksOf(sender: number): string[] {
  const header = 'tracking_number,tracking_type,reference,carrier,name';
  const chunks: string[] = [];
  for (let from = 0; from < ROWS_PER_SENDER; from += ROW_CAP) {
    const lines = [header];
    for (let r = from; r < Math.min(ROWS_PER_SENDER, from + ROW_CAP); r++) {
      const owner = `${String.fromCharCode(65 + (sender % 26))}${String.fromCharCode(65 + (Math.floor(sender / 26) % 26))}C`;
      const first = `${owner}U${String(r).padStart(6, '0')}`;
      lines.push(`${first}${containerCheckDigit(first)},container,TEAM-${sender}-${r + 1},MAEU,Shipment ${r + 1}`);
    }
    chunks.push(lines.join('\r\n'));
  }
  return chunks;
}

/** A fetch that records every answer, as the browser's network panel would. */
function recordingFetch(kind: Answer['kind'], answers: Answer[], started: number): typeof fetch {
  return async (input, init) => {
    const sent = performance.now();
    const response = await fetch(input, init);
    const timing = response.headers.get('server-timing') ?? '';
    const dur = /pacer;dur=([\d.]+)/.exec(timing);
    const pacer = (/pacer;.*desc="(free|held|refused)"/.exec(timing)?.[1] ?? null) as Answer['pacer'];
    answers.push({ kind, status: response.status, pacerMs: dur ? Number(dur[1]) : null, pacer, totalMs: performance.now() - sent, at: Date.now() - started });
    return response;
  };
}

function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

interface Run {
  senders: number;
  pacer: boolean;
  chunks: number;
  service429: number;
  refusedByPacer: number;
  acceptedMs: number;
  floorMs: number;
  ratio: number;
  pacerFree: { n: number; p50: number; p99: number };
  pacerHeld: { n: number; p50: number; p99: number };
  page: { n: number; p50: number; p99: number };
  maxLoopMs: number;
  load: string;
}

const SANDBOX_ENV = {
  SANDBOX_ROW_DELAY_MS: '0',
  SANDBOX_IMPORT_LIMIT: String(IMPORT_LIMIT),
  SANDBOX_IMPORT_WINDOW_S: String(WINDOW_S),
  SANDBOX_MAX_BATCH_ROWS: String(ROW_CAP),
};

async function runTeam(senders: number, pacer: boolean): Promise<Run> {
  const load = machineLoad();
  // Proxy mode: the service is a sandbox of its own, reached only through the console's proxy.
  const service = PROXY ? await startServerProcess({ entry: 'src/server/main.ts', env: { ...SANDBOX_ENV, CONSOLE_PACER: 'off' } }) : null;
  const serviceKey = service ? ((await (await fetch(`${service.url}/sandbox.json`)).json()) as { api_key: string }).api_key : null;
  const server = await startServerProcess({
    entry: 'src/server/main.ts',
    preload: [`data:text/javascript,${encodeURIComponent(LOOP_PROBE)}`],
    ipc: true,
    env: {
      ...(service && serviceKey ? { UPSTREAM_URL: service.url, UPSTREAM_API_KEY: serviceKey } : SANDBOX_ENV),
      CONSOLE_PACER: pacer ? 'on' : 'off',
    },
  });
  try {
    // With the key held by the server the browsers send none.
    const apiKey = service ? '' : ((await (await fetch(`${server.url}/sandbox.json`)).json()) as { api_key: string }).api_key;
    const target = { baseUrl: server.url, apiKey };
    const answers: Answer[] = [];
    await askProbe(server, 'reset');
    const started = Date.now();
    let sending = true;
    const person = (async () => {
      while (sending) {
        const personFetch = recordingFetch('page', answers, started);
        await personFetch(`${server.url}/api/v1/shipments?page=1&page_size=25`, { headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {} }).then((r) => r.arrayBuffer());
        await sleep(PAGE_EVERY_MS);
      }
    })();
    const accepted: number[] = [];
    await Promise.all(
      Array.from({ length: senders }, async (_, sender) => {
        // Each sender is a browser of its own: its own budget, its own job.
        const deps: HttpDeps = { ...httpDepsWith(recordingFetch('import', answers, started)), budget: new RateLimitBudget() };
        const jobId = `bench-job-${String(sender).padStart(4, '0')}`;
        const chunks = chunksOf(sender);
        for (const [chunkId, csv] of chunks.entries()) {
          await importFile(target, csv, `sender-${sender}.csv`, undefined, deps, `${jobId}:${chunkId}`);
          accepted.push(Date.now() - started);
        }
      }),
    );
    sending = false;
    await person;
    const { maxDelayMs } = await askProbe(server, 'report');
    const chunks = senders * Math.ceil(ROWS_PER_SENDER / ROW_CAP);
    const floorMs = Math.ceil(chunks / IMPORT_LIMIT) * WINDOW_S * 1000;
    const acceptedMs = Math.max(...accepted);
    const stats = (values: number[]) => ({ n: values.length, p50: percentile(values, 50), p99: percentile(values, 99) });
    const imports = answers.filter((a) => a.kind === 'import');
    return {
      senders,
      pacer,
      chunks,
      service429: imports.filter((a) => a.status === 429 && a.pacer !== 'refused').length + answers.filter((a) => a.kind === 'page' && a.status === 429 && a.pacer !== 'refused').length,
      refusedByPacer: answers.filter((a) => a.pacer === 'refused').length,
      acceptedMs,
      floorMs,
      ratio: acceptedMs / floorMs,
      pacerFree: stats(answers.filter((a) => a.pacer === 'free').map((a) => a.pacerMs!)),
      pacerHeld: stats(answers.filter((a) => a.pacer === 'held').map((a) => a.pacerMs!)),
      page: stats(answers.filter((a) => a.kind === 'page').map((a) => a.totalMs)),
      maxLoopMs: maxDelayMs,
      load,
    };
  } finally {
    await server.stop();
    await service?.stop();
  }
}

const f = (value: number, digits = 0) => (Number.isNaN(value) ? '—' : value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }));

async function main() {
  const runs: Run[] = [];
  for (const senders of SIZES) {
    runs.push(await runTeam(senders, true));
    if (BEFORE) runs.push(await runTeam(senders, false));
  }
  console.log(`${PROXY ? 'Proxy mode, key held by the server, in front of a sandbox' : 'Sandbox mode'}: ${IMPORT_LIMIT} imports per ${WINDOW_S} s, ${ROW_CAP}-row cap, ${f(ROWS_PER_SENDER)} rows per sender; a page of shipments every ${PAGE_EVERY_MS / 1000} s\n`);
  console.log('| senders | pacer | chunks | service 429 (0) | refused by pacer | all accepted | floor | ratio (≤ 1.1) | last window opens | pacer, free: p50 / p99 (n) | pacer, held: p50 / p99 (n) | page: p50 / p99 (n) | longest loop hold (≤ 100 ms) | load at start |');
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of runs) {
    console.log(
      `| ${r.senders} | ${r.pacer ? 'on' : 'off'} | ${r.chunks} | **${r.service429}** | ${r.refusedByPacer} | ${f(r.acceptedMs / 1000, 1)} s | ${f(r.floorMs / 1000)} s | **${f(r.ratio, 2)}** | ${f(r.floorMs / 1000 - WINDOW_S)} s | ${r.pacer ? `${f(r.pacerFree.p50, 2)} / ${f(r.pacerFree.p99, 2)} ms (${r.pacerFree.n})` : '—'} | ${r.pacer ? `${f(r.pacerHeld.p50 / 1000, 1)} / ${f(r.pacerHeld.p99 / 1000, 1)} s (${r.pacerHeld.n})` : '—'} | ${f(r.page.p50)} / ${f(r.page.p99)} ms (${r.page.n}) | ${f(r.maxLoopMs)} ms | ${r.load} |`,
    );
  }
  mkdirSync('bench-results', { recursive: true });
  writeFileSync(`bench-results/team${PROXY ? '-proxy' : ''}.json`, JSON.stringify(runs, null, 2));
}

await main();
