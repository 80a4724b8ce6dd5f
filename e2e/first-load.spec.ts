// Every page's first load, in each mode the server runs in, asks for nothing that fails: no
// console error, no request that fails or answers 4xx/5xx. Sandbox mode is the global server;
// the two proxy modes are servers started here in front of it (UPSTREAM_URL), one holding the
// key (UPSTREAM_API_KEY) and one where the browser brings its own.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { type ServerProcess, startServerProcess } from '../src/tooling/server-process';
import { connectToSandbox, expect, test } from './fixtures';

/** An import job id no browser has: the job page's own "not found" state. */
const UNKNOWN_JOB = '00000000-0000-4000-8000-000000000000';

/** Every page of the route tree, with its parameters filled in. */
const PAGES = ['/', '/connect', '/history', '/shipments', '/quick-add', `/imports/${UNKNOWN_JOB}`];

/** What went wrong while the page loaded, one line each. */
function watchLoad(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  page.on('requestfailed', (request) => {
    const reason = request.failure()?.errorText;
    // A fetch the page cancels itself (a query whose page was left, as after Connect) is no failure.
    if (reason !== 'net::ERR_ABORTED') problems.push(`failed: ${request.method()} ${request.url()} (${reason})`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.status()}: ${response.request().method()} ${response.url()}`);
  });
  return problems;
}

/** Loads each page afresh (a full navigation, as a bookmark or a reload does) and waits for the network to go quiet. */
async function loadEachPage(page: Page, base: string): Promise<void> {
  for (const path of PAGES) {
    await page.goto(`${base}${path}`);
    await expect(page.getByRole('main')).not.toBeEmpty();
    await page.waitForLoadState('networkidle');
  }
}

test('the spec visits every page of the route tree', () => {
  const routes = fileURLToPath(new URL('../src/app/routes', import.meta.url));
  const paths = readdirSync(routes).flatMap((file) => [...readFileSync(`${routes}/${file}`, 'utf8').matchAll(/\bpath: '([^']+)'/g)].map((match) => match[1]));
  expect(paths.map((path) => path?.replace('$jobId', UNKNOWN_JOB)).sort()).toEqual([...PAGES].sort());
});

test.describe('sandbox mode', () => {
  test('each page loads without an error or a failed request, not connected', async ({ page, baseURL }) => {
    const problems = watchLoad(page);
    await loadEachPage(page, baseURL ?? '');
    expect(problems).toEqual([]);
  });

  test('each page loads without an error or a failed request, connected to the sandbox', async ({ page, baseURL }) => {
    const problems = watchLoad(page);
    await connectToSandbox(page);
    await loadEachPage(page, baseURL ?? '');
    expect(problems).toEqual([]);
  });
});

test.describe('proxy mode', () => {
  let demoKey = '';
  let withKey: ServerProcess | undefined;
  let withoutKey: ServerProcess | undefined;

  test.beforeAll(async ({ request }) => {
    const sandbox = process.env.E2E_BASE_URL ?? '';
    demoKey = ((await (await request.get(`${sandbox}/sandbox.json`)).json()) as { api_key: string }).api_key;
    // main.ts: the global setup has built dist/ already.
    [withKey, withoutKey] = await Promise.all([
      startServerProcess({ entry: 'src/server/main.ts', env: { UPSTREAM_URL: sandbox, UPSTREAM_API_KEY: demoKey }, startTimeoutMs: 60_000 }),
      startServerProcess({ entry: 'src/server/main.ts', env: { UPSTREAM_URL: sandbox }, startTimeoutMs: 60_000 }),
    ]);
  });

  test.afterAll(async () => {
    await Promise.all([withKey?.stop(), withoutKey?.stop()]);
  });

  test('the server holds the key: each page loads without an error or a failed request, before and after connecting', async ({ page }) => {
    const base = withKey?.address ?? '';
    const problems = watchLoad(page);
    await loadEachPage(page, base);
    await page.goto(`${base}/connect`);
    await page.getByRole('button', { name: 'Connect through this server' }).click();
    await expect(page).toHaveURL(`${base}/`);
    await loadEachPage(page, base);
    expect(problems).toEqual([]);
  });

  test('the browser brings the key: each page loads without an error or a failed request, before and after connecting', async ({ page }) => {
    const base = withoutKey?.address ?? '';
    const problems = watchLoad(page);
    await loadEachPage(page, base);
    await page.goto(`${base}/connect`);
    await page.getByLabel('API key', { exact: true }).fill(demoKey);
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await expect(page).toHaveURL(`${base}/`);
    await loadEachPage(page, base);
    expect(problems).toEqual([]);
  });
});
