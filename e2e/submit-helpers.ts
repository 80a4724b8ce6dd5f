// Helpers of the submit-and-watch specs: valid shipment files, the walk from drop to Send, and
// reading the sandbox's own view of a batch with the demo key.
import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { containerCheckDigit } from '../src/spreadsheet/iso6346';

export const DEMO_KEY = 'sandbox-demo-key-4173';

/** A valid ISO 6346 container number from an owner code and a serial. */
export function containerNumber(owner: string, serial: number): string {
  const first = `${owner}U${String(serial).padStart(6, '0')}`;
  return `${first}${containerCheckDigit(first)}`;
}

/** `rows` valid container rows; every `noReferenceEvery`-th has no reference (those could duplicate). */
export function shipmentsCsv(rows: number, { prefix = 'E2E', owner = 'MSK', noReferenceEvery = 5 } = {}): string {
  const lines = ['tracking_number,tracking_type,reference,carrier,name'];
  for (let i = 1; i <= rows; i++) {
    const reference = i % noReferenceEvery === 0 ? '' : `${prefix}-${i}`;
    lines.push(`${containerNumber(owner, 100000 + i)},container,${reference},MAEU,Row ${i}`);
  }
  return lines.join('\r\n');
}

export async function dropAndSend(page: Page, name: string, text: string, rows: number): Promise<string> {
  await page.getByLabel('Spreadsheet file').setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(text) });
  await page.getByRole('button', { name: 'Continue to review' }).click();
  await page.getByRole('button', { name: new RegExp(`Continue with ${rows.toLocaleString('en')} ready rows`) }).click();
  await expect(page.getByRole('heading', { name: 'What sending costs' })).toBeVisible();
  await page.getByRole('button', { name: `Send ${rows.toLocaleString('en')} rows` }).click();
  await expect(page).toHaveURL(/\/imports\/[0-9a-f-]{36}$/);
  return page.url().split('/').pop()!;
}

/** The batch ids the job page lists. */
export async function batchIds(page: Page): Promise<string[]> {
  const table = page.getByRole('table').filter({ has: page.getByRole('columnheader', { name: 'Batch' }) });
  return table.locator('tbody tr td:first-child').allTextContents();
}

/** Shipments the sandbox says the batch created or updated. */
export async function shipmentsOfBatch(request: APIRequestContext, baseURL: string, batchId: string): Promise<number> {
  const response = await request.get(`${baseURL}/api/v1/shipments?batch_id=${batchId}&page_size=1`, { headers: { Authorization: `Bearer ${DEMO_KEY}` } });
  expect(response.status()).toBe(200);
  const body = (await response.json()) as { pagination: { total: number } };
  return body.pagination.total;
}

export async function sandboxBatch(request: APIRequestContext, baseURL: string, batchId: string) {
  const response = await request.get(`${baseURL}/api/v1/shipments/imports/${batchId}`, { headers: { Authorization: `Bearer ${DEMO_KEY}` } });
  expect(response.status()).toBe(200);
  return (await response.json()) as { total_requests: number; status: string; results: { creation_status: string }[] };
}

/** A second sandbox with its own settings (tiny import limit, small caps, faults), on a free port. */
export async function startSandbox(env: Record<string, string>): Promise<{ url: string; stop: () => Promise<void> }> {
  const { spawn } = await import('node:child_process');
  const { fileURLToPath } = await import('node:url');
  const root = fileURLToPath(new URL('..', import.meta.url));
  const server = spawn(process.execPath, ['--import', 'tsx', 'src/server/start.ts'], {
    cwd: root,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', SANDBOX_DB: ':memory:', SANDBOX_ROW_DELAY_MS: '5', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`The second sandbox did not start:\n${output}`)), 120_000);
    server.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    server.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    server.once('exit', (code) => reject(new Error(`The second sandbox exited (${code}):\n${output}`)));
  });
  return {
    url,
    stop: async () => {
      server.kill('SIGTERM');
      await new Promise((resolve) => server.once('exit', resolve));
    },
  };
}

export async function connectTo(page: Page, url: string): Promise<void> {
  await page.goto(`${url}/connect`);
  await page.getByRole('button', { name: 'Use local sandbox' }).click();
  await expect(page.getByRole('heading', { name: 'Import shipments' })).toBeVisible();
}

/**
 * The job page's own "Finished" badge. Not any "Finished" text: History's column header says it,
 * and so do its rows' badges (in table cells) for earlier jobs — a test that opened a job from
 * History once took the header, still on screen while the job page loaded, for a finished job.
 */
export function jobFinishedBadge(page: Page): Locator {
  return page.locator('[data-status-badge]:not(td [data-status-badge])', { hasText: /^\W*Finished( with failures)?$/ });
}

/** The key the console holds is revoked on the service's side: the stored key no longer works. */
export async function revokeStoredKey(page: Page): Promise<void> {
  await page.evaluate(() => {
    // The sandbox's one-click connection is remembered on this device (localStorage).
    const key = 'import-console.connection';
    const stored = JSON.parse(localStorage.getItem(key) ?? '{}') as Record<string, unknown>;
    localStorage.setItem(key, JSON.stringify({ ...stored, apiKey: 'revoked-key' }));
  });
  await page.reload();
}

/** The `source` of the job whose page is open, as this browser stored it (IndexedDB). */
export async function storedJobSource(page: Page): Promise<unknown> {
  const jobId = /\/imports\/([0-9a-f-]{36})/.exec(page.url())?.[1];
  if (!jobId) throw new Error(`No job page is open: ${page.url()}`);
  return page.evaluate(
    (id) =>
      new Promise<unknown>((resolve, reject) => {
        const open = indexedDB.open('import-console-jobs');
        open.onerror = () => reject(new Error('IndexedDB would not open'));
        open.onsuccess = () => {
          const get = open.result.transaction('jobs').objectStore('jobs').get(id);
          get.onerror = () => reject(new Error('The job could not be read'));
          get.onsuccess = () => {
            open.result.close();
            resolve((get.result as { source: unknown } | undefined)?.source);
          };
        };
      }),
    jobId,
  );
}
