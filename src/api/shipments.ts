// GET /api/v1/shipments: one page of the list, its pagination read as far as the service tells
// it (src/contract/pagination.ts), and the key factory every shipment query and mutation uses.
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { readPageInfo, type PageInfo } from '../contract/pagination';
import { shipmentListSchema, type Shipment } from '../contract/shipment';
import type { ApiTarget, HttpDeps } from './http-client';
import { request } from './http-client';

export interface ShipmentListParams {
  batchId?: string;
  page: number;
  pageSize: number;
}

export interface ShipmentPage {
  shipments: Shipment[];
  pageInfo: PageInfo;
}

/**
 * Keys of shipment queries, scoped to the connection by its base URL only: the API key is never
 * part of a key (app.tsx clears the cache when the connection changes instead).
 */
export const shipmentKeys = {
  all: (target: ApiTarget) => ['shipments', target.baseUrl] as const,
  lists: (target: ApiTarget) => [...shipmentKeys.all(target), 'list'] as const,
  list: (target: ApiTarget, params: ShipmentListParams) => [...shipmentKeys.lists(target), params] as const,
  /** By the containers path, which names the shipment. */
  containers: (target: ApiTarget, path: string) => [...shipmentKeys.all(target), 'containers', path] as const,
};

export async function fetchShipmentPage(target: ApiTarget, params: ShipmentListParams, signal?: AbortSignal, deps?: HttpDeps): Promise<ShipmentPage> {
  const list = await request(
    target,
    {
      path: '/api/v1/shipments',
      query: { batch_id: params.batchId, page: params.page, page_size: params.pageSize },
      schema: shipmentListSchema,
      signal,
    },
    deps,
  );
  return {
    shipments: list.data,
    pageInfo: readPageInfo(list.pagination, { page: params.page, pageSize: params.pageSize, rows: list.data.length }),
  };
}

export function shipmentsQueryOptions(target: ApiTarget, params: ShipmentListParams) {
  return queryOptions({
    queryKey: shipmentKeys.list(target, params),
    queryFn: ({ signal }) => fetchShipmentPage(target, params, signal),
    placeholderData: keepPreviousData,
  });
}
