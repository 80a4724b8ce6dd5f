import { describe, expect, test } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('loadConfig', () => {
  test('defaults follow DESIGN §3, with faults off, the demo key, and jobs run by this server (sandbox and proxy alike)', () => {
    expect(loadConfig({})).toMatchObject({
      port: 4173,
      host: '127.0.0.1',
      dbPath: '.data/sandbox.sqlite',
      apiKeys: null,
      rowDelayMs: 250,
      importLimit: 20,
      importWindowS: 60,
      patchLimit: 100,
      hourlyLimit: 1500,
      dailyLimit: 10000,
      maxFileBytes: 10_485_760,
      maxBatchRows: 5000,
      slowTrackingMs: 30_000,
      faults: null,
      faultSlowMs: 5000,
      upstreamUrl: null,
      consoleRunsJobs: true,
    });
    expect(loadConfig({ CONSOLE_RUNS_JOBS: 'off' }).consoleRunsJobs).toBe(false);
    expect(loadConfig({ UPSTREAM_URL: 'https://tracking.example.com', CONSOLE_RUNS_JOBS: 'off' }).consoleRunsJobs).toBe(false);
    expect(loadConfig({ UPSTREAM_URL: 'https://tracking.example.com' }).consoleRunsJobs).toBe(true);
  });

  test('reads keys, faults and the sandbox timings', () => {
    const config = loadConfig({
      SANDBOX_API_KEYS: 'a-key-of-sixteen-chars:team-a',
      SANDBOX_FAULTS: '500:0.1,drop:0.05',
      SANDBOX_SLOW_TRACKING_MS: '500',
      SANDBOX_FAULT_SLOW_MS: '20',
    });
    expect(config).toMatchObject({
      apiKeys: [{ key: 'a-key-of-sixteen-chars', workspace: 'team-a' }],
      faults: { '500': 0.1, drop: 0.05 },
      slowTrackingMs: 500,
      faultSlowMs: 20,
    });
  });

  test('refuses bad values with a message naming the variable', () => {
    expect(() => loadConfig({ SANDBOX_FAULTS: 'boom:2' })).toThrow(ConfigError);
    expect(() => loadConfig({ SANDBOX_SLOW_TRACKING_MS: '-1' })).toThrow(/SANDBOX_SLOW_TRACKING_MS/);
    expect(() => loadConfig({ CONSOLE_RUNS_JOBS: 'yes please' })).toThrow(/CONSOLE_RUNS_JOBS/);
  });
});
