// Checking a connection and the sandbox's one-click details. /sandbox.json and custom_fields
// are sandbox extensions (DESIGN §3): a real service without them still connects.
import { queryOptions } from '@tanstack/react-query';
import { type ConsoleInfo, consoleInfoSchema, customFieldListSchema, sandboxInfoSchema, type SandboxInfo } from '../contract/sandbox';
import { shipmentListSchema } from '../contract/shipment';
import { HttpError } from './api-error';
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

/** What this server says about itself in proxy mode (it may hold the key), or null. */
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

export const sandboxInfoQueryOptions = queryOptions({
  queryKey: ['sandbox-info'],
  queryFn: ({ signal }) => fetchSandboxInfo(signal),
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
