// Servers a spec starts beside global-setup's: a sandbox with settings of its own (limits, caps,
// faults) and a proxy that holds the key, both src/tooling's server process. The fault matrix's
// restartable sandbox is src/tooling's startRestartableServerProcess as it is.
import { startServerProcess, type ServerProcess } from '../../src/tooling/server-process';

/** A sandbox of its own with these settings (rows processed 5 ms apart unless they say), on a free port, with a throwaway store. */
export function startSandbox(env: Record<string, string>): Promise<ServerProcess> {
  return startServerProcess({ env: { SANDBOX_ROW_DELAY_MS: '5', ...env } });
}

/** The console's server in proxy mode in front of `upstream`, holding `apiKey` itself (UPSTREAM_API_KEY). */
export function startKeyHoldingProxy(upstream: string, apiKey: string): Promise<ServerProcess> {
  return startServerProcess({ env: { UPSTREAM_URL: upstream, UPSTREAM_API_KEY: apiKey } });
}
