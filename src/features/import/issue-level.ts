// How an issue level reads on screen, in one place: its word (statuses are words as well as
// colour), the badge tone, the grid's mark and cell colours.
import type { StatusTone } from '../../components/status-badge';
import type { IssueLevel } from '../../spreadsheet/row-issue';

export const ISSUE_LEVEL: Record<IssueLevel, { word: string; tone: StatusTone; mark: string; text: string; cell: string }> = {
  error: { word: 'Error', tone: 'danger', mark: '✕', text: 'text-red-700', cell: 'bg-red-50 ring-1 ring-inset ring-red-300' },
  warning: { word: 'Warning', tone: 'warning', mark: '!', text: 'text-amber-800', cell: 'bg-amber-50 ring-1 ring-inset ring-amber-300' },
  auto_fix: { word: 'Auto-fixed', tone: 'success', mark: '✓', text: 'text-emerald-700', cell: '' },
};
