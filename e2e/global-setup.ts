// Starts `npm start`'s server (building the console when needed) on a free port with a throwaway
// sandbox store, and hands its address to the tests through E2E_BASE_URL.
import { startServerProcess } from '../src/tooling/server-process';

export default async function globalSetup(): Promise<() => Promise<void>> {
  if (process.env.E2E_BASE_URL) return async () => {};
  const server = await startServerProcess({
    env: { SANDBOX_ROW_DELAY_MS: process.env.SANDBOX_ROW_DELAY_MS ?? '20' },
    echoStderr: true,
  });
  process.env.E2E_BASE_URL = server.url;
  return () => server.stop();
}
