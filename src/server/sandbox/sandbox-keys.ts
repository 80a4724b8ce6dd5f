// API keys of the sandbox: SANDBOX_API_KEYS, or one demo key that main.ts prints at start and
// /sandbox.json hands to the console's one-click connect. It is public on purpose: the sandbox
// binds loopback and holds made-up data only.
import type { ServerConfig } from '../config';

export const DEMO_API_KEY = 'sandbox-demo-key-4173';
const DEMO_WORKSPACE = 'demo';

export interface SandboxKey {
  key: string;
  workspace: string;
}

export function sandboxKeys(config: Pick<ServerConfig, 'apiKeys'>): SandboxKey[] {
  return config.apiKeys ?? [{ key: DEMO_API_KEY, workspace: DEMO_WORKSPACE }];
}
