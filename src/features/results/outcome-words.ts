// A result row's outcome as words and a tone: statuses are never colour alone.
import type { StatusTone } from '../../components/status-badge';
import type { ResultRowView as ResultRow } from '../../jobs/thread/results-protocol';

export function creationWords(row: ResultRow): { text: string; tone: StatusTone } {
  const status = row.item?.creationStatus;
  switch (status) {
    case undefined:
      return { text: 'No result', tone: 'danger' };
    case 'created':
      return { text: 'Created', tone: 'success' };
    case 'updated':
      return { text: 'Updated', tone: 'success' };
    case 'failed':
      return { text: 'Failed', tone: 'danger' };
    default:
      return { text: status, tone: 'neutral' };
  }
}

export function trackingWords(row: ResultRow): { text: string; tone: StatusTone } {
  // A row that created no shipment has nothing to track, whatever the service's tracking_status
  // says: "Tracking failed" there would disagree with the counts, which leave failed rows out.
  if (row.item?.creationStatus === 'failed') return { text: 'Not tracked', tone: 'neutral' };
  const status = row.item?.trackingStatus;
  switch (status) {
    case undefined:
      return { text: '—', tone: 'neutral' };
    case 'succeeded':
      return { text: 'Tracked', tone: 'success' };
    case 'failed':
      return { text: 'Tracking failed', tone: 'danger' };
    case 'processing':
      return { text: 'Tracking…', tone: 'progress' };
    default:
      return { text: status, tone: 'neutral' };
  }
}
