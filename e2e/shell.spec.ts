import { expect, screenshot, test } from './fixtures';

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
