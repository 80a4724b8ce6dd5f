// Entry that listens: `npm run serve` (or `npm start`, which builds first). Serves the console
// from dist/ and the sandbox API on HOST:PORT, 127.0.0.1:4173 by default.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { sandboxKeys } from './sandbox-keys';

const consoleDir = fileURLToPath(new URL('../../dist', import.meta.url));

try {
  const config = loadConfig(process.env, existsSync(consoleDir) ? consoleDir : null);
  const app = await buildApp(config);
  const address = await app.listen({ host: config.host, port: config.port });
  // Printed for people and for the e2e harness, which reads the address from this line.
  console.log(`Shipment import console on ${address}`);
  if (config.upstreamUrl) {
    console.log(`Proxy mode: /api/v1 is forwarded to ${new URL(config.upstreamUrl).origin}; use your own API key.`);
  } else if (config.apiKeys) {
    console.log(`Sandbox keys from SANDBOX_API_KEYS, workspaces: ${config.apiKeys.map((entry) => entry.workspace).join(', ')}`);
  } else {
    const [demo] = sandboxKeys(config);
    if (demo) console.log(`Sandbox demo API key: ${demo.key} (workspace "${demo.workspace}")`);
  }
  if (!config.consoleDir) console.log('dist/ is missing: only the API is served. Run `npm start` to build the console.');
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      void app.close().then(() => process.exit(0));
    });
  }
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
}
