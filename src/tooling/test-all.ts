// `npm test`: every suite (Vitest unit/component/sandbox, then Playwright end to end) and one
// closing line `N passed, N failed` over all of them, so a run that executed nothing is visible.
// Installs a Chromium first when the machine has none (see browser.ts).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureChromium, NO_BROWSER_MESSAGE } from './browser';

interface Tally {
  passed: number;
  failed: number;
  skipped: number;
}

const reports = mkdtempSync(join(tmpdir(), 'import-console-tests-'));
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

function run(args: string[], env: Record<string, string> = {}): number {
  const result = spawnSync(npx, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  return result.status ?? 1;
}

function readJson(path: string): unknown {
  return existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : null;
}

function unitTally(): Tally & { exit: number } {
  const file = join(reports, 'vitest.json');
  const exit = run(['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${file}`]);
  const report = readJson(file) as { numPassedTests: number; numFailedTests: number; numPendingTests: number; numTodoTests: number } | null;
  if (!report) return { passed: 0, failed: 1, skipped: 0, exit: exit || 1 };
  return { passed: report.numPassedTests, failed: report.numFailedTests, skipped: report.numPendingTests + report.numTodoTests, exit };
}

function e2eTally(): Tally & { exit: number } {
  if (!ensureChromium()) {
    console.error(NO_BROWSER_MESSAGE);
    return { passed: 0, failed: 1, skipped: 0, exit: 1 };
  }
  const file = join(reports, 'playwright.json');
  const exit = run(['playwright', 'test'], { E2E_JSON_REPORT: file });
  const report = readJson(file) as { stats: { expected: number; unexpected: number; flaky: number; skipped: number } } | null;
  if (!report) return { passed: 0, failed: 1, skipped: 0, exit: exit || 1 };
  const { expected, unexpected, flaky, skipped } = report.stats;
  return { passed: expected + flaky, failed: unexpected, skipped, exit };
}

const unit = unitTally();
const e2e = e2eTally();
const passed = unit.passed + e2e.passed;
const failed = unit.failed + e2e.failed;
const skipped = unit.skipped + e2e.skipped;

console.log(`\nunit: ${unit.passed} passed, ${unit.failed} failed · e2e: ${e2e.passed} passed, ${e2e.failed} failed`);
// A suite that exits non-zero with no failed test (a crash, a config error) still fails the run.
const crashed = (unit.exit !== 0 && unit.failed === 0) || (e2e.exit !== 0 && e2e.failed === 0);
const totalFailed = failed + (crashed ? 1 : 0);
console.log(`${passed} passed, ${totalFailed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(totalFailed > 0 || passed === 0 ? 1 : 0);
