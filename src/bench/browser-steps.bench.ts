// The importer's main thread, step by step, as a person goes through it in headless Chromium
// (DESIGN §6: no main-thread task of 50 ms or more on any step): drop the user's kind of file
// (spreadsheet/sample-rows.ts: 10 columns, lists and custom fields) → the Columns step → continue → the grid,
// scrolled → edit a cell → Ready → Send, until the sandbox has accepted every chunk. Each step
// runs from its action until its result is on screen, then a settle of 600 ms (3 s on Ready,
// where a person reads the cost), so what a step leaves behind is counted in it. Per step: the longest main-thread task (PerformanceObserver
// 'longtask', which reports tasks of 50 ms and more) with its attribution, and how many there
// were. Every figure is the median (range) of `--runs N` (BENCH_RUNS, default 5), the machine's
// load printed with them. `--only csv|xlsx` runs one format; `--rows N` changes the size;
// `--no-send` stops at Ready. `--profile` samples the page's main thread (CDP Profiler) through each step and names what
// ran in each long task (functions mapped to the sources through the build's source maps; the
// sampler makes tasks longer, so take the figures from a run without it). Writes bench-results/browser-steps.json.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type CDPSession, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium, NO_BROWSER_MESSAGE } from '../tooling/browser';
import { startServerProcess } from '../tooling/server-process';
import { machineLoad, median, medianWithRange, runCount } from './stats';
import { FILE_TYPES, userCsv, userXlsx } from './user-files';

const at = process.argv.indexOf('--rows');
const ROWS = at >= 0 ? Number(process.argv[at + 1]) : 100_000;
const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : null;
const PROFILE = process.argv.includes('--profile');
const TRACE = process.argv.includes('--trace');
/** `--no-send` stops at the Ready step: for comparing the page's own steps quickly. */
const SEND = !process.argv.includes('--no-send');
const RUNS = runCount(5);
const SETTLE_MS = 600;
const READY_SETTLE_MS = 3000;
const STEPS = ['drop → columns', 'continue → grid', 'scroll the grid', 'edit a cell', 'Ready', 'Send → accepted'] as const;
type Step = (typeof STEPS)[number];

interface LongTask {
  step: Step;
  startMs: number;
  durationMs: number;
  /** The long-task entry's attribution: which frame or container it was in. */
  attribution: string;
}

interface RunFigures {
  format: 'csv' | 'xlsx';
  run: number;
  stepMs: Record<Step, number>;
  longest: Record<Step, number>;
  over50: Record<Step, number>;
  tasks: LongTask[];
  /** Each long task with what the profiler found running in it, per step. */
  named?: Record<Step, string[]>;
  /** Each main-thread task of 50 ms or more in the step's trace, with the trace events in it. */
  traced?: Record<Step, string[]>;
}

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number }; children?: number[] }[];
  samples?: number[];
  timeDeltas?: number[];
}

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Minified positions → the source's function and file, through dist/'s source maps (when present). */
async function sourceNamer(): Promise<(url: string, line: number, column: number, fallback: string) => string> {
  const { TraceMap, originalPositionFor } = await import('@jridgewell/trace-mapping');
  const maps = new Map<string, InstanceType<typeof TraceMap> | null>();
  return (url, line, column, fallback) => {
    const file = url.split('/').pop() ?? '';
    if (!url.includes('/assets/')) return `${fallback} ${file}:${line + 1}`;
    if (!maps.has(file)) {
      const path = join(root, 'dist', 'assets', `${file}.map`);
      maps.set(file, existsSync(path) ? new TraceMap(readFileSync(path, 'utf8')) : null);
    }
    const map = maps.get(file);
    const original = map ? originalPositionFor(map, { line: line + 1, column }) : null;
    if (!original?.source) return `${fallback} ${file}:${line + 1}:${column + 1}`;
    const source = original.source.replace(/^.*node_modules\//, '').replace(/^(\.\.\/)+/, '');
    return `${original.name ?? fallback} ${source}:${original.line}`;
  };
}

/**
 * What ran on the main thread in each long task: the profile's samples inside the task's time
 * (the profile's clock set against the page's at the profiler's start, a few ms apart at most),
 * the functions by self time and the app's own frames by inclusive time.
 */
function namedTasks(
  profile: CpuProfile & { startTime: number },
  pageStartMs: number,
  tasks: readonly { start: number; duration: number }[],
  name: (url: string, line: number, column: number, fallback: string) => string,
): string[] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const labels = new Map<number, string>();
  const label = (id: number) => {
    let text = labels.get(id);
    if (text === undefined) {
      const { functionName, url, lineNumber, columnNumber } = byId.get(id)!.callFrame;
      text = url ? name(url, lineNumber, columnNumber, functionName || '(anonymous)') : functionName || '(anonymous)';
      labels.set(id, text);
    }
    return text;
  };
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  const times: number[] = [];
  let clock = profile.startTime;
  for (let i = 0; i < samples.length; i++) times.push(pageStartMs + ((clock += deltas[i] ?? 0) - profile.startTime) / 1000);
  return tasks.map((task) => {
    const self = new Map<string, number>();
    const own = new Map<string, number>();
    let sampled = 0;
    for (let i = 0; i < samples.length; i++) {
      if (times[i]! < task.start || times[i]! > task.start + task.duration) continue;
      const dt = ((deltas[i + 1] ?? 0) / 1000);
      const id = samples[i]!;
      if (label(id) === '(idle)') continue;
      sampled += dt;
      self.set(label(id), (self.get(label(id)) ?? 0) + dt);
      const seen = new Set<string>();
      for (let node: number | undefined = id; node !== undefined; node = parent.get(node)) {
        const l = label(node);
        if (seen.has(l) || !/ src\//.test(l)) continue;
        seen.add(l);
        own.set(l, (own.get(l) ?? 0) + dt);
      }
    }
    const top = (map: Map<string, number>, count: number) =>
      [...map].sort((a, b) => b[1] - a[1]).slice(0, count).map(([l, t]) => `${Math.round(t)} ms ${l}`).join('; ');
    return `task ${Math.round(task.duration)} ms at ${Math.round(task.start)} ms, ${Math.round(sampled)} ms sampled — self: ${top(self, 6)} — the app's frames: ${top(own, 8)}`;
  });
}

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string };
}

