// The whole import journey with the keyboard only: Tab, Shift+Tab, Enter, Space, arrow keys and
// typing — never a mouse click — and an axe check on every step.
import type { Locator, Page } from '@playwright/test';
import { expect, screenshot, test } from './support/fixtures';
import { arrowTo, tabTo } from './support/keyboard';

const FILE = {
  name: 'keyboard.csv',
  mimeType: 'text/csv',
  buffer: Buffer.from(
    [
      'Container No,Type,Ref,Carrier SCAC,Shipment title',
      'MSKU1234565,container,PO-1,maeu,First',
      'HLXU1234560,container,PO-2,MAEU,Bad check digit',
      'TGHU9876542,containr,PO-3,MSCU,Misspelt type',
      'MEDU7654325,container,PO-4,MSCU,To exclude',
      'CSQU3054383,container,PO-5,MAEU,Fifth',
    ].join('\r\n'),
  ),
};

async function connectByKeyboard(page: Page): Promise<void> {
  await page.goto('/connect');
  await tabTo(page, page.getByRole('button', { name: 'Use local sandbox' }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Import shipments' })).toBeVisible();
}

/** Focuses the drop zone with Tab and opens the file chooser with Enter. */
async function chooseFileByKeyboard(page: Page): Promise<void> {
  await tabTo(page, page.getByRole('button', { name: /Choose a spreadsheet to import/ }));
  const chooser = page.waitForEvent('filechooser');
  await page.keyboard.press('Enter');
  await (await chooser).setFiles(FILE);
}

/** Connects, chooses the file and maps "Shipment title" to name, all by keyboard; ends on the grid. */
async function reviewByKeyboard(page: Page): Promise<Locator> {
  await connectByKeyboard(page);
  await chooseFileByKeyboard(page);
  await tabTo(page, page.getByRole('button', { name: 'Show ignored columns' }));
  await page.keyboard.press('Enter');
  await tabTo(page, page.getByLabel('Import column E (Shipment title) as'));
  await page.keyboard.type('name');
  await expect(page.getByLabel('Import column E (Shipment title) as')).toHaveValue('name');
  await tabTo(page, page.getByRole('button', { name: 'Continue to review' }));
  await page.keyboard.press('Enter');
  const grid = page.getByRole('region', { name: 'Rows to review' });
  await expect(grid).toBeVisible();
  return grid;
}

test.describe('import: keyboard only', () => {
  test('drop, map, review (edit, fix, exclude, undo) and ready, with the keyboard alone', async ({ page, expectAccessible }) => {
    test.slow(); // a long journey of single key presses: over a minute on a busy machine
    await connectByKeyboard(page);

    // Drop: Tab to the zone, Enter opens the file chooser.
    await chooseFileByKeyboard(page);
    await expect(page.getByRole('heading', { name: 'Columns' })).toBeVisible();

    // Map: the unknown "Shipment title" column is listed with the ignored ones and mapped to name by typing.
    await expect(page.getByText('1 unknown column ignored.')).toBeVisible();
    await expect(page.getByLabel(/Import column B \(Type\) as/)).toHaveValue('tracking_type');
    const show = page.getByRole('button', { name: 'Show ignored columns' });
    await tabTo(page, show);
    await page.keyboard.press('Enter');
    await expect(page.getByRole('button', { name: 'Hide ignored columns' })).toHaveAttribute('aria-expanded', 'true');
    const titleColumn = page.getByLabel('Import column E (Shipment title) as');
    await tabTo(page, titleColumn);
    await page.keyboard.type('name');
    await expect(titleColumn).toHaveValue('name');
    await expect(page.getByText('5 of 5 columns imported.', { exact: false })).toBeVisible();
    await expectAccessible(page);
    await screenshot(page, 'keyboard-map');

    await tabTo(page, page.getByRole('button', { name: 'Continue to review' }));
    await page.keyboard.press('Enter');
    const grid = page.getByRole('region', { name: 'Rows to review' });
    await expect(grid).toBeVisible();
    await expect(page.getByText('5 rows:', { exact: true })).toBeVisible();
    await expectAccessible(page);

    // Escape cancels an edit.
    const nameCell = grid.getByRole('button', { name: /^name, line 2: First\./ });
    await arrowTo(page, grid, nameCell);
    await page.keyboard.press('Enter');
    const nameEditor = page.getByLabel('Edit name, line 2');
    await expect(nameEditor).toBeFocused();
    await page.keyboard.type(' changed');
    await page.keyboard.press('Escape');
    await expect(grid.getByRole('button', { name: 'name, line 2: First. Press Enter to edit.', exact: true })).toBeVisible();

    // Edit: the wrong check digit, corrected in place with End, Shift+ArrowLeft and typing.
    const badCell = grid.getByRole('button', { name: /^tracking_number, line 3: HLXU1234560\. Error: .*check digit should be 1/ });
    await arrowTo(page, grid, badCell);
    await page.keyboard.press('Enter');
    const editor = page.getByLabel('Edit tracking_number, line 3');
    await expect(editor).toBeFocused();
    await page.keyboard.press('End');
    await page.keyboard.press('Shift+ArrowLeft');
    await page.keyboard.type('1');
    await expect(editor).toHaveValue('HLXU1234561');
    await page.keyboard.press('Enter');
    await expect(grid.getByRole('button', { name: 'tracking_number, line 3: HLXU1234561. Press Enter to edit.', exact: true })).toBeVisible();

    // Fix: open row 4's issues and accept the suggested tracking type.
    await arrowTo(page, grid, grid.getByRole('button', { name: 'Line 4: show its issues' }));
    await page.keyboard.press('Enter');
    const panel = page.getByRole('region', { name: /^Line 4/ });
    await expect(panel).toContainText('containr');
    await tabTo(page, panel.getByRole('button', { name: 'Use “container”' }));
    await screenshot(page, 'keyboard-review-fix');
    await page.keyboard.press('Enter');
    await expect(grid.getByRole('button', { name: /^tracking_type, line 4: container\. / })).toBeVisible();
    await expect(panel).not.toContainText('containr');

    // Exclude line 5 with Space (back up from the issues panel under the grid), then undo it
    // from the toolbar above the grid with Shift+Tab.
    await arrowTo(page, grid, grid.getByRole('button', { name: 'Exclude line 5' }), { backward: true });
    await page.keyboard.press('Space');
    await expect(grid.getByRole('button', { name: 'Restore line 5' })).toBeVisible();
    await expect(page.getByText(/1 excluded\./)).toBeVisible();
    await screenshot(page, 'keyboard-review-excluded');
    await expect(grid.getByRole('button', { name: 'Restore line 5' })).toBeFocused();
    await tabTo(page, page.getByRole('button', { name: 'Undo' }), { backward: true });
    await page.keyboard.press('Enter');
    await expect(grid.getByRole('button', { name: 'Exclude line 5' })).toBeVisible();
    await expect(page.getByText(/0 excluded\./)).toBeVisible();

    // Ready: every row is fixed, so all five go on.
    await expect(page.getByText(/5 ready, 0 with errors/)).toBeVisible();
    const next = page.getByRole('button', { name: 'Continue with 5 ready rows' });
    await tabTo(page, next);
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: 'Ready to submit' })).toBeVisible();
    await expect(page.getByText('HLXU1234561,container,PO-2,MAEU,Bad check digit')).toBeVisible();
    await expect(page.getByText('TGHU9876542,container,PO-3,MSCU,Misspelt type')).toBeVisible();
    await expectAccessible(page);
    await screenshot(page, 'keyboard-ready');

    // And back, still by keyboard.
    await tabTo(page, page.getByRole('button', { name: 'Back to review' }));
    await page.keyboard.press('Enter');
    await expect(page.getByRole('region', { name: 'Rows to review' })).toBeVisible();
  });

  test('the drop step is accessible', async ({ page, expectAccessible }) => {
    await connectByKeyboard(page);
    await expect(page.getByRole('button', { name: /Choose a spreadsheet to import/ })).toBeVisible();
    await expectAccessible(page);
    await screenshot(page, 'keyboard-drop');
  });

  test('an excluded row stays readable', async ({ page, expectAccessible }) => {
    const grid = await reviewByKeyboard(page);
    await arrowTo(page, grid, grid.getByRole('button', { name: 'Exclude line 5' }));
    await page.keyboard.press('Space');
    await expect(grid.getByRole('button', { name: 'Restore line 5' })).toBeVisible();
    await expectAccessible(page);
  });

  test('after an edit is confirmed with Enter or cancelled with Escape, the focus is back on the cell', async ({ page }) => {
    const grid = await reviewByKeyboard(page);
    await arrowTo(page, grid, grid.getByRole('button', { name: /^reference, line 2: PO-1\./ }));
    await page.keyboard.press('Enter');
    await page.keyboard.type('-A');
    await page.keyboard.press('Enter');
    const edited = grid.getByRole('button', { name: /^reference, line 2: PO-1-A\./ });
    await expect(edited).toBeVisible();
    await expect(edited).toBeFocused();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Escape');
    await expect(edited).toBeFocused();
  });

  test('mapping a column from the keyboard keeps the focus on its select', async ({ page }) => {
    await connectByKeyboard(page);
    await chooseFileByKeyboard(page);
    await tabTo(page, page.getByRole('button', { name: 'Show ignored columns' }));
    await page.keyboard.press('Enter');
    const select = page.getByLabel('Import column E (Shipment title) as');
    await tabTo(page, select);
    await page.keyboard.type('name');
    await expect(select).toHaveValue('name');
    await expect(select).toBeFocused();
  });
});

