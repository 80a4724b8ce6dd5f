// Keyboard and clipboard as a person uses them: Tab to a control, arrow keys within the review
// grid (a single Tab stop), a paste from a spreadsheet program.
import { expect, type Locator, type Page } from '@playwright/test';

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
