// Sending through injected faults (SANDBOX_FAULTS: 500s, 429s, slow and dropped responses): a
// lost answer is offered to the user (Resend or Skip), never resent silently, and the accounting
// invariant holds at the end whatever the faults hit.
import { expect, screenshot, test } from './support/fixtures';
import { shipmentsCsv } from './support/files';
import { connectToSandbox, dropAndSend, jobFinishedBadge } from './support/journey';
import { startSandbox } from './support/servers';

let sandbox: Awaited<ReturnType<typeof startSandbox>>;

test.beforeAll(async () => {
  sandbox = await startSandbox({ SANDBOX_FAULTS: '500:0.15,429:0.15,slow:0.1,drop:0.15', SANDBOX_MAX_BATCH_ROWS: '10' });
});
test.afterAll(async () => {
  await sandbox.stop();
});

test('500, 429, slow and drop: every unknown chunk is offered, and the invariant holds', async ({ page }) => {
  test.setTimeout(240_000);
  await connectToSandbox(page, sandbox.url);
  await dropAndSend(page, 'faults.csv', shipmentsCsv(80, { prefix: 'FAULT', owner: 'CAI' }), 80);
  const finished = jobFinishedBadge(page);
  let offered = 0;
  const deadline = Date.now() + 200_000;
  while (!(await finished.isVisible()) && Date.now() < deadline) {
    const resend = page.getByRole('button', { name: /^Resend rows/ }).first();
    if (await resend.isVisible()) {
      offered++;
      if (offered === 1) await screenshot(page, 'submit-unknown-offered');
      // Resend the first lost chunk, skip the later ones: both answers are exercised.
      // Bounded: a button that leaves the page just after isVisible would hold an unbounded click.
      if (offered === 1) await resend.click({ timeout: 2_000 }).catch(() => offered--);
      else await page.getByRole('button', { name: /^Skip rows/ }).first().click({ timeout: 2_000 }).catch(() => offered--);
    }
    await page.waitForTimeout(500);
  }
  await expect(finished).toBeVisible();
  test.info().annotations.push({ type: 'unknown chunks offered', description: String(offered) });
  await expect(page.getByText(/Holds:\s*rows read 80 = sent \d+ \+ skipped \d+/)).toBeVisible();
  await expect(page.getByText(/Holds:\s*rows sent \d+ = Σ total_requests/)).toBeVisible();
  await expect(page.getByText(/Holds:\s*every sent row is in exactly one result item/)).toBeVisible();
  await expect(page.getByText(/Does not hold/)).toHaveCount(0);
  await screenshot(page, 'submit-faults-finished');
});
