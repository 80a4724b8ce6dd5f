// Entry that listens: `npm run serve` (or `npm start`, which builds first). Serves the console
// from dist/ and the sandbox API on HOST:PORT, 127.0.0.1:4173 by default.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { faultsOfMessage, isFaultReportAsked } from './sandbox/faults';
import { startupNotes } from './startup-notes';

const consoleDir = fileURLToPath(new URL('../../dist', import.meta.url));

try {
  const config = loadConfig(process.env, existsSync(consoleDir) ? consoleDir : null);
  const app = await buildApp(config);
  const address = await app.listen({ host: config.host, port: config.port });
  // Printed for people and for the e2e harness, which reads the address from this line.
  console.log(`Shipment import console on ${address}`);
  for (const note of startupNotes(config)) console.log(note);
  // A harness that started this server with an IPC channel switches SANDBOX_FAULTS while it runs,
  // and asks which requests met a fault.
  const faults = app.sandboxFaults;
  if (process.send && faults) {
    process.on('message', (message) => {
      const asked = faultsOfMessage(message);
      if (asked) faults.set(asked.shares, asked.random);
      if (isFaultReportAsked(message)) process.send?.({ sandboxFaultsInjected: faults.injected });
    });
  }
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      void app.close().then(() => process.exit(0));
    });
  }
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
}
