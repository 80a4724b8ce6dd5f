import { expect, test } from 'vitest';
import { startRestartableServerProcess, startServerProcess } from './server-process';

const DEMO = { authorization: 'Bearer sandbox-demo-key-4173', 'content-type': 'application/json' };
const ROW = { reference: 'TOOLING-RESTART-1', tracking_number: 'MSCU1234566', tracking_type: 'container', carrier_scac: 'MSCU' };

test('a restartable server comes back after a kill on the same address, with the batches it had taken', async () => {
  const server = await startRestartableServerProcess({ entry: 'src/server/main.ts', env: { SANDBOX_ROW_DELAY_MS: '0' } });
  try {
    const accepted = await fetch(`${server.url}/api/v1/shipments/imports`, { method: 'POST', headers: DEMO, body: JSON.stringify([ROW]) });
    expect(accepted.status).toBe(202);
    const { id } = (await accepted.json()) as { id: string };

    await server.kill();
    await expect(fetch(`${server.url}/sandbox.json`)).rejects.toThrow();

    await server.restart();
    const batch = await fetch(`${server.url}/api/v1/shipments/imports/${id}`, { headers: DEMO });
    expect(batch.status).toBe(200);
    expect(((await batch.json()) as { total_requests: number }).total_requests).toBe(1);
  } finally {
    await server.stop();
  }
  await expect(fetch(`${server.url}/sandbox.json`)).rejects.toThrow();
}, 120_000);

test('a server that cannot start fails with what it printed', async () => {
  const started = startServerProcess({ entry: 'src/server/main.ts', env: { SANDBOX_ROW_DELAY_MS: 'soon' } });
  await expect(started).rejects.toThrow(/src\/server\/main\.ts exited \(code 1\) before listening:\n.*SANDBOX_ROW_DELAY_MS/s);
}, 60_000);
