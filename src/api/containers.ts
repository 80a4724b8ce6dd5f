// GET a shipment's containers_uri (DESIGN §3: /api/v1/shipment/{id}/containers).
import { queryOptions } from '@tanstack/react-query';
import { containerListSchema, type Shipment } from '../contract/shipment';
import type { ApiTarget } from './http-client';
import { request } from './http-client';
import { shipmentKeys } from './shipments';

/**
 * The path to ask for a shipment's containers. The key goes wherever the path points, so only a
 * path on the connected service is followed; anything else (another host, a relative oddity) falls
 * back to the documented path built from the id.
 */
export function containersPath(target: ApiTarget, shipment: Pick<Shipment, 'id' | 'tracking'>): string {
  const documented = `/api/v1/shipment/${encodeURIComponent(shipment.id)}/containers`;
  const uri = shipment.tracking.containers_uri;
  if (!uri) return documented;
  if (uri.startsWith('/api/v1/') && !uri.includes('..')) return uri;
  try {
    const base = new URL(target.baseUrl || 'http://same-origin.invalid');
    const url = new URL(uri, base);
    if (url.origin === base.origin && url.pathname.startsWith('/api/v1/') && url.search === '') return url.pathname;
  } catch {
    // Not a URL: use the documented path.
  }
  return documented;
}

export function containersQueryOptions(target: ApiTarget, shipment: Pick<Shipment, 'id' | 'tracking'>) {
  const path = containersPath(target, shipment);
  return queryOptions({
    queryKey: shipmentKeys.containers(target, path),
    queryFn: async ({ signal }) => (await request(target, { path, schema: containerListSchema, signal })).data,
    staleTime: 60_000,
  });
}