test('the review grid is one Tab stop; arrow keys, Home and Ctrl+End move through it', async ({ page }) => {
  await connectByKeyboard(page);
  await chooseFileByKeyboard(page);
  await tabTo(page, page.getByRole('button', { name: 'Continue to review' }));
  await page.keyboard.press('Enter');
  const grid = page.getByRole('region', { name: 'Rows to review' });
  await expect(grid.locator('[data-cell][tabindex="0"]')).toHaveCount(1);
  await tabTo(page, grid.getByRole('button', { name: /^tracking_number, line 2:/ }));
  await page.keyboard.press('ArrowDown');
  await expect(grid.getByRole('button', { name: /^tracking_number, line 3:/ })).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect(grid.getByRole('button', { name: /^tracking_type, line 3:/ })).toBeFocused();
  await page.keyboard.press('Control+End');
  await expect(grid.getByRole('button', { name: /^(Exclude|Restore) line 6$/ })).toBeFocused();
  await page.keyboard.press('Home');
  await expect(grid.getByRole('button', { name: 'Line 6: show its issues' })).toBeFocused();
  // Tab leaves the grid at once instead of walking through every cell.
  await page.keyboard.press('Tab');
  expect(await grid.evaluate((el) => el.contains(document.activeElement))).toBe(false);
});
