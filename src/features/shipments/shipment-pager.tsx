import type { PageInfo } from '../../contract/pagination';
import { Button } from '../../components/button';
import { formatCount } from '../../components/plural';

/**
 * Where the list is, in the service's own terms: "Page 2 of 3" only when it told the number of
 * pages, "Page 2" otherwise; Next while it says there is more (src/contract/pagination.ts).
 */
export function ShipmentPager({ pageInfo, busy, onPage }: { pageInfo: PageInfo; busy: boolean; onPage: (page: number) => void }) {
  const { page, total, totalPages, nextPage } = pageInfo;
  return (
    <nav aria-label="Pages" className="flex flex-wrap items-center justify-between gap-2 text-sm text-slate-700">
      <p aria-live="polite">
        {totalPages !== null ? `Page ${page} of ${Math.max(totalPages, page)}` : `Page ${page}`}
        {total !== null && ` · ${formatCount(total)} shipment${total === 1 ? '' : 's'}`}
        {busy && ' · loading…'}
      </p>
      <div className="flex gap-2">
        <Button variant="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
          Previous
        </Button>
        <Button variant="secondary" disabled={nextPage === null} onClick={() => nextPage !== null && onPage(nextPage)}>
          Next
        </Button>
      </div>
    </nav>
  );
}