/**
 * The page's main-thread tasks of 50 ms or more in a Chrome trace, each with the time of the
 * events in it by name, outermost first (script, style, layout, paint, GC): what kind of work a
 * task was when the profiler sees it only as "(program)".
 */
function tracedTasks(events: TraceEvent[]): string[] {
  const main = new Set(events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  const onMain = events.filter((e) => main.has(`${e.pid}:${e.tid}`) && e.ph === 'X' && e.dur !== undefined).sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  const tasks = onMain.filter((e) => e.name === 'RunTask' && e.dur! >= 50_000);
  return tasks.map((task) => {
    const inside = onMain.filter((e) => e !== task && e.ts >= task.ts && e.ts + e.dur! <= task.ts + task.dur!);
    const byName = new Map<string, number>();
    for (const e of inside) byName.set(e.name, (byName.get(e.name) ?? 0) + e.dur! / 1000);
    const top = [...byName].sort((a, b) => b[1] - a[1]).slice(0, 12).map(([n, ms]) => `${n} ${Math.round(ms)} ms`).join(', ');
    return `task ${Math.round(task.dur! / 1000)} ms: ${top}`;
  });
}

async function measure(page: Page, format: 'csv' | 'xlsx', file: Buffer, run: number, cdp: CDPSession | null, name: Parameters<typeof namedTasks>[3] | null): Promise<RunFigures> {
  // The file is put in the page before the clock starts, as it is on a user's disk.
  await page.route('**/bench-file', (route) => route.fulfill({ body: file, contentType: FILE_TYPES[format] }));
  await page.goto('/');
  await page.getByRole('heading', { name: 'Import shipments' }).waitFor();
  await page.evaluate(
    async ({ name, type }) => {
      const w = window as unknown as { benchFile: File; longTasks: { start: number; duration: number; attribution: string }[] };
      w.benchFile = new File([await (await fetch('/bench-file')).blob()], name, { type });
      w.longTasks = [];
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as (PerformanceEntry & { attribution?: { name: string; containerType: string; containerName: string; containerSrc: string }[] })[]) {
          const where = (entry.attribution ?? []).map((a) => [a.name, a.containerType, a.containerName || a.containerSrc].filter(Boolean).join(' ')).join(', ');
          w.longTasks.push({ start: entry.startTime, duration: entry.duration, attribution: `${entry.name}${where ? ` (${where})` : ''}` });
        }
      }).observe({ type: 'longtask' });
    },
    { name: `shipments.${format}`, type: FILE_TYPES[format] },
  );
  // Interception left on would hand every request of the page (Send's chunks) to Playwright too.
  await page.unroute('**/bench-file');

  const starts = new Map<Step, number>();
  const ends = new Map<Step, number>();
  const named = {} as Record<Step, string[]>;
  const traced = {} as Record<Step, string[]>;
  const now = () => page.evaluate(() => performance.now());
  const tasksSince = (from: number) =>
    page.evaluate((t) => (window as unknown as { longTasks: { start: number; duration: number }[] }).longTasks.filter((task) => task.start >= t), from);
  /** Runs one step: `act` starts it and resolves when its result is on screen. */
  const step = async (which: Step, act: () => Promise<void>, settleMs = SETTLE_MS) => {
    if (TRACE) await page.context().browser()!.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'disabled-by-default-v8.gc'] });
    if (cdp) await cdp.send('Profiler.start');
    const profiledFrom = await now();
    starts.set(which, profiledFrom);
    await act();
    ends.set(which, await now());
    await page.waitForTimeout(settleMs);
    if (cdp && name) {
      const { profile } = await cdp.send('Profiler.stop');
      named[which] = namedTasks(profile, profiledFrom, await tasksSince(profiledFrom), name);
    }
    if (TRACE) {
      const trace = JSON.parse((await page.context().browser()!.stopTracing()).toString('utf8')) as { traceEvents: TraceEvent[] };
      traced[which] = tracedTasks(trace.traceEvents);
    }
  };

  await step('drop → columns', async () => {
    await page.getByRole('button', { name: /Choose a spreadsheet to import/ }).evaluate((zone) => {
      const data = new DataTransfer();
      data.items.add((window as unknown as { benchFile: File }).benchFile);
      zone.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
    });
    await page.getByRole('heading', { name: 'Columns' }).waitFor({ timeout: 120_000 });
  });
  const grid = page.getByRole('region', { name: 'Rows to review' });
  await step('continue → grid', async () => {
    await page.getByRole('button', { name: 'Continue to review' }).click();
    await grid.getByRole('button', { name: /^tracking_number, (line|row) 2:/ }).waitFor({ timeout: 120_000 });
  });
  await step('scroll the grid', async () => {
    for (const fraction of [0.1, 0.25, 0.5, 0.75, 1, 0]) {
      await grid.evaluate((el, f) => el.scrollTo({ top: el.scrollHeight * f }), fraction);
      await page.waitForTimeout(150);
    }
    await grid.getByRole('button', { name: /^tracking_number, (line|row) 2:/ }).waitFor();
  });
  await step('edit a cell', async () => {
    await grid.getByRole('button', { name: /^name, (line|row) 2:/ }).click();
    await page.getByLabel(/^Edit name, (line|row) 2$/).fill('Edited for the bench');
    await page.keyboard.press('Enter');
    await grid.getByRole('button', { name: /^name, (line|row) 2: Edited for the bench\./ }).waitFor();
  });
  const send = page.getByRole('button', { name: /^Send [\d,]+ rows$/ });
  await step('Ready', async () => {
    await page.getByRole('button', { name: /Continue with [\d,]+ ready rows/ }).click();
    await page.getByRole('heading', { name: 'Ready to submit' }).waitFor({ timeout: 120_000 });
    await send.waitFor({ timeout: 120_000 });
    // A person reads the cost before Send: what the step loads while the page is idle (Send's
    // and the job page's code, within 2 s) is the step's.
  }, READY_SETTLE_MS);
  if (!SEND) return finish();
  await step('Send → accepted', async () => {
    await send.click();
    // Checked with one selector every 250 ms: a locator's text search over the whole page, as
    // often as Playwright repeats it, would be work of the bench's on the page's thread.
    await page.waitForFunction(
      () => [...document.querySelectorAll('[role="progressbar"]')].some((bar) => /^Requests accepted: (\d+) of \1$/.test(bar.getAttribute('aria-label') ?? '')),
      undefined,
      { polling: 250, timeout: 300_000 },
    );
  });

  return finish();

  async function finish(): Promise<RunFigures> {
    const raw = await page.evaluate(() => (window as unknown as { longTasks: { start: number; duration: number; attribution: string }[] }).longTasks);
    const order = STEPS.map((s) => [s, starts.get(s) ?? Infinity] as const);
    const tasks: LongTask[] = raw.map((t) => ({
      // A task belongs to the last step begun before it: a step's settle counts in the step.
      step: [...order].reverse().find(([, startedAt]) => startedAt <= t.start)?.[0] ?? STEPS[0],
      startMs: Math.round(t.start),
      durationMs: Math.round(t.duration),
      attribution: t.attribution,
    }));
    const perStep = <T>(pick: (s: Step) => T) => Object.fromEntries(STEPS.map((s) => [s, pick(s)])) as Record<Step, T>;
    return {
      format,
      run,
      stepMs: perStep((s) => Math.round((ends.get(s) ?? 0) - (starts.get(s) ?? 0))),
      longest: perStep((s) => Math.max(0, ...tasks.filter((t) => t.step === s).map((t) => t.durationMs))),
      over50: perStep((s) => tasks.filter((t) => t.step === s).length),
      tasks,
      ...(cdp ? { named } : {}),
      ...(TRACE ? { traced } : {}),
    };
  }
}

