// History's jobs table at the widths people use it: a 1366 px laptop, a 1024 px window, and
// 200% zoom (the same page in 683 CSS px). The page itself never scrolls sideways, and every
// job's actions (Open, Resume, Cancel, Delete) are on screen and reachable by keyboard.
import type { Locator, Page } from '@playwright/test';
import { expect, screenshot, test } from './support/fixtures';
import { tabTo } from './support/keyboard';
import { shipmentsCsv } from './support/files';
import { connectToSandbox, dropAndSend, revokeStoredKey } from './support/journey';

// A file name as people save them: long, with spaces, and no natural break in the middle.
const LONG_FILE_NAME = 'Rotterdam-Hamburg_Shipments_Week47_FINAL_v3_checked-by-operations.csv';

/** Horizontal overflow of the page itself (not of a scroll container inside it), in CSS px. */
async function pageOverflowX(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

/**
 * The element lies within the viewport's width and nothing covers or clips it: the element at
 * its left and right ends (2 px in) is the element itself, or a part of it.
 */
async function expectOnScreen(page: Page, target: Locator): Promise<void> {
  const box = await target.boundingBox();
  const width = page.viewportSize()!.width;
  expect(box, `${target.toString()} has a box`).not.toBeNull();
  expect(box!.x, `${target.toString()} starts inside the viewport`).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width, `${target.toString()} ends inside the ${width} px viewport`).toBeLessThanOrEqual(width);
  const y = box!.y + box!.height / 2;
  for (const x of [box!.x + 2, box!.x + box!.width - 2]) {
    const hit = await target.evaluate((element, [px, py]) => {
      const found = document.elementFromPoint(px!, py!);
      return found !== null && element.contains(found);
    }, [x, y]);
    expect(hit, `${target.toString()} is not covered at x=${Math.round(x)}`).toBe(true);
  }
}

// Its paused row (a key refused mid-job, with Resume and Cancel) comes from the runner a browser uses in direct mode.
test.use({ consoleRunsJobs: 'off' });

test('history layout: the jobs table fits 1366 px, 1024 px and 200% zoom with every action on screen', async ({ page, expectAccessible }) => {
  // Two jobs through the real flows, then axe at three widths, on cores shared with others.
  test.setTimeout(180_000);
  await connectToSandbox(page);
  // A file job: the longest source name a row shows.
  await dropAndSend(page, LONG_FILE_NAME, shipmentsCsv(3, { prefix: 'LAYOUT' }), 3);
  // Accepted before the key is changed and the page reloaded, so no request loses its answer.
  const batches = page.getByRole('table').filter({ has: page.getByRole('columnheader', { name: 'Batch' }) });
  await expect(batches.locator('tbody tr')).toHaveCount(1);
  // A paused job (its key refused): the longest state sentence, and Resume and Cancel besides
  // Open and Delete.
  await revokeStoredKey(page);
  await page.goto('/quick-add');
  await page.getByRole('textbox', { name: 'Reference, row 1' }).fill('LAYOUT-Q1');
  await page.getByRole('textbox', { name: 'Tracking number, row 1' }).fill('MSKU1234565');
  await page.getByRole('combobox', { name: 'Tracking type, row 1' }).fill('container');
  await page.getByRole('textbox', { name: 'Carrier SCAC, row 1' }).fill('MAEU');
  await page.getByRole('button', { name: 'Send 1 shipment' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Paused' })).toBeVisible();

  await page.goto('/history');
  const paused = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Quick add' }) });
  const file = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: new RegExp(LONG_FILE_NAME.replace(/[.]/g, '\\.')) }) });
  await expect(paused).toContainText('Paused');
  await expect(file).toBeVisible();
  const actions = [
    paused.getByRole('link', { name: /^Open Quick add/ }),
    paused.getByRole('button', { name: /^Resume Quick add/ }),
    paused.getByRole('button', { name: /^Cancel Quick add/ }),
    paused.getByRole('button', { name: /^Delete Quick add/ }),
    file.getByRole('link', { name: /^Open Rotterdam/ }),
    file.getByRole('button', { name: /^Delete Rotterdam/ }),
  ];

  // 1366 px, the projects' default viewport: nothing to scroll sideways, every action in view.
  await page.setViewportSize({ width: 1366, height: 900 });
  expect(await pageOverflowX(page), 'the page scrolls sideways at 1366 px').toBeLessThanOrEqual(0);
  for (const action of actions) {
    await expect(action).toBeVisible();
    await expectOnScreen(page, action);
  }
  // Nothing scrolls inside either, so the table's region is no Tab stop of its own.
  const region = page.getByRole('region', { name: 'Import jobs, newest first' });
  await expect(region).not.toHaveAttribute('tabindex');
  await expectAccessible(page);
  await screenshot(page, 'history-layout-1366');

  // 1024 px and 200% zoom (683 CSS px): the page still does not scroll sideways; the actions are
  // on screen and Tab reaches each of them.
  for (const width of [1024, 683]) {
    await page.setViewportSize({ width, height: 900 });
    expect(await pageOverflowX(page), `the page scrolls sideways at ${width} px`).toBeLessThanOrEqual(0);
    await page.getByRole('heading', { level: 1, name: 'History' }).click(); // start Tab from the top of the page
    // The columns that do not fit scroll inside the table's labelled region: Tab reaches it, and
    // the arrow keys scroll it.
    await tabTo(page, region);
    const scrolledBy = await region.evaluate((element) => element.scrollLeft);
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => region.evaluate((element) => element.scrollLeft)).toBeGreaterThan(scrolledBy);
    for (const action of actions) {
      await tabTo(page, action);
      await expectOnScreen(page, action);
    }
    await expectAccessible(page);
    await screenshot(page, `history-layout-${width}`);
  }
});
