import { z } from 'zod';

/**
 * The `pagination` object of a list page. The spec does not show its fields (§2.5), so this
 * reads the shapes we can recognise and keeps anything else: the sandbox's
 * `{page, page_size, total, total_pages}` (DESIGN §3), the common `{count, next, previous}`, and
 * a `next` link or `has_more` flag. A field of an unexpected type is dropped, not fatal.
 */
const count = z.number().int().min(0).optional().catch(undefined);
const link = z.union([z.string(), z.number(), z.null()]).optional().catch(undefined);

export const paginationSchema = z.looseObject({
  page: z.number().int().min(1).optional().catch(undefined),
  page_size: z.number().int().min(1).optional().catch(undefined),
  total: count,
  total_pages: count,
  count,
  next: link,
  previous: link,
  has_more: z.boolean().optional().catch(undefined),
});
export type Pagination = z.infer<typeof paginationSchema>;

/** What a page of a list can honestly say about where it is: null wherever the service did not tell. */
export interface PageInfo {
  page: number;
  /** Items in the whole list, when the service states it (`total` or `count`). */
  total: number | null;
  /** Pages in the whole list, when the service states it or states both the total and its page size. */
  totalPages: number | null;
  hasNext: boolean;
  /** The page number to ask for next (from a `next` link that carries one, else page + 1). */
  nextPage: number | null;
}

export interface PageRequest {
  page: number;
  pageSize: number;
  /** Items on the page that came back. */
  rows: number;
}

/** The page number a `next` value carries: a number, or a link whose query has `page`. */
function pageOfLink(value: string | number): number | null {
  if (typeof value === 'number') return Number.isInteger(value) && value >= 1 ? value : null;
  const query = value.includes('?') ? value.slice(value.indexOf('?') + 1) : '';
  const page = Number(new URLSearchParams(query).get('page'));
  return Number.isInteger(page) && page >= 1 ? page : null;
}

export function readPageInfo(pagination: Pagination, request: PageRequest): PageInfo {
  const page = pagination.page ?? request.page;
  const total = pagination.total ?? pagination.count ?? null;
  // Only the service's own page size turns a total of items into pages: the size we asked for
  // may not be the size it used.
  const totalPages =
    pagination.total_pages ?? (total !== null && pagination.page_size !== undefined ? Math.ceil(total / pagination.page_size) : null);

  let hasNext: boolean;
  if (pagination.next !== undefined) hasNext = pagination.next !== null && pagination.next !== '';
  else if (pagination.has_more !== undefined) hasNext = pagination.has_more;
  else if (totalPages !== null) hasNext = page < totalPages;
  else if (total !== null && pagination.page_size !== undefined) hasNext = page * pagination.page_size < total;
  // A service that says nothing: a full page may have more after it, an emptier one has not.
  else hasNext = request.rows >= request.pageSize;

  const linked = hasNext && pagination.next !== undefined && pagination.next !== null ? pageOfLink(pagination.next) : null;
  return { page, total, totalPages, hasNext, nextPage: hasNext ? (linked ?? page + 1) : null };
}