const executablePath = findChromium();
if (!executablePath) {
  console.error(NO_BROWSER_MESSAGE);
  process.exit(1);
}
// Row delay 0 and an import limit no chunk waits for: Send's step is the page's work, not the limit's.
const startServer = () =>
  startServerProcess({
    env: { SANDBOX_ROW_DELAY_MS: '0', SANDBOX_IMPORT_LIMIT: '1000', SANDBOX_IMPORT_WINDOW_S: '1', SANDBOX_HOURLY_LIMIT: '100000', SANDBOX_DAILY_LIMIT: '1000000' },
    echoStderr: true,
  });
// Built (when the sources changed) before the clock of any run starts.
await (await startServer()).stop();
const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
const load = machineLoad();
const results: RunFigures[] = [];
try {
  const files: { format: 'csv' | 'xlsx'; file: Buffer }[] = [];
  if (only !== 'xlsx') files.push({ format: 'csv', file: userCsv(ROWS) });
  if (only !== 'csv') files.push({ format: 'xlsx', file: await userXlsx(ROWS) });
  const name = PROFILE ? await sourceNamer() : null;
  for (let run = 1; run <= RUNS; run++) {
    for (const { format, file } of files) {
      // A fresh sandbox and tab per run: the 100,000 rows an earlier Send left the sandbox to
      // process would take the cores from this run, and its jobs the tab's thread.
      const server = await startServer();
      const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1366, height: 900 } });
      const page = await context.newPage();
      await page.goto('/connect');
      await page.getByRole('button', { name: 'Use local sandbox' }).click();
      await page.getByRole('heading', { name: 'Import shipments' }).waitFor();
      const cdp = PROFILE ? await context.newCDPSession(page) : null;
      if (cdp) {
        await cdp.send('Profiler.enable');
        await cdp.send('Profiler.setSamplingInterval', { interval: 250 });
      }
      const figures = await measure(page, format, file, run, cdp, name).finally(async () => {
        await context.close();
        await server.stop();
      });
      results.push(figures);
      console.error(`run ${run}, ${format}, ${machineLoad()}: ${STEPS.map((s) => `${s} ${figures.stepMs[s]} ms, longest task ${figures.longest[s]} ms`).join('; ')}`);
      for (const task of figures.tasks) console.error(`  ${task.step}: task ${task.durationMs} ms at ${task.startMs} ms, ${task.attribution}`);
      for (const s of STEPS) for (const task of figures.named?.[s] ?? []) console.error(`  profile, ${s}: ${task}`);
      for (const s of STEPS) for (const task of figures.traced?.[s] ?? []) console.error(`  trace, ${s}: ${task}`);
    }
  }
} finally {
  await browser.close();
}

