import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { shipmentListSchema } from '../contract/shipment';
import type { ApiTarget } from './http-client';
import { request } from './http-client';

export interface ShipmentListParams {
  batchId?: string;
  page: number;
  pageSize: number;
}

export function shipmentsQueryOptions(target: ApiTarget, params: ShipmentListParams) {
  // The API key stays out of query keys; app.tsx clears the cache when the connection changes.
  // eslint-disable-next-line @tanstack/query/exhaustive-deps
  return queryOptions({
    queryKey: ['shipments', target.baseUrl, params],
    queryFn: ({ signal }) =>
      request(target, {
        path: '/api/v1/shipments',
        query: { batch_id: params.batchId, page: params.page, page_size: params.pageSize },
        schema: shipmentListSchema,
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}
