// What the listening server tells the person who started it about its mode: where the API goes
// and which key a browser needs. main.ts prints these lines after the address.
import type { ServerConfig } from './config';
import { sandboxKeys } from './sandbox/sandbox-keys';

export function startupNotes(config: ServerConfig): string[] {
  const notes: string[] = [];
  if (config.upstreamUrl) {
    const upstream = new URL(config.upstreamUrl).origin;
    notes.push(
      config.upstreamApiKey
        ? `Proxy mode: /api/v1 is forwarded to ${upstream} with the key from UPSTREAM_API_KEY; browsers connect without one and hold none.`
        : `Proxy mode: /api/v1 is forwarded to ${upstream}; each browser connects with its own API key.`,
    );
  } else if (config.apiKeys) {
    notes.push(`Sandbox keys from SANDBOX_API_KEYS, workspaces: ${config.apiKeys.map((entry) => entry.workspace).join(', ')}`);
  } else {
    const [demo] = sandboxKeys(config);
    if (demo) notes.push(`Sandbox demo API key: ${demo.key} (workspace "${demo.workspace}")`);
  }
  if (!config.consoleDir) notes.push('dist/ is missing: only the API is served. Run `npm start` to build the console.');
  return notes;
}
