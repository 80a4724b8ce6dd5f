import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium } from './src/tooling/browser';

const executablePath = findChromium() ?? undefined;

/**
 * Specs whose time goes into computing in the browser, not into waiting: axe over large pages
 * (a11y, a11y-states), files of 5,000 columns, 2 MB cells and 1,000,000 rows (bad-files,
 * hostile-files, review-grid), long runs of single key presses with axe (keyboard). Two of them at
 * once on a loaded machine starved axe past the test's timeout, so they run one at a time.
 */
const CPU_BOUND = [
  '**/a11y.spec.ts',
  '**/a11y-states.spec.ts',
  '**/bad-files.spec.ts',
  '**/hostile-files.spec.ts',
  '**/keyboard.spec.ts',
  '**/review-grid.spec.ts',
];

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  globalSetup: './e2e/global-setup.ts',
  // Spec files run three at a time (tests within a file in order), on CI's 2 cores too: most of an
  // e2e test is waiting on the sandbox's processing and on the console's 10–15 s poll spacing, not
  // computing — a 2-worker run used 500 s of CPU (user + system, browsers and servers included)
  // in 1,320 s of wall time, under half of one core. At most one of the three is a CPU-bound spec
  // (the `cpu-bound` project's one worker); the other two wait on the sandbox most of the time.
  // Both lists together take about the same time, so neither is left running alone at the end.
  // Every spec that changes the sandbox's settings starts its own, so files do not share state
  // beyond the global server's demo workspace. `--workers=2` runs two at a time again.
  fullyParallel: false,
  workers: 3,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.E2E_JSON_REPORT
    ? [['list'], ['json', { outputFile: process.env.E2E_JSON_REPORT }]]
    : [['list']],
  use: {
    browserName: 'chromium',
    viewport: { width: 1366, height: 900 },
    launchOptions: { executablePath, args: CHROMIUM_ARGS },
    trace: 'retain-on-failure',
  },
  projects: [
    { name: 'cpu-bound', testMatch: CPU_BOUND, workers: 1 },
    // Every other spec, new ones included: mostly waiting on the sandbox and on polls.
    { name: 'waiting', testIgnore: CPU_BOUND },
  ],
});
