// Tabs a spec opens itself (beside the fixture's `page`), watched for the same errors the fixture
// fails a test on.
import type { BrowserContext, Page } from '@playwright/test';

/** Uncaught errors and Content-Security-Policy violations seen in a context's tabs. */
export type PageErrors = string[];

/**
 * A new tab of `context` that reports uncaught errors and CSP violations (by the
 * `securitypolicyviolation` event, as fixtures.ts does for its own page) into `errors`.
 */
export async function newTab(context: BrowserContext, errors: PageErrors): Promise<Page> {
  const page = await context.newPage();
  await page.exposeFunction('__reportCspViolation', (text: string) => errors.push(`CSP violation: ${text}`)).catch(() => undefined);
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { __reportCspViolation?: (text: string) => void }).__reportCspViolation;
      report?.(`${event.effectiveDirective} blocked ${event.blockedURI || '(inline)'} at ${event.sourceFile}:${event.lineNumber}`);
    });
  });
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
  return page;
}
