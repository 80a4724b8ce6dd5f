// Which Chromium the end-to-end tests and benches drive, and `npm test`'s one-time setup of one.
// Found in order: an explicit CHROMIUM_PATH, Playwright's own browser when it is installed (a
// developer's laptop), else Debian's /usr/bin/chromium (CI, and machines where Playwright's
// download host cannot be reached).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
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
  'No Chromium found for the end-to-end tests, and none could be installed: set CHROMIUM_PATH to a Chromium binary, run `npx playwright install chromium`, or on Debian/Ubuntu `sudo apt-get install -y chromium`.';

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

type Run = (command: string, args: string[], env?: Record<string, string>) => number;

const runInherited: Run = (command, args, env = {}) =>
  spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } }).status ?? 1;

/** Debian, Ubuntu and their derivatives, by /etc/os-release's ID and ID_LIKE. */
export function isDebianLike(osRelease: string): boolean {
  const ids = [...osRelease.matchAll(/^(?:ID|ID_LIKE)=("?)([^"\n]*)\1$/gm)].flatMap((match) => (match[2] ?? '').split(/\s+/));
  return ids.some((id) => id === 'debian' || id === 'ubuntu');
}

export interface SetupHost {
  find: () => string | null;
  run: Run;
  isRoot: boolean;
  osRelease: string;
  log: (line: string) => void;
}

const realHost = (): SetupHost => ({
  find: findChromium,
  run: runInherited,
  isRoot: process.getuid?.() === 0,
  osRelease: existsSync('/etc/os-release') ? readFileSync('/etc/os-release', 'utf8') : '',
  log: (line) => console.log(line),
});

/**
 * A Chromium for the end-to-end suite, installed once when none is found: Playwright's own where its
 * download host answers, else Debian's `chromium` package when running as root on Debian or Ubuntu.
 * Null (with NO_BROWSER_MESSAGE to print) when neither way works; an explicit CHROMIUM_PATH that
 * does not exist is never replaced by another browser.
 */
export function ensureChromium(host: SetupHost = realHost()): string | null {
  const found = host.find();
  if (found || process.env.CHROMIUM_PATH) return found;
  host.log('No Chromium found for the end-to-end tests: installing one (once)…');
  if (host.run('npx', ['playwright', 'install', 'chromium']) === 0) {
    const own = host.find();
    if (own) return own;
  }
  if (host.isRoot && isDebianLike(host.osRelease)) {
    host.log("Playwright's browser could not be downloaded: installing Debian's chromium package…");
    const apt = { DEBIAN_FRONTEND: 'noninteractive' };
    if (host.run('apt-get', ['update', '-qq'], apt) === 0 && host.run('apt-get', ['install', '-y', '-qq', 'chromium'], apt) === 0) {
      return host.find();
    }
  }
  return null;
}
