// The checks a job ends with: the accounting invariant as the job page states it, and the
// sandbox's own count — every row arrived, none twice unless the user chose to resend it.
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { listShipments } from './sandbox-api';
import type { Resent } from './watch';

/** The job page's three "Holds" lines, and no "Does not hold". */
export async function expectInvariant(page: Page, rows: number): Promise<void> {
  await expect(page.getByText(new RegExp(`Holds:\\s*rows read ${rows} = sent \\d+ \\+ skipped \\d+`))).toBeVisible();
  await expect(page.getByText(/Holds:\s*rows sent \d+ = Σ total_requests/)).toBeVisible();
  await expect(page.getByText(/Holds:\s*every sent row is in exactly one result item/)).toBeVisible();
  await expect(page.getByText(/Does not hold/)).toHaveCount(0);
}

/** A figure of the job page's summary (`<dt>label</dt><dd>1,234</dd>`), as a number. */
async function figure(page: Page, label: string): Promise<number> {
  const text = await page.locator('dt', { hasText: new RegExp(`^${label}$`) }).locator('xpath=following-sibling::dd[1]').textContent();
  return Number((text ?? '').replace(/,/g, ''));
}

/**
 * The sandbox's own view: the job's batches created or updated exactly the shipments the page
 * counts as created + updated; among the newest shipments every row of the file but the refused
 * one appears, and none twice (by reference, and by name for rows without one) except rows
 * without a reference in a range the user chose to resend. Returns the rows the sandbox holds.
 */
export async function expectNoRowTwice(
  request: APIRequestContext,
  url: string,
  { prefix, rows, batchIds, resent, page }: { prefix: string; rows: number; batchIds: string[]; resent: Resent[]; page: Page },
): Promise<number> {
  let byBatches = 0;
  for (const batchId of batchIds) byBatches += (await listShipments(request, url, `batch_id=${batchId}&page_size=1`)).total;
  expect(byBatches, 'shipments the job’s batches hold = created + updated on the job page').toBe((await figure(page, 'Created')) + (await figure(page, 'Updated')));
  const newest = [...(await listShipments(request, url, 'page_size=100&page=1')).data, ...(await listShipments(request, url, 'page_size=100&page=2')).data];
  const names = new Map<string, number>();
  const references = new Map<string, number>();
  for (const shipment of newest) {
    if (!shipment.name?.startsWith(`${prefix} row `)) continue;
    names.set(shipment.name, (names.get(shipment.name) ?? 0) + 1);
    if (shipment.reference) references.set(shipment.reference, (references.get(shipment.reference) ?? 0) + 1);
  }
  const twice: string[] = [...references].filter(([, count]) => count > 1).map(([reference, count]) => `reference ${reference} ×${count}`);
  for (const [name, count] of names) {
    if (count === 1) continue;
    const i = Number(name.slice(`${prefix} row `.length));
    // Each Resend of a range may create its rows without a reference once more: the user's choice.
    // Ranges are the file's line numbers: data row i is line i + 1 (the header is line 1).
    const resends = i % 5 === 0 ? resent.filter((r) => i + 1 >= r.firstRow && i + 1 <= r.lastRow).length : 0;
    if (count > 1 + resends) twice.push(`${name} ×${count} (resent ${resends}×)`);
  }
  expect(twice, 'rows the sandbox holds more than once without the user resending them').toEqual([]);
  // Nothing lost: every row but the one the service refuses is in the sandbox.
  expect(names.size, 'rows of the file the sandbox holds').toBe(rows - 1);
  return names.size;
}
