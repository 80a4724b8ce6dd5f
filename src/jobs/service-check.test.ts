import { describe, expect, it } from 'vitest';
import { readServiceShipments, SERVICE_CHECK_PAGE_SIZE, serviceCheckCost, type ServiceCheckPage } from './service-check';

const pageOf = (page: number, totalPages: number | null, size = SERVICE_CHECK_PAGE_SIZE): ServiceCheckPage => ({
  keys: Array.from({ length: size }, (_, i) => ({ reference: `P${page}-${i}`, trackingNumber: `N${page}-${i}` })),
  totalPages,
  total: null,
});

describe('serviceCheckCost', () => {
  it('counts the requests left and those the budget allows above its reserve', () => {
    expect(serviceCheckCost({ totalPages: 57, pagesRead: 1, remaining: 1_380, reserve: 120 })).toEqual({ requests: 56, affordable: 56 });
    expect(serviceCheckCost({ totalPages: 57, pagesRead: 1, remaining: 150, reserve: 120 })).toEqual({ requests: 56, affordable: 30 });
    expect(serviceCheckCost({ totalPages: 57, pagesRead: 1, remaining: 100, reserve: 120 })).toEqual({ requests: 56, affordable: 0 });
    expect(serviceCheckCost({ totalPages: 3, pagesRead: 1, remaining: null, reserve: 120 })).toEqual({ requests: 2, affordable: null });
  });
});

describe('readServiceShipments', () => {
  it('reads every page to the last the service states', async () => {
    const seen: number[] = [];
    const end = await readServiceShipments({ from: 2, fetchPage: (page) => Promise.resolve(pageOf(page, 4)), remaining: () => null, reserve: 20, signal: new AbortController().signal, onPage: (page) => seen.push(page) });
    expect(end).toEqual({ end: 'done', lastPage: 4 });
    expect(seen).toEqual([2, 3, 4]);
  });

  it('without a stated count, stops at a short page', async () => {
    const end = await readServiceShipments({ from: 1, fetchPage: (page) => Promise.resolve(pageOf(page, null, page === 3 ? 7 : SERVICE_CHECK_PAGE_SIZE)), remaining: () => null, reserve: 20, signal: new AbortController().signal, onPage: () => undefined });
    expect(end).toEqual({ end: 'done', lastPage: 3 });
  });

  it("stops at the budget's reserve, before the request that would take it", async () => {
    let remaining = 23;
    const seen: number[] = [];
    const end = await readServiceShipments({
      from: 1,
      fetchPage: (page) => {
        remaining--;
        return Promise.resolve(pageOf(page, 50));
      },
      remaining: () => remaining,
      reserve: 20,
      signal: new AbortController().signal,
      onPage: (page) => seen.push(page),
    });
    expect(end).toEqual({ end: 'reserve', lastPage: 3 });
    expect(seen).toEqual([1, 2, 3]);
    expect(remaining).toBe(20);
  });

  it('stops when cancelled, also during a request', async () => {
    const controller = new AbortController();
    const end = await readServiceShipments({
      from: 1,
      fetchPage: (page, signal) => {
        if (page === 2) {
          controller.abort();
          return Promise.reject(signal.reason as Error);
        }
        return Promise.resolve(pageOf(page, 10));
      },
      remaining: () => null,
      reserve: 20,
      signal: controller.signal,
      onPage: () => undefined,
    });
    expect(end).toEqual({ end: 'cancelled', lastPage: 1 });
  });
});
