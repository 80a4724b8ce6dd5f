// History's body, loaded with the route: this browser's jobs or the team's, by `?view=team`.
import { useSearch } from '@tanstack/react-router';
import { HistoryPage } from '../../features/history/history-page';

export function HistoryRoute() {
  const { view } = useSearch({ from: '/history' });
  return <HistoryPage view={view ?? 'browser'} />;
}
