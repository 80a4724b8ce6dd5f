// The `test` every spec uses: baseURL from the server global-setup started (or, for a spec that
// tests the browser's own runner, one with CONSOLE_RUNS_JOBS=off), an axe check, and
// screenshots saved under e2e/screenshots for people to look at.
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Page } from '@playwright/test';
import { startServerProcess, type ServerProcess } from '../../src/tooling/server-process';

interface TestFixtures {
  expectAccessible: (page: Page) => Promise<void>;
  pageErrors: string[];
  /**
   * `off`: the spec runs against a server of its own started with CONSOLE_RUNS_JOBS=off, so Send
   * leaves the job to the browser's runner (the runner a browser uses in direct mode). `on` (the
   * default): global-setup's server, which runs the console's jobs itself.
   */
  consoleRunsJobs: 'on' | 'off';
}

interface WorkerFixtures {
  /** The address of this worker's CONSOLE_RUNS_JOBS=off server, started on first use. */
  browserRunnerServer: () => Promise<string>;
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  consoleRunsJobs: ['on', { option: true }],
  browserRunnerServer: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const started: { server: Promise<ServerProcess> | null } = { server: null };
      await use(async () => {
        started.server ??= startServerProcess({ env: { CONSOLE_RUNS_JOBS: 'off', SANDBOX_ROW_DELAY_MS: process.env.SANDBOX_ROW_DELAY_MS ?? '20' } });
        return (await started.server).url;
      });
      if (started.server) await (await started.server).stop();
    },
    { scope: 'worker', timeout: 180_000 },
  ],
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
  baseURL: async ({ consoleRunsJobs, browserRunnerServer }, use) => {
    if (consoleRunsJobs === 'off') return use(await browserRunnerServer());
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
