// Sending 100,000 rows to the sandbox and watching them finish, in headless Chromium, as a person
// does it (DESIGN §6): drop → review → Send → every chunk accepted → every batch finished.
// The sandbox runs at row delay 0 with the default import limit (20) and a short import window.
// Measures: import requests vs ⌈rows ÷ cap⌉; 429 answers while headers were known; time until
// every chunk was accepted vs the floor the import limit sets; polls vs the budget's rate; the
// longest main-thread task from Send to finished; the tab's JS heap at the end.
// `--rows N` changes the size; `--tasks` lists the long tasks; `--profile` samples the page's
// main thread (CDP Profiler) from Send to finished and prints the functions with the most self
// time; `--trace` (or `--trace-light`, without the CPU sampler) records a Chrome trace from Send
// to finished and lists each main-thread task over 50 ms with the events and functions inside
// it, and the longest by thread time (saved as bench-results/submit-trace.json; `--trace-from
// FILE` lists them again); `--nice-service` runs the sandbox at a lower priority than the
// browser. Writes bench-results/submit.json.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import { chromium, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium, NO_BROWSER_MESSAGE } from '../tooling/browser';
import { startServerProcess, type ServerProcess } from '../tooling/server-process';
import { containerCheckDigit } from '../spreadsheet/iso6346';

const at = process.argv.indexOf('--rows');
const ROWS = at >= 0 ? Number(process.argv[at + 1]) : 100_000;
const CAP = 5000;
const IMPORT_LIMIT = 20;
const WINDOW_S = 5;

function csv(rows: number): Buffer {
  const lines = ['tracking_number,tracking_type,reference,carrier,name'];
  for (let r = 0; r < rows; r++) {
    const owner = `${String.fromCharCode(65 + (Math.floor(r / 1e6) % 26))}BC`;
    const first = `${owner}U${String(r % 1_000_000).padStart(6, '0')}`;
    lines.push(`${first}${containerCheckDigit(first)},container,BENCH-${r + 1},MAEU,Shipment ${r + 1}`);
  }
  return Buffer.from(lines.join('\r\n'));
}

async function startServer(): Promise<ServerProcess> {
  const server = await startServerProcess({
    env: { SANDBOX_ROW_DELAY_MS: '0', SANDBOX_IMPORT_LIMIT: String(IMPORT_LIMIT), SANDBOX_IMPORT_WINDOW_S: String(WINDOW_S) },
    echoStderr: true,
  });
  // `--nice-service`: the sandbox yields the cores to the browser, as a service on another
  // machine would; on this 2-core machine it otherwise preempts the page's thread as it works.
  if (process.argv.includes('--nice-service') && server.child.pid !== undefined) setPriority(server.child.pid, 10);
  return server;
}

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number }; children?: number[] }[];
  samples?: number[];
  timeDeltas?: number[];
}

/** Self time per function (and per function with its callers' chain) over the whole capture. */
function printProfile(profile: CpuProfile): void {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const name = (id: number) => {
    const { functionName, url, lineNumber, columnNumber } = byId.get(id)!.callFrame;
    return `${functionName || '(anonymous)'} ${url.split('/').pop()}:${lineNumber + 1}:${columnNumber + 1}`;
  };
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  for (let i = 0; i < samples.length; i++) {
    const id = samples[i]!;
    const ms = (deltas[i + 1] ?? 0) / 1000;
    const label = name(id);
    if (label.startsWith('(idle)') || label.startsWith('(program)')) continue;
    self.set(label, (self.get(label) ?? 0) + ms);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const l = name(at);
      if (!seen.has(l)) total.set(l, (total.get(l) ?? 0) + ms);
      seen.add(l);
    }
  }
  const top = (map: Map<string, number>) => [...map].sort((a, b) => b[1] - a[1]).slice(0, 30).map(([l, ms]) => `${Math.round(ms).toString().padStart(7)} ms  ${l}`).join('\n');
  console.log(`Self time, main thread, Send → finished:\n${top(self)}\n\nTotal (inclusive) time:\n${top(total)}`);
}

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  /** Thread time: how long the thread itself ran. */
  tdur?: number;
  pid: number;
  tid: number;
  id?: string;
  args?: { name?: string; data?: Record<string, unknown> & { cpuProfile?: CpuProfile; timeDeltas?: number[] } };
}

