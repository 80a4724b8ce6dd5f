// "Check against the service" on the Ready step: reads the workspace's shipments page by page
// (GET /api/v1/shipments, SERVICE_CHECK_PAGE_SIZE a request) for their references and tracking
// numbers, and stops before the request budget falls to its reserve, so the check never takes
// what the job itself, a poll or a page someone opens will need. No browser globals: the page
// hands in the fetch of one page and the budget's reading.

/** The spec's largest page of shipments (DESIGN §3). */
export const SERVICE_CHECK_PAGE_SIZE = 100;

export interface ShipmentKeys {
  reference: string | null;
  trackingNumber: string;
}

export interface ServiceCheckPage {
  keys: ShipmentKeys[];
  /** Pages in the whole list, where the service states it. */
  totalPages: number | null;
  total: number | null;
}

/** What the check costs: requests in all, those the budget allows above its reserve (null: budget not known). */
export function serviceCheckCost(input: { totalPages: number; pagesRead: number; remaining: number | null; reserve: number }): {
  requests: number;
  affordable: number | null;
} {
  const requests = Math.max(0, input.totalPages - input.pagesRead);
  return { requests, affordable: input.remaining === null ? null : Math.max(0, Math.min(requests, input.remaining - input.reserve)) };
}

export type ServiceCheckEnd = 'done' | 'reserve' | 'cancelled';

/**
 * Reads pages `from` on, handing each page's keys to `onPage`, until the last page (a short or
 * empty one when the service states no count), the budget's reserve, or `signal`. Returns why it
 * stopped and the pages read (from included).
 */
export async function readServiceShipments(input: {
  from: number;
  fetchPage: (page: number, signal: AbortSignal) => Promise<ServiceCheckPage>;
  /** Requests the service allows now in its current window; null when not known. */
  remaining: () => number | null;
  reserve: number;
  signal: AbortSignal;
  onPage: (page: number, result: ServiceCheckPage) => void;
}): Promise<{ end: ServiceCheckEnd; lastPage: number }> {
  let page = input.from;
  for (;;) {
    if (input.signal.aborted) return { end: 'cancelled', lastPage: page - 1 };
    const remaining = input.remaining();
    if (remaining !== null && remaining <= input.reserve) return { end: 'reserve', lastPage: page - 1 };
    let result: ServiceCheckPage;
    try {
      result = await input.fetchPage(page, input.signal);
    } catch (error) {
      if (input.signal.aborted) return { end: 'cancelled', lastPage: page - 1 };
      throw error;
    }
    input.onPage(page, result);
    const last = result.totalPages !== null ? page >= result.totalPages : result.keys.length < SERVICE_CHECK_PAGE_SIZE;
    if (last) return { end: 'done', lastPage: page };
    page++;
  }
}
