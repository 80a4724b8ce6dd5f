// Remembered mappings: in this browser (localStorage, per connection's base URL, never its key)
// and, where the console is served by its own server, for the whole workspace there
// (/console/api/mappings, src/server/console/). Not the service's endpoints, so the service's
// rate-limit budget does not pace them. Records are checked with the contract's schema on the
// way in from either place; a record that does not pass is left out.
import { queryOptions } from '@tanstack/react-query';
import { rememberedMappingListSchema, rememberedMappingSchema, type RememberedMapping } from '../contract/remembered-mapping';
import { request, requestBody, type ApiTarget } from './http-client';
import { hasTeamHistory } from './team-history';

const STORAGE_PREFIX = 'import-console.mappings:';
/** Mappings one browser keeps per connection at most; the oldest go first. */
const LOCAL_LIMIT = 100;

const storageKey = (target: ApiTarget) => `${STORAGE_PREFIX}${target.baseUrl}`;

function readLocal(target: ApiTarget): Record<string, RememberedMapping> {
  if (typeof localStorage === 'undefined') return {};
  let stored: unknown;
  try {
    stored = JSON.parse(localStorage.getItem(storageKey(target)) ?? '{}');
  } catch {
    return {};
  }
  const kept: Record<string, RememberedMapping> = {};
  if (typeof stored !== 'object' || stored === null) return kept;
  for (const value of Object.values(stored)) {
    const parsed = rememberedMappingSchema.safeParse(value);
    if (parsed.success) kept[parsed.data.fingerprint] = parsed.data;
  }
  return kept;
}

function writeLocal(target: ApiTarget, mappings: Record<string, RememberedMapping>): void {
  const newest = Object.values(mappings).sort((a, b) => b.savedAt - a.savedAt).slice(0, LOCAL_LIMIT);
  try {
    localStorage.setItem(storageKey(target), JSON.stringify(Object.fromEntries(newest.map((m) => [m.fingerprint, m]))));
  } catch {
    // A full or refused storage only costs this browser its memory; the server's copy stays.
  }
}

/** This browser's remembered mappings for the connection. */
export function localMappings(target: ApiTarget): RememberedMapping[] {
  return Object.values(readLocal(target));
}

export const mappingKeys = {
  all: (target: ApiTarget) => ['remembered-mappings', target.baseUrl] as const,
};

/** The workspace's remembered mappings on the console's server (enabled only where there is one). */
export const workspaceMappingsQuery = (target: ApiTarget) =>
  queryOptions({
    queryKey: mappingKeys.all(target),
    queryFn: ({ signal }) => request(target, { path: '/console/api/mappings', schema: rememberedMappingListSchema, bucket: null, signal }),
    select: (list) => list.data,
    enabled: hasTeamHistory(target),
  });

const mappingPath = (fingerprint: string) => `/console/api/mappings/${encodeURIComponent(fingerprint)}`;

/**
 * Remembers a mapping in this browser at once, and for the workspace where the console's server
 * is there; resolves once both are written (the server's failure is the promise's).
 */
export async function rememberMapping(target: ApiTarget, mapping: RememberedMapping): Promise<void> {
  writeLocal(target, { ...readLocal(target), [mapping.fingerprint]: mapping });
  if (!hasTeamHistory(target)) return;
  await request(target, { method: 'PUT', path: mappingPath(mapping.fingerprint), json: mapping, schema: rememberedMappingSchema, bucket: null, retry: 'safe' });
}

/** Forgets a mapping in this browser and for the workspace. */
export async function forgetMapping(target: ApiTarget, fingerprint: string): Promise<void> {
  const { [fingerprint]: _forgotten, ...rest } = readLocal(target);
  writeLocal(target, rest);
  if (!hasTeamHistory(target)) return;
  await requestBody(target, { method: 'DELETE', path: mappingPath(fingerprint), bucket: null, retry: 'safe' });
}