/**
 * The page's main-thread tasks over 50 ms in a Chrome trace, each with the trace events nested in
 * it (script, GC, IndexedDB callbacks, layout…) and the functions the CPU sampler found it in,
 * so every long task has a name.
 */
function printLongTasks(events: TraceEvent[]): void {
  const main = new Set(events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  const onMain = (e: TraceEvent) => main.has(`${e.pid}:${e.tid}`);
  const tasks = events.filter((e) => e.ph === 'X' && e.name === 'RunTask' && onMain(e) && (e.dur ?? 0) > 50_000).sort((a, b) => a.ts - b.ts);
  // CPU samples: a Profile event gives the start time, ProfileChunk events the nodes and samples.
  // Node ids are per profile (one per thread): keyed `pid:profile:node`.
  const nodes = new Map<string, { name: string; parent?: string }>();
  const samples: { ts: number; node: string; thread: string }[] = [];
  const clocks = new Map<string, number>();
  // The Profile event is on the sampled thread; its chunks come from a sampler thread.
  const sampled = new Map<string, string>();
  for (const e of events) {
    if (e.name === 'Profile' && e.args?.data) {
      clocks.set(`${e.pid}:${e.id}`, (e.args.data as { startTime: number }).startTime);
      sampled.set(`${e.pid}:${e.id}`, `${e.pid}:${e.tid}`);
    }
    if (e.name !== 'ProfileChunk' || !e.args?.data) continue;
    const key = `${e.pid}:${e.id}`;
    const { cpuProfile, timeDeltas = [] } = e.args.data;
    for (const node of cpuProfile?.nodes ?? []) {
      // Trace nodes may leave out the url and line of native frames.
      const { functionName, url = '', lineNumber = -1 } = node.callFrame as Partial<CpuProfile['nodes'][number]['callFrame']>;
      const parent = (node as { parent?: number }).parent;
      nodes.set(`${key}:${node.id}`, { name: `${functionName || '(anonymous)'} ${url.split('/').pop()}:${lineNumber + 1}`, parent: parent === undefined ? undefined : `${key}:${parent}` });
    }
    let t = clocks.get(key) ?? 0;
    (cpuProfile?.samples ?? []).forEach((node, i) => {
      t += timeDeltas[i] ?? 0;
      samples.push({ ts: t, node: `${key}:${node}`, thread: sampled.get(key) ?? '' });
    });
    clocks.set(key, t);
  }
  samples.sort((a, b) => a.ts - b.ts);
  const first = tasks[0]?.ts ?? 0;
  // Thread time: what the task itself ran, without the time the thread waited for a core.
  const busiest = events.filter((e) => e.ph === 'X' && e.name === 'RunTask' && onMain(e)).reduce<TraceEvent | null>((max, e) => ((e.tdur ?? 0) > (max?.tdur ?? 0) ? e : max), null);
  if (busiest) console.log(`\nLongest main-thread task by thread time: ${Math.round((busiest.tdur ?? 0) / 1000)} ms (${Math.round((busiest.dur ?? 0) / 1000)} ms wall)`);
  console.log(`\nMain-thread tasks over 50 ms (trace): ${tasks.length}`);
  for (const task of tasks) {
    const end = task.ts + (task.dur ?? 0);
    const inner = events
      .filter((e) => e.ph === 'X' && onMain(e) && e.pid === task.pid && e.tid === task.tid && e.ts >= task.ts && e.ts < end && e !== task && (e.dur ?? 0) >= 3_000)
      .map((e) => {
        const data = e.args?.data ?? {};
        const what = [data.functionName, data.type, typeof data.url === 'string' ? data.url.split('/').pop() : undefined, data.lineNumber].filter((v) => v !== undefined && v !== '').join(' ');
        return `${Math.round((e.dur ?? 0) / 1000).toString().padStart(5)} ms  ${e.name}${what ? ` (${what})` : ''}`;
      });
    const self = new Map<string, number>();
    const inclusive = new Map<string, number>();
    for (const s of samples) {
      if (s.ts < task.ts || s.ts >= end || s.thread !== `${task.pid}:${task.tid}`) continue;
      const label = nodes.get(s.node)?.name ?? '?';
      if (label.startsWith('(idle)') || label.startsWith('(root)')) continue;
      self.set(label, (self.get(label) ?? 0) + 1);
      const seen = new Set<string>();
      for (let at: string | undefined = s.node; at !== undefined; at = nodes.get(at)?.parent) {
        const l = nodes.get(at)?.name ?? '?';
        if (!seen.has(l) && !l.startsWith('(root)')) inclusive.set(l, (inclusive.get(l) ?? 0) + 1);
        seen.add(l);
      }
    }
    const top = (map: Map<string, number>, count: number) => [...map].sort((a, b) => b[1] - a[1]).slice(0, count).map(([l, c]) => `      ${String(c).padStart(5)} samples  ${l}`).join('\n');
    console.log(`\n${Math.round((task.ts - first) / 1000)}+${Math.round((task.dur ?? 0) / 1000)} ms (after the first long task)\n${inner.slice(0, 16).map((l) => `    ${l}`).join('\n')}\n    self:\n${top(self, 6)}\n    inclusive:\n${top(inclusive, 12)}`);
  }
}

/** The page's JS heap in use after a full collection, in MB. */
async function usedHeapMB(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('Performance.enable');
  const { metrics } = await cdp.send('Performance.getMetrics');
  await cdp.detach();
  return (metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? 0) / 2 ** 20;
}

async function main() {
  // `--trace-from FILE`: the long tasks of a trace recorded before (bench-results/submit-trace.json).
  const from = process.argv.indexOf('--trace-from');
  if (from >= 0) {
    printLongTasks((JSON.parse(readFileSync(process.argv[from + 1]!, 'utf8')) as { traceEvents: TraceEvent[] }).traceEvents);
    return;
  }
  const executablePath = findChromium();
  if (!executablePath) {
    console.log(NO_BROWSER_MESSAGE);
    return;
  }
  const server = await startServer();
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
    await page.addInitScript(() => {
      const w = window as unknown as { __longest: number; __measuring: boolean; __tasks: string[] };
      w.__longest = 0;
      w.__tasks = [];
      w.__measuring = false;
      new PerformanceObserver((list) => {
        if (!w.__measuring) return;
        for (const entry of list.getEntries()) {
          w.__longest = Math.max(w.__longest, entry.duration);
          if (entry.duration > 50) w.__tasks.push(`${Math.round(entry.startTime)}+${Math.round(entry.duration)} ${location.pathname}`);
        }
      }).observe({ type: 'longtask', buffered: false });
    });
    const imports: { status: number; at: number; headers: boolean }[] = [];
    let polls = 0;
    let headersSeen = false;
    page.on('response', (response) => {
      const url = response.url();
      const method = response.request().method();
      if (method === 'POST' && url.includes('/shipments/imports')) {
        imports.push({ status: response.status(), at: Date.now(), headers: headersSeen });
        if (process.argv.includes('--tasks')) console.log('import answered', Date.now());
        if (response.headers()['x-ratelimit-remaining'] !== undefined) headersSeen = true;
      } else if (method === 'GET' && /\/shipments\/imports\/[^/?]+$/.test(url)) polls++;
    });

    await page.goto(`${server.url}/connect`);
    await page.getByRole('button', { name: 'Use local sandbox' }).click();
    await page.getByLabel('Spreadsheet file').setInputFiles({ name: 'bench.csv', mimeType: 'text/csv', buffer: csv(ROWS) });
    await page.getByRole('button', { name: 'Continue to review' }).click({ timeout: 120_000 });
    await page.getByRole('button', { name: /Continue with [\d,]+ ready rows/ }).click({ timeout: 120_000 });
    const send = page.getByRole('button', { name: /^Send [\d,]+ rows$/ });
    await send.waitFor({ timeout: 120_000 });
    const heapBeforeMB = await usedHeapMB(page);
    await page.evaluate(() => ((window as unknown as { __measuring: boolean }).__measuring = true));
    const profiling = process.argv.includes('--profile');
    const profiler = profiling ? await page.context().newCDPSession(page) : null;
    if (profiler) {
      await profiler.send('Profiler.enable');
      await profiler.send('Profiler.setSamplingInterval', { interval: 500 });
      await profiler.send('Profiler.start');
    }
    // `--trace-light` leaves out the CPU sampler: tasks keep about their real length (the sampler
    // adds tens of milliseconds to some), but have no function names.
    const light = process.argv.includes('--trace-light');
    const tracing = light || process.argv.includes('--trace');
    if (tracing) {
      const sampler = light ? [] : ['disabled-by-default-v8.cpu_profiler'];
      await browser.startTracing(page, {
        categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'v8.execute', ...sampler, 'disabled-by-default-v8.gc'],
      });
    }
    const start = Date.now();
    await send.click();
    if (process.argv.includes('--tasks')) console.log('send at', await page.evaluate(() => performance.now()));
    const uploads = Math.ceil(ROWS / CAP);
    // Checked with one selector every 250 ms: a locator's text search over the whole page, as
    // often as Playwright repeats it, cost the page's thread seconds the console never asked for.
    const label = `Requests accepted: ${uploads} of ${uploads}`;
    await page.waitForFunction((name) => document.querySelector(`[role="progressbar"][aria-label="${name}"]`) !== null, label, { polling: 250, timeout: 600_000 });
    const allAccepted = Date.now() - start;
    await page.waitForFunction(() => [...document.querySelectorAll('[data-status-badge]')].some((badge) => /^✓\s*Finished$/.test(badge.textContent ?? '')), undefined, { polling: 250, timeout: 1_800_000 });
    const finished = Date.now() - start;
    if (profiler) printProfile((await profiler.send('Profiler.stop')).profile);
    if (tracing) {
      const trace = await browser.stopTracing();
      mkdirSync('bench-results', { recursive: true });
      writeFileSync('bench-results/submit-trace.json', trace);
      printLongTasks((JSON.parse(trace.toString()) as { traceEvents: TraceEvent[] }).traceEvents);
    }
    const longestTaskMs = await page.evaluate(() => (window as unknown as { __longest: number }).__longest);
    if (process.argv.includes('--tasks')) console.log(await page.evaluate(() => (window as unknown as { __tasks: string[] }).__tasks), await page.evaluate(() => performance.now()));
    const heapMB = await usedHeapMB(page);
    const invariantHolds = (await page.getByText(/Does not hold/).count()) === 0;

    const accepted = imports.filter((i) => i.status >= 200 && i.status < 300).length;
    const floorMs = (Math.ceil(uploads / IMPORT_LIMIT) - 1) * WINDOW_S * 1000;
    const figures = {
      rows: ROWS,
      importRequests: imports.length,
      expectedImportRequests: uploads,
      acceptedImports: accepted,
      status429WithHeaders: imports.filter((i) => i.status === 429 && i.headers).length,
      allAcceptedMs: allAccepted,
      floorMs,
      finishedMs: finished,
      polls,
      pollsPerMinute: Math.round((polls / (finished / 60_000)) * 10) / 10,
      budgetPollsPerMinute: Math.round((1500 / 60) * 10) / 10,
      longestTaskMs: Math.round(longestTaskMs),
      heapBeforeSendMB: Math.round(heapBeforeMB),
      heapMB: Math.round(heapMB),
      invariantHolds,
    };
    console.log('| figure | value |\n|---|---|');
    for (const [key, value] of Object.entries(figures)) console.log(`| ${key} | ${value} |`);
    mkdirSync('bench-results', { recursive: true });
    writeFileSync('bench-results/submit.json', JSON.stringify(figures, null, 2));
  } finally {
    await browser.close();
    await server.stop();
  }
}

await main();
