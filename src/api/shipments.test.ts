import { afterEach, describe, expect, it, vi } from 'vitest';
import { fetchShipmentPage } from './shipments';

const target = { baseUrl: 'https://tracking.example.com', apiKey: 'secret-key-123' };

function shipment(n: number) {
  return {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    reference: `REF-${n}`,
    tracking_number: `MSCU${String(n).padStart(7, '0')}`,
    tracking_type: 'container',
    carrier_scac: 'MSCU',
    custom_fields: {},
    tracking: { pol: null, pod: null },
  };
}
const rows = (count: number, from = 1) => Array.from({ length: count }, (_, i) => shipment(from + i));

/** A stand-in service answering one list page in the given shape; records the URLs asked for. */
function standIn(body: unknown) {
  const urls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string) => {
      urls.push(url);
      return Promise.resolve(Response.json(body));
    }),
  );
  return urls;
}

afterEach(() => vi.unstubAllGlobals());

describe('shipment list pages', () => {
  it('asks for the batch, page and page size, and reads the sandbox shape {page, page_size, total, total_pages}', async () => {
    const urls = standIn({ data: rows(25), pagination: { page: 2, page_size: 25, total: 60, total_pages: 3 } });
    const page = await fetchShipmentPage(target, { batchId: 'b-1', page: 2, pageSize: 25 });
    expect(urls).toEqual(['https://tracking.example.com/api/v1/shipments?batch_id=b-1&page=2&page_size=25']);
    expect(page.shipments).toHaveLength(25);
    expect(page.pageInfo).toEqual({ page: 2, total: 60, totalPages: 3, hasNext: true, nextPage: 3 });
  });

  it('on the last page of the sandbox shape offers no Next', async () => {
    standIn({ data: rows(10, 51), pagination: { page: 3, page_size: 25, total: 60, total_pages: 3 } });
    expect((await fetchShipmentPage(target, { page: 3, pageSize: 25 })).pageInfo).toMatchObject({ totalPages: 3, hasNext: false, nextPage: null });
  });

  it('reads {count, next, previous}: a total of shipments, but no page count it was not told', async () => {
    standIn({ data: rows(25), pagination: { count: 60, next: 'https://tracking.example.com/api/v1/shipments/?page=2', previous: null } });
    expect((await fetchShipmentPage(target, { page: 1, pageSize: 25 })).pageInfo).toEqual({ page: 1, total: 60, totalPages: null, hasNext: true, nextPage: 2 });
  });

  it('stops at the end of {count, next, previous} even when the last page is full', async () => {
    standIn({ data: rows(25, 26), pagination: { count: 50, next: null, previous: 'https://tracking.example.com/api/v1/shipments/?page=1' } });
    expect((await fetchShipmentPage(target, { page: 2, pageSize: 25 })).pageInfo).toMatchObject({ total: 50, hasNext: false, nextPage: null });
  });

  it('follows the page number a bare next link carries', async () => {
    standIn({ data: rows(25), pagination: { next: '/api/v1/shipments?page_size=25&page=5' } });
    expect((await fetchShipmentPage(target, { page: 4, pageSize: 25 })).pageInfo).toEqual({ page: 4, total: null, totalPages: null, hasNext: true, nextPage: 5 });
  });

  it('reads has_more, and ignores fields of an unexpected type instead of failing', async () => {
    standIn({ data: rows(3), pagination: { has_more: false, total: 'many', page_size: '25' } });
    expect((await fetchShipmentPage(target, { page: 1, pageSize: 25 })).pageInfo).toEqual({ page: 1, total: null, totalPages: null, hasNext: false, nextPage: null });
  });

  it('when the service says nothing, offers Next only after a full page', async () => {
    standIn({ data: rows(25) });
    expect((await fetchShipmentPage(target, { page: 1, pageSize: 25 })).pageInfo).toEqual({ page: 1, total: null, totalPages: null, hasNext: true, nextPage: 2 });
    standIn({ data: rows(24), pagination: { cursor: 'abc' } });
    expect((await fetchShipmentPage(target, { page: 2, pageSize: 25 })).pageInfo).toMatchObject({ hasNext: false });
  });
});
