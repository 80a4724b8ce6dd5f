// PATCH /api/v1/shipments/id/{id} (DESIGN §3): set name, tags, viewers, assignees or custom fields
// and get the shipment back. Spends from the PATCH bucket of the rate-limit budget.
import { mutationOptions, type QueryClient } from '@tanstack/react-query';
import { shipmentSchema, type ShipmentPatch } from '../contract/shipment';
import type { ApiTarget } from './http-client';
import { request } from './http-client';
import { shipmentKeys } from './shipments';

export interface ShipmentPatchVariables {
  shipmentId: string;
  patch: ShipmentPatch;
}

export function patchShipment(target: ApiTarget, { shipmentId, patch }: ShipmentPatchVariables) {
  return request(target, {
    method: 'PATCH',
    path: `/api/v1/shipments/id/${encodeURIComponent(shipmentId)}`,
    json: patch,
    schema: shipmentSchema,
    bucket: 'patch',
    // A PATCH sets fields to the values it carries: sent twice, it leaves the shipment as sent
    // once. So a lost answer (network error, 5xx) is retried like a GET, with the same backoff.
    retry: 'safe',
  });
}

export function shipmentPatchMutationOptions(target: ApiTarget, queryClient: QueryClient) {
  return mutationOptions({
    mutationKey: [...shipmentKeys.all(target), 'patch'],
    mutationFn: (variables: ShipmentPatchVariables) => patchShipment(target, variables),
    // Every list page may show the shipment: refetch them, so the saved value is what the list shows.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: shipmentKeys.lists(target) }),
  });
}