console.log(`Headless Chromium, the user's kind of file (10 columns), ${ROWS.toLocaleString('en')} rows; median (range) of ${RUNS} run(s); ${load} at the start, ${machineLoad()} at the end.\n`);
console.log('| file | step | step took | longest task (target < 50 ms) | tasks ≥ 50 ms | runs with a task ≥ 50 ms |');
console.log('|---|---|---|---|---|---|');
for (const format of ['csv', 'xlsx'] as const) {
  const runs = results.filter((r) => r.format === format);
  if (runs.length === 0) continue;
  for (const s of STEPS.filter((name) => SEND || name !== 'Send → accepted')) {
    console.log(
      `| ${format.toUpperCase()} | ${s} | ${medianWithRange(runs.map((r) => r.stepMs[s]), 'ms')} | ${medianWithRange(runs.map((r) => r.longest[s]), 'ms')} | ${medianWithRange(runs.map((r) => r.over50[s]), '')} | ${runs.filter((r) => r.longest[s] >= 50).length} of ${runs.length} |`,
    );
  }
  console.log(`| ${format.toUpperCase()} | any step | | ${medianWithRange(runs.map((r) => Math.max(...STEPS.map((s) => r.longest[s]))), 'ms')} | median ${median(runs.map((r) => r.tasks.length))} | ${runs.filter((r) => r.tasks.length > 0).length} of ${runs.length} |`);
}
mkdirSync('bench-results', { recursive: true });
writeFileSync('bench-results/browser-steps.json', JSON.stringify({ rows: ROWS, runs: RUNS, load, results }, null, 2));
