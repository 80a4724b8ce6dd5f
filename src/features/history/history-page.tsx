import { Link } from '@tanstack/react-router';
import { buttonClass } from '../../components/button';
import { EmptyState } from '../../components/empty-state';
import { ListIcon } from '../../components/icons';
import { PageHeader } from '../../components/page-header';

/** Past and running import jobs. A placeholder until the job engine (src/jobs/) keeps them. */
export function HistoryPage() {
  return (
    <div>
      <PageHeader
        title="History"
        description="Every file you import becomes an import job of one or more batches. Running jobs keep polling here; finished ones keep their results for review."
      />
      <EmptyState icon={<ListIcon />} title="No imports yet" action={<Link to="/" className={buttonClass()}>Import a file</Link>}>
        Drop a CSV or Excel file of shipments on the Import page. Its progress and results show up here.
      </EmptyState>
    </div>
  );
}
