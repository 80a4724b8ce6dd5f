import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium } from './e2e/find-browser';

const executablePath = findChromium() ?? undefined;

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  globalSetup: './e2e/global-setup.ts',
  // Spec files run two at a time (tests within a file in order): most of an e2e test is waiting on
  // the sandbox's processing and polling, and every spec that changes the sandbox's settings starts
  // its own, so files do not share state beyond the global server's demo workspace.
  fullyParallel: false,
  workers: 2,
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
});
