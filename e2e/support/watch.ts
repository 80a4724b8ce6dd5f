// Watching a job page as a user does while the job runs: answering its questions (Resend or Skip a
// request whose answer was lost), looking away between polls (the page's clock moved on), and
// saying what the user sees when a wait ends without the job finished.
import { expect, type Page } from '@playwright/test';
import { jobFinishedBadge } from './journey';
import { storedJobState } from './stored-job';

/** A row range the user chose to resend (its rows without a reference may now exist twice). */
export interface Resent {
  firstRow: number;
  lastRow: number;
}

/** Clicks one Resend (or Skip) of a request whose answer was lost, if the page offers one. */
async function resolveOneUnknown(page: Page, resolve: 'resend' | 'skip', resent: Resent[]): Promise<boolean> {
  // Enabled only: a loss already answered keeps its buttons, inert, until the page shows the chunk moved on.
  const button = page.getByRole('button', { name: resolve === 'resend' ? /^Resend rows \d+–\d+$/ : /^Skip rows \d+–\d+$/, disabled: false }).first();
  if (!(await button.isVisible().catch(() => false))) return false;
  // Bounded: the button of a chunk just resent leaves the page a moment after the click, and an
  // unbounded action on a locator that no longer matches waits until the test's own timeout.
  const label = (await button.getAttribute('aria-label', { timeout: 1_000 }).catch(() => null)) ?? '';
  const match = /(\d+)–(\d+)/.exec(label);
  const clicked = await button.click({ timeout: 2_000 }).then(() => true, () => false);
  if (clicked && match && resolve === 'resend') resent.push({ firstRow: Number(match[1]), lastRow: Number(match[2]) });
  return clicked;
}

/**
 * Watches the job page for `ms` as a user does: a request whose answer was lost is resent
 * (Resend), and the waits between polls are skipped by moving the page's clock on (a user who
 * looks away for a while). Returns early when the job has finished.
 */
export async function watchFor(page: Page, ms: number, resent: Resent[], resolve: 'resend' | 'skip' = 'resend'): Promise<boolean> {
  const finished = jobFinishedBadge(page);
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await finished.isVisible().catch(() => false)) return true;
    if (await resolveOneUnknown(page, resolve, resent)) continue;
    await page.clock.fastForward(4_000).catch(() => undefined);
    await page.waitForTimeout(150);
  }
  return finished.isVisible().catch(() => false);
}

/** Watches until the job has finished; fails the test if it does not within `timeoutMs`. */
export async function watchToFinish(page: Page, timeoutMs = 60_000): Promise<Resent[]> {
  const resent: Resent[] = [];
  if (!(await watchFor(page, timeoutMs, resent))) {
    // Say where it stopped: what the page shows and the job's record as the runner left it.
    const state = `${await whatTheUserSees(page).catch(() => '?')}\n${await storedJobState(page)}`;
    await expect(jobFinishedBadge(page), `the job finished; it did not:\n${state}`).toBeVisible({ timeout: 1_000 });
  }
  return resent;
}

/** Moves the clock on until no request is still to send (each accepted or lost), at most `ms`. */
export async function settleRequests(page: Page, requests: number, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await page.getByText(`Requests accepted: ${requests} of ${requests}`).isVisible().catch(() => false)) return;
    if (await page.getByText(/still to send 0 \+ answer lost [1-9]/).isVisible().catch(() => false)) return;
    await page.clock.fastForward(2_000).catch(() => undefined);
    await page.waitForTimeout(150);
  }
}

/** What the user sees now: the page's heading, the job's state and progress, any alert or status, as text. */
export async function whatTheUserSees(page: Page): Promise<string> {
  const heading = (await page.getByRole('heading', { level: 1 }).first().textContent({ timeout: 5_000 }).catch(() => null))?.trim() ?? '';
  const progress = await page.getByText(/^(Requests accepted|Rows processed): /).allTextContents().catch(() => [] as string[]);
  const lost = (await page.getByRole('heading', { name: 'Requests whose answer was lost' }).count()) > 0 ? ['Requests whose answer was lost (Resend / Skip offered)'] : [];
  const notes = await page.locator('[role=alert], [role=status]').filter({ hasText: /\S/ }).allInnerTexts().catch(() => [] as string[]);
  return [heading, ...progress, ...lost, ...notes.map((t) => t.replace(/\s+/g, ' ').trim())].filter(Boolean).join(' | ');
}
