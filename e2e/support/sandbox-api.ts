// The sandbox's own view, read with the demo key: what a batch holds and which shipments exist,
// so a spec checks what the service received, not only what the page says.
import { expect, type APIRequestContext } from '@playwright/test';

/** The key of the sandbox's demo workspace, the one "Use local sandbox" connects with. */
export const DEMO_KEY = 'sandbox-demo-key-4173';

const auth = { Authorization: `Bearer ${DEMO_KEY}` };

export interface ListedShipment {
  reference: string | null;
  name: string | null;
}

/** One page of `GET /api/v1/shipments?<query>` and the total it reports. */
export async function listShipments(request: APIRequestContext, baseURL: string, query: string): Promise<{ total: number; data: ListedShipment[] }> {
  const response = await request.get(`${baseURL}/api/v1/shipments?${query}`, { headers: auth });
  expect(response.status(), `GET /api/v1/shipments?${query}`).toBe(200);
  const body = (await response.json()) as { data: ListedShipment[]; pagination: { total: number } };
  return { total: body.pagination.total, data: body.data };
}

/** Shipments the sandbox says the batch created or updated. */
export async function shipmentsOfBatch(request: APIRequestContext, baseURL: string, batchId: string): Promise<number> {
  return (await listShipments(request, baseURL, `batch_id=${batchId}&page_size=1`)).total;
}

export async function sandboxBatch(request: APIRequestContext, baseURL: string, batchId: string) {
  const response = await request.get(`${baseURL}/api/v1/shipments/imports/${batchId}`, { headers: auth });
  expect(response.status()).toBe(200);
  return (await response.json()) as { total_requests: number; status: string; results: { creation_status: string }[] };
}
