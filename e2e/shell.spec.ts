import { expect, screenshot, test } from './support/fixtures';
import { connectToSandbox } from './support/journey';

test.describe('app shell', () => {
  test('each page of the shell opens from the navigation and tells a newcomer what to do', async ({ page, expectAccessible }) => {
    await page.goto('/');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(page.getByRole('heading', { level: 1, name: 'Import shipments' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Not connected' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Connect before you import' })).toBeVisible();
    await expectAccessible(page);
    await screenshot(page, 'shell-import');

    await nav.getByRole('link', { name: 'History' }).click();
    await expect(page).toHaveURL(/\/history$/);
    await expect(page.getByRole('heading', { level: 1, name: 'History' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'No import jobs yet' })).toBeVisible();
    await expectAccessible(page);
    await screenshot(page, 'shell-history');

    await nav.getByRole('link', { name: 'Shipments' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Shipments' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Connect to see shipments' })).toBeVisible();
    await screenshot(page, 'shell-shipments');

    await nav.getByRole('link', { name: 'Connect' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Connect' })).toBeVisible();
    await expect(page.getByLabel('API key', { exact: true })).toBeVisible();
    await expectAccessible(page);
    await screenshot(page, 'shell-connect');
  });

  test('the header says so in words when the service stops answering, and again when it answers', async ({ page, expectAccessible }) => {
    // The HTTP module retries a lost answer six times with backoff (up to ~16 s) before it gives up.
    test.setTimeout(90_000);
    await connectToSandbox(page);
    const header = page.getByRole('banner');
    const connection = header.getByRole('status');
    await expect(connection).toHaveText(/Local sandbox · demo.*connected/);
    await expect(connection).not.toContainText('unreachable');
    const dotColour = () => connection.locator('span[aria-hidden="true"]').first().evaluate((dot) => getComputedStyle(dot).backgroundColor);
    const answeringColour = await dotColour();

    // The sandbox stops: every request to its API is refused, as by a server that is not running.
    await page.route('**/api/v1/**', (route) => route.abort('connectionrefused'));
    await header.getByRole('link', { name: 'Shipments' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Could not load shipments' })).toBeVisible({ timeout: 40_000 });
    await expect(connection).toHaveText(/Local sandbox · demo · unreachable.*Local sandbox, workspace demo: unreachable, the last request got no answer/);
    expect(await dotColour(), 'the dot is no longer the answering colour').not.toBe(answeringColour);
    await expect(connection).toHaveAttribute('title', /^No answer from the service/);
    await expectAccessible(page);
    await screenshot(page, 'shell-unreachable');

    // It is back: the next request is answered, and the header says connected again.
    await page.unroute('**/api/v1/**');
    await page.getByRole('button', { name: 'Retry' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Could not load shipments' })).toBeHidden({ timeout: 20_000 });
    await expect(connection).not.toContainText('unreachable');
    await expect(connection).toContainText('Local sandbox, workspace demo: connected');
    expect(await dotColour()).toBe(answeringColour);
  });

  test('a bookmarked deep link loads the page, and an unknown one says so', async ({ page }) => {
    await page.goto('/shipments?batch_id=5b0b2c4e-0000-4000-8000-000000000000');
    await expect(page.getByRole('heading', { level: 1, name: 'Shipments' })).toBeVisible();
    await page.goto('/no-such-page');
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  });

  test('the console is served with a Content-Security-Policy', async ({ request }) => {
    const response = await request.get('/');
    expect(response.status()).toBe(200);
    expect(response.headers()['content-security-policy']).toContain("script-src 'self'");
  });
});
