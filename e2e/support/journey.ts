// The journey's steps as a user takes them, one function each: connect, drop, review, Ready, Send;
// and what the job page shows of the job (its batches, its Finished badge). Each step ends on what
// the user sees next, so a spec that disturbs the journey between two steps knows where it is.
import { expect, type Locator, type Page } from '@playwright/test';

/** Connects through the Connect page's one-click sandbox button, as a newcomer would; `origin` for a server of the spec's own. */
export async function connectToSandbox(page: Page, origin = ''): Promise<void> {
  await page.goto(`${origin}/connect`);
  await page.getByRole('button', { name: 'Use local sandbox' }).click();
  await expect(page.getByRole('heading', { name: 'Import shipments' })).toBeVisible();
}

export async function dropFile(page: Page, name: string, text: string): Promise<void> {
  await page.getByLabel('Spreadsheet file').setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(text) });
  await expect(page.getByRole('button', { name: 'Continue to review' })).toBeVisible();
}

/** "1 row", "1,200 rows", as the importer's buttons count them. */
const rowCount = (rows: number) => `${rows.toLocaleString('en')} row${rows === 1 ? '' : 's'}`;

/** The review grid's way on, once every row of the file is ready. */
const continueWithReadyRows = (page: Page, rows: number) =>
  page.getByRole('button', { name: new RegExp(`Continue with ${rowCount(rows).replace(' ', ' ready ')}`) });

export async function continueToReview(page: Page, rows: number): Promise<void> {
  await page.getByRole('button', { name: 'Continue to review' }).click();
  await expect(continueWithReadyRows(page, rows)).toBeVisible();
}

export async function continueToReady(page: Page, rows: number): Promise<void> {
  await continueWithReadyRows(page, rows).click();
  await expect(page.getByRole('heading', { name: 'What sending costs' })).toBeVisible();
}

/** Send; returns the job id from the job page's address. */
export async function send(page: Page, rows: number): Promise<string> {
  await page.getByRole('button', { name: `Send ${rowCount(rows)}` }).click();
  await expect(page).toHaveURL(/\/imports\/[0-9a-f-]{36}$/);
  return page.url().split('/').pop()!;
}

/** Drop → review → Ready → Send for a file whose `rows` rows are all ready; returns the job id. */
export async function dropAndSend(page: Page, name: string, text: string, rows: number): Promise<string> {
  await dropFile(page, name, text);
  await continueToReview(page, rows);
  await continueToReady(page, rows);
  return send(page, rows);
}

/** The batch ids the job page lists. */
export async function jobBatchIds(page: Page): Promise<string[]> {
  const table = page.getByRole('table').filter({ has: page.getByRole('columnheader', { name: 'Batch' }) });
  return (await table.locator('tbody tr td:first-child').allTextContents()).map((s) => s.trim());
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
