// Every page's first load, in each mode the server runs in, asks for nothing that fails: no
// console error, no request that fails or answers 4xx/5xx. Sandbox mode is the global server;
// the two proxy modes are servers started here in front of it (UPSTREAM_URL), one holding the
// key (UPSTREAM_API_KEY) and one where the browser brings its own.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { type ServerProcess, startServerProcess } from '../src/tooling/server-process';
import { expect, test } from './support/fixtures';
import { connectToSandbox } from './support/journey';

/** An import job id no browser has: the job page's own "not found" state. */
const UNKNOWN_JOB = '00000000-0000-4000-8000-000000000000';

/** A batch the sandbox holds, made before the pages are visited: the batch page reads it from the service. */
let batchId = 'not-made-yet';

/** Every page of the route tree, with its parameters filled in. */
const pages = () => ['/', '/connect', '/history', '/history?view=team', '/shipments', '/quick-add', `/imports/${UNKNOWN_JOB}`, `/batches/${batchId}`];

test.beforeAll(async ({ request }) => {
  const sandbox = process.env.E2E_BASE_URL ?? '';
  const demoKey = ((await (await request.get(`${sandbox}/sandbox.json`)).json()) as { api_key: string }).api_key;
  const made = await request.post(`${sandbox}/api/v1/shipments/imports`, {
    headers: { authorization: `Bearer ${demoKey}` },
    data: [{ reference: `FIRST-LOAD-${Date.now()}`, tracking_number: 'MSCU1234566', tracking_type: 'container', carrier_scac: 'MSCU' }],
  });
  expect(made.status()).toBe(202);
  batchId = ((await made.json()) as { id: string }).id;
});

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
  for (const path of pages()) {
    await page.goto(`${base}${path}`);
    await expect(page.getByRole('main')).not.toBeEmpty();
    await page.waitForLoadState('networkidle');
  }
}

test('the spec visits every page of the route tree', () => {
  const routes = fileURLToPath(new URL('../src/app/routes', import.meta.url));
  const paths = readdirSync(routes).flatMap((file) => [...readFileSync(`${routes}/${file}`, 'utf8').matchAll(/\bpath: '([^']+)'/g)].map((match) => match[1]));
  const visited = new Set(pages().map((path) => path.split('?')[0]));
  expect(paths.map((path) => path?.replace('$jobId', UNKNOWN_JOB).replace('$batchId', batchId)).sort()).toEqual([...visited].sort());
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
    const base = withKey?.url ?? '';
    const problems = watchLoad(page);
    await loadEachPage(page, base);
    await page.goto(`${base}/connect`);
    await page.getByRole('button', { name: 'Connect through this server' }).click();
    await expect(page).toHaveURL(`${base}/`);
    await loadEachPage(page, base);
    expect(problems).toEqual([]);
  });

  test('the browser brings the key: each page loads without an error or a failed request, before and after connecting', async ({ page }) => {
    const base = withoutKey?.url ?? '';
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
