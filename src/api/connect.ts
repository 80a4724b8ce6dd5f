// Checking a connection and the sandbox's one-click details. /sandbox.json and custom_fields
// are sandbox extensions (DESIGN §3): a real service without them still connects.
import { queryOptions } from '@tanstack/react-query';
import { type ConsoleInfo, consoleInfoSchema, customFieldListSchema, sandboxInfoSchema, type SandboxInfo } from '../contract/sandbox';
import { shipmentListSchema } from '../contract/shipment';
import { HttpError } from './api-error';
import { type Connection, saveConnection } from './connection-store';
import type { ApiTarget } from './http-client';
import { request } from './http-client';

/** Resolves when the service accepts the key; throws the typed error otherwise. */
export async function verifyConnection(target: ApiTarget, signal?: AbortSignal): Promise<void> {
  await request(target, { path: '/api/v1/shipments', query: { page_size: 1 }, schema: shipmentListSchema, signal });
}

/** The bundled sandbox's demo key and workspace, or null when this origin is not a sandbox. */
export async function fetchSandboxInfo(signal?: AbortSignal): Promise<SandboxInfo | null> {
  let response: Response;
  try {
    response = await fetch('/sandbox.json', { signal, headers: { Accept: 'application/json' } });
  } catch {
    return null;
  }
  if (!response.ok) return null;
  const parsed = sandboxInfoSchema.safeParse(await response.json().catch(() => null));
  return parsed.success ? parsed.data : null;
}

/**
 * The one-click connection to the bundled sandbox, or null when this origin is not a sandbox.
 * It is remembered on this device (localStorage): the key is the sandbox's demo key, which
 * /sandbox.json hands to anyone who can open the console, and a console closed and reopened
 * must find its jobs running again without a click (src/features/README.md, "Sending and watching").
 */
export async function sandboxConnection(signal?: AbortSignal): Promise<Connection | null> {
  const info = await fetchSandboxInfo(signal);
  if (!info) return null;
  return { baseUrl: '', apiKey: info.api_key, label: 'Local sandbox', workspace: info.workspace.name, sandbox: true, keyHeldByServer: false, remembered: true };
}

/** Checks the connection with the service, then keeps it: every page and the job runner follow. */
export async function connect(connection: Connection, signal?: AbortSignal): Promise<Connection> {
  await verifyConnection(connection, signal);
  saveConnection(connection);
  return connection;
}

/** What this server says about itself: the sandbox, or a proxy that may hold the key; null from any other host. */
export async function fetchConsoleInfo(signal?: AbortSignal): Promise<ConsoleInfo | null> {
  let response: Response;
  try {
    response = await fetch('/console.json', { signal, headers: { Accept: 'application/json' } });
  } catch {
    return null;
  }
  if (!response.ok) return null;
  const parsed = consoleInfoSchema.safeParse(await response.json().catch(() => null));
  return parsed.success ? parsed.data : null;
}

export const consoleInfoQueryOptions = queryOptions({
  queryKey: ['console-info'],
  queryFn: ({ signal }) => fetchConsoleInfo(signal),
  staleTime: Infinity,
});

/** The sandbox's one-click details, asked only of a server that says it is a sandbox (else null). */
export const sandboxInfoQueryOptions = queryOptions({
  queryKey: ['sandbox-info'],
  queryFn: async ({ signal, client }) => ((await client.ensureQueryData(consoleInfoQueryOptions))?.mode === 'sandbox' ? fetchSandboxInfo(signal) : null),
  staleTime: Infinity,
});

export function customFieldsQueryOptions(target: ApiTarget) {
  // The API key stays out of query keys; app.tsx clears the cache when the connection changes.
  // eslint-disable-next-line @tanstack/query/exhaustive-deps
  return queryOptions({
    queryKey: ['custom-fields', target.baseUrl],
    queryFn: async ({ signal }) => {
      try {
        const list = await request(target, { path: '/api/v1/custom_fields', schema: customFieldListSchema, signal });
        return list.data;
      } catch (error) {
        // Not every service has this endpoint; without it cf_ columns are not checked before upload.
        if (error instanceof HttpError && (error.status === 404 || error.status === 405)) return null;
        throw error;
      }
    },
    staleTime: 5 * 60_000,
  });
}
