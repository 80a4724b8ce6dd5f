// The `test` every spec uses: baseURL from the server global-setup started, an axe check, and
// screenshots saved under e2e/screenshots for people to look at.
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Locator, type Page } from '@playwright/test';

export const test = base.extend<{ expectAccessible: (page: Page) => Promise<void>; pageErrors: string[] }>({
  // Every test fails if the page hits an uncaught error or a Content-Security-Policy violation:
  // the served console must work within its own CSP.
  // A violation is caught by its `securitypolicyviolation` event (Chromium does not always log one,
  // e.g. for a `new Function` probe inside try/catch); the console text is kept as a second net.
  pageErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      await page.addInitScript(() => {
        const seen: string[] = [];
        Object.defineProperty(window, '__cspViolations', { value: seen });
        document.addEventListener('securitypolicyviolation', (event) => {
          seen.push(`${event.effectiveDirective} blocked ${event.blockedURI || '(inline)'} at ${event.sourceFile}:${event.lineNumber}`);
        });
      });
      page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
      page.on('console', (message) => {
        if (message.type() === 'error' && /Content.Security.Policy|Refused to/i.test(message.text())) errors.push(`CSP: ${message.text()}`);
      });
      await use(errors);
      const violations = await page
        .evaluate(() => (window as unknown as { __cspViolations?: string[] }).__cspViolations ?? [])
        .catch(() => [] as string[]); // the page may already be closed
      errors.push(...violations.map((v) => `CSP violation event: ${v}`));
      expect(errors).toEqual([]);
    },
    { auto: true },
  ],
  // eslint-disable-next-line no-empty-pattern
  baseURL: async ({}, use) => {
    const url = process.env.E2E_BASE_URL;
    if (!url) throw new Error('E2E_BASE_URL is not set: run the specs through `npm run test:e2e`.');
    await use(url);
  },
  // eslint-disable-next-line no-empty-pattern
  expectAccessible: async ({}, use) => {
    await use(async (page) => {
      const results = await new AxeBuilder({ page }).analyze();
      const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      expect(serious.map((v) => `${v.id}: ${v.help} (${v.nodes.length}×)`)).toEqual([]);
    });
  },
});

export { expect };

export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `e2e/screenshots/${name}.png`, fullPage: true });
}

/** Connects through the one-click sandbox button, as a newcomer would. */
export async function connectToSandbox(page: Page): Promise<void> {
  await page.goto('/connect');
  await page.getByRole('button', { name: 'Use local sandbox' }).click();
  await expect(page.getByRole('heading', { name: 'Import shipments' })).toBeVisible();
}

/**
 * The serious and critical axe violations on the page, each as "rule: help (targets)", so a
 * failure names the element. For specs that must tell a known violation from a new one.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((node) => node.target.join(' ')).join(', ')})`);
}

/**
 * Presses Tab (or Shift+Tab) until the target has the focus, as a keyboard user would; fails
 * naming the path taken when it is not reached, so an unreachable control or a trap shows.
 */
export async function tabTo(page: Page, target: Locator, { backward = false, max = 80 } = {}): Promise<void> {
  await expect(target).toBeVisible();
  let element = await target.elementHandle();
  const path: string[] = [];
  for (let i = 0; i <= max; i++) {
    const where = await page.evaluate((el) => {
      const active = document.activeElement;
      const name = !active || active === document.body ? 'body' : `${active.tagName.toLowerCase()} "${(active.getAttribute('aria-label') ?? active.textContent ?? '').trim().slice(0, 50)}"`;
      return { focused: el !== null && el === active, connected: el?.isConnected ?? false, name };
    }, element);
    if (where.focused) return;
    if (!where.connected) element = await target.elementHandle(); // re-rendered: find it again
    if (i > 0) path.push(where.name);
    if (i === max) break;
    await page.keyboard.press(backward ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`${target.toString()} not reached with ${max} × ${backward ? 'Shift+Tab' : 'Tab'}; the focus went through:\n${path.join('\n')}`);
}

/**
 * Moves to a cell of the review grid as a keyboard user does: Tab (or Shift+Tab) into the grid,
 * which is a single Tab stop, then arrow keys. Cell positions are read from data-cell ("row:col").
 */
export async function arrowTo(page: Page, grid: Locator, target: Locator, { backward = false } = {}): Promise<void> {
  await expect(target).toBeVisible();
  const inGrid = await grid.evaluate((el) => el.contains(document.activeElement) && document.activeElement !== el);
  if (!inGrid) await tabTo(page, grid.locator('[data-cell][tabindex="0"]'), { backward });
  const position = async (locator: Locator | null) => {
    const cell = locator ? await locator.getAttribute('data-cell') : await page.evaluate(() => document.activeElement?.getAttribute('data-cell') ?? null);
    const [row, col] = (cell ?? '0:0').split(':').map(Number);
    return { row: row ?? 0, col: col ?? 0 };
  };
  const from = await position(null);
  const to = await position(target);
  for (let i = from.row; i !== to.row; i += Math.sign(to.row - from.row)) await page.keyboard.press(to.row > from.row ? 'ArrowDown' : 'ArrowUp');
  for (let i = from.col; i !== to.col; i += Math.sign(to.col - from.col)) await page.keyboard.press(to.col > from.col ? 'ArrowRight' : 'ArrowLeft');
  await expect(target).toBeFocused();
}

/** Pastes text into the focused cell as a spreadsheet program puts it on the clipboard. */
export async function pasteIntoFocused(page: Page, text: string): Promise<void> {
  await page.evaluate((data) => {
    const clipboardData = new DataTransfer();
    clipboardData.setData('text/plain', data);
    document.activeElement?.dispatchEvent(new ClipboardEvent('paste', { clipboardData, bubbles: true, cancelable: true }));
  }, text);
}
