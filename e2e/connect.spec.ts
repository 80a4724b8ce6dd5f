// The key the browser never holds (issue #13 item 5): a second server in proxy mode, pointed at
// the sandbox of global-setup with UPSTREAM_API_KEY = the demo key. The page connects in one
// click, reads shipments through it, and neither stores nor sends a key.
import { expect, screenshot, test } from './support/fixtures';
import { startKeyHoldingProxy } from './support/servers';

let proxy: Awaited<ReturnType<typeof startKeyHoldingProxy>> | undefined;
let proxyUrl = '';
let demoKey = '';

test.beforeAll(async ({ request }) => {
  const sandboxUrl = process.env.E2E_BASE_URL ?? '';
  demoKey = ((await (await request.get(`${sandboxUrl}/sandbox.json`)).json()) as { api_key: string }).api_key;
  proxy = await startKeyHoldingProxy(sandboxUrl, demoKey);
  proxyUrl = proxy.url;
});

test.afterAll(async () => {
  await proxy?.stop();
});

test('with UPSTREAM_API_KEY the server holds the key: one-click connect, shipments read, no key in the browser', async ({ page, request, expectAccessible }) => {
  const sandboxUrl = process.env.E2E_BASE_URL ?? '';
  const created = await request.post(`${sandboxUrl}/api/v1/shipments/imports`, {
    headers: { Authorization: `Bearer ${demoKey}` },
    data: [{ reference: 'E2E-HELD-KEY-1', tracking_number: 'MSCU1234566', tracking_type: 'container', carrier_scac: 'MSCU', name: 'Held key' }],
  });
  expect(created.status()).toBe(202);

  const apiHeaders: (string | undefined)[] = [];
  page.on('request', (sent) => {
    if (new URL(sent.url()).pathname.startsWith('/api/v1/')) apiHeaders.push(sent.headers().authorization);
  });

  await page.goto(`${proxyUrl}/connect`);
  await expect(page.getByRole('heading', { name: 'The server holds the key' })).toBeVisible();
  // The proxy serves no sandbox, and the key form stays for a single user's own key.
  await expect(page.getByRole('button', { name: 'Use local sandbox' })).toHaveCount(0);
  await expectAccessible(page);
  await screenshot(page, 'connect-server-holds-key');
  await page.getByRole('button', { name: 'Connect through this server' }).click();
  await expect(page).toHaveURL(`${proxyUrl}/`);

  await page.goto(`${proxyUrl}/shipments`);
  await expect(page.getByRole('table', { name: 'Shipments' })).toContainText('E2E-HELD-KEY-1');

  expect(apiHeaders.length).toBeGreaterThan(0);
  expect(apiHeaders.filter((header) => header !== undefined)).toEqual([]);
  const stored = await page.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage }));
  expect(stored).not.toContain(demoKey);
  const connection = await page.evaluate(() => sessionStorage.getItem('import-console.connection'));
  expect(JSON.parse(connection ?? '{}')).toMatchObject({ apiKey: '', keyHeldByServer: true });

  await page.goto(`${proxyUrl}/connect`);
  await expect(page.getByText('The server holds the API key; this browser keeps none.')).toBeVisible();
});
