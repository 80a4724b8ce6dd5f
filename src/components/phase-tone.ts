// The badge tone of each phase of an import job, one map for the job page and History.
// components/ may not import jobs/ (DESIGN.md §2), so the phases of jobs/job-state.ts's JobPhase
// are spelled here; both pages index this map with a JobPhase, so a phase added there and not
// here fails the typecheck at those two places.
import type { StatusTone } from './status-badge';

export const PHASE_TONE = {
  sending: 'progress',
  processing: 'progress',
  'needs-you': 'warning',
  paused: 'warning',
  'waiting-for-connection': 'warning',
  cancelled: 'neutral',
  finished: 'success',
  'finished-with-failures': 'danger',
} as const satisfies Record<string, StatusTone>;
