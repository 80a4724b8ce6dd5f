// Which Chromium the end-to-end tests drive: an explicit CHROMIUM_PATH, else Playwright's own
// browser when it is installed (a developer's laptop), else Debian's /usr/bin/chromium (CI and
// machines where `npx playwright install` cannot download).
import { existsSync } from 'node:fs';
import { chromium } from '@playwright/test';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export const NO_BROWSER_MESSAGE =
  'No Chromium found for the end-to-end tests: set CHROMIUM_PATH to a Chromium binary, run `npx playwright install chromium`, or on Debian/Ubuntu `sudo apt-get install -y chromium`.';

export function findChromium(): string | null {
  const explicit = process.env.CHROMIUM_PATH;
  if (explicit) return existsSync(explicit) ? explicit : null;
  try {
    const own = chromium.executablePath();
    if (own && existsSync(own)) return own;
  } catch {
    // Playwright throws when its browsers were never installed.
  }
  for (const candidate of ['/usr/bin/chromium', '/usr/bin/chromium-browser']) {
    if (existsSync(candidate)) return candidate;
  }
  return null;
}
