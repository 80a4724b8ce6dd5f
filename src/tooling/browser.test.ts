import { describe, expect, it } from 'vitest';
import { ensureChromium, isDebianLike, type SetupHost } from './browser';

const DEBIAN = 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nID=debian\n';
const MINT = 'NAME="Linux Mint"\nID=linuxmint\nID_LIKE="ubuntu debian"\n';
const FEDORA = 'NAME="Fedora Linux"\nID=fedora\n';

/** A machine with no browser until one of the named install commands succeeds. */
function host(options: { osRelease: string; isRoot: boolean; works: string[] }): SetupHost & { ran: string[] } {
  let installed: string | null = null;
  const ran: string[] = [];
  return {
    ran,
    osRelease: options.osRelease,
    isRoot: options.isRoot,
    log: () => {},
    find: () => installed,
    run: (command, args) => {
      const line = [command, ...args].join(' ');
      ran.push(line);
      if (!options.works.some((works) => line.startsWith(works))) return 1;
      if (line.includes('playwright install')) installed = '/root/.cache/ms-playwright/chromium/chrome';
      if (line.includes('apt-get install')) installed = '/usr/bin/chromium';
      return 0;
    },
  };
}

describe('npm test sets up its own browser', () => {
  it("installs Playwright's Chromium where it can be downloaded, and nothing else", () => {
    const machine = host({ osRelease: DEBIAN, isRoot: true, works: ['npx playwright install'] });
    expect(ensureChromium(machine)).toBe('/root/.cache/ms-playwright/chromium/chrome');
    expect(machine.ran).toEqual(['npx playwright install chromium']);
  });

  it("falls back to Debian's chromium package as root on Debian when the download fails", () => {
    const machine = host({ osRelease: DEBIAN, isRoot: true, works: ['apt-get'] });
    expect(ensureChromium(machine)).toBe('/usr/bin/chromium');
    expect(machine.ran).toEqual(['npx playwright install chromium', 'apt-get update -qq', 'apt-get install -y -qq chromium']);
  });

  it('does not use apt-get without root, or off Debian and Ubuntu', () => {
    const user = host({ osRelease: DEBIAN, isRoot: false, works: ['apt-get'] });
    expect(ensureChromium(user)).toBeNull();
    const fedora = host({ osRelease: FEDORA, isRoot: true, works: ['apt-get'] });
    expect(ensureChromium(fedora)).toBeNull();
    expect([...user.ran, ...fedora.ran].filter((line) => line.startsWith('apt-get'))).toEqual([]);
  });

  it('installs nothing when a browser is already there', () => {
    const machine = host({ osRelease: DEBIAN, isRoot: true, works: [] });
    machine.find = () => '/usr/bin/chromium';
    expect(ensureChromium(machine)).toBe('/usr/bin/chromium');
    expect(machine.ran).toEqual([]);
  });

  it('knows Debian derivatives by ID_LIKE', () => {
    expect(isDebianLike(DEBIAN)).toBe(true);
    expect(isDebianLike(MINT)).toBe(true);
    expect(isDebianLike(FEDORA)).toBe(false);
  });
});
