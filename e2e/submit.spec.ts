import { createHash } from 'node:crypto';
import { expect, screenshot, test } from './support/fixtures';
import { shipmentsCsv } from './support/files';
import { connectToSandbox, continueToReady, continueToReview, dropAndSend, dropFile, jobBatchIds, send } from './support/journey';
import { storedJobSource } from './support/stored-job';
import { sandboxBatch, shipmentsOfBatch } from './support/sandbox-api';

test.describe('submit and watch', () => {
  test.describe.configure({ timeout: 120_000 });
  test('sends 60 rows, watches them finish, and the counts match the sandbox', async ({ page, request, baseURL, expectAccessible }) => {
    await connectToSandbox(page);
    const text = shipmentsCsv(60, { prefix: 'CLEAN' });
    const file = Buffer.from(text);
    await dropFile(page, 'clean.csv', text);
    await continueToReview(page, 60);
    await continueToReady(page, 60);
    await expect(page.getByText(/1 upload of up to 5,000 rows/)).toBeVisible();
    await screenshot(page, 'submit-ready-cost');
    await expectAccessible(page);
    await send(page, 60);
    await expect(page.getByRole('heading', { name: 'clean.csv' })).toBeVisible();
    await screenshot(page, 'submit-job-running');

    // The job keeps the file's facts: its size at once, its SHA-256 once the import worker has it.
    const sha256 = createHash('sha256').update(file).digest('hex');
    await expect.poll(() => storedJobSource(page)).toEqual({ kind: 'file', fileName: 'clean.csv', size: file.length, contentHash: sha256 });

    await expect(page.getByText(/^✓\s*Finished$/)).toBeVisible({ timeout: 45_000 });
    await expect(page).toHaveTitle(/^100% · clean\.csv/);
    const created = page.getByRole('definition').filter({ hasText: /^\d+$/ }).first();
    await expect(created).toHaveText('60');
    await expect(page.getByText(/Holds:\s*rows read 60 = sent 60 \+ skipped 0/)).toBeVisible();
    await expect(page.getByText(/Holds:\s*rows sent 60 = Σ total_requests of the 1 batches 60/)).toBeVisible();
    await expect(page.getByText(/Holds:\s*every sent row is in exactly one result item/)).toBeVisible();
    await screenshot(page, 'submit-job-finished');
    await expectAccessible(page);

    const [batchId] = await jobBatchIds(page);
    expect(await shipmentsOfBatch(request, baseURL!, batchId!)).toBe(60);
    const batch = await sandboxBatch(request, baseURL!, batchId!);
    expect(batch.total_requests).toBe(60);
    expect(batch.results.filter((r) => r.creation_status === 'created')).toHaveLength(60);
  });

  test('a reload while polling resumes where it stopped, nothing sent twice', async ({ page, request, baseURL }) => {
    await connectToSandbox(page);
    const jobId = await dropAndSend(page, 'reload.csv', shipmentsCsv(120, { prefix: 'RELOAD' }), 120);
    await expect(page.getByText('Requests accepted: 1 of 1')).toBeVisible();
    await page.reload();
    await expect(page.getByText(/^✓\s*Finished$/)).toBeVisible({ timeout: 45_000 });
    expect(page.url()).toContain(jobId);
    const ids = await jobBatchIds(page);
    expect(ids).toHaveLength(1);
    expect(await shipmentsOfBatch(request, baseURL!, ids[0]!)).toBe(120);
  });
});
