import { describe, expect, it } from 'vitest';
import type { PacingView } from '../../contract/pacing';
import { describeTeamPacing } from './team-pacing';

const view = (overrides: Partial<PacingView>): PacingView => ({
  jobsSending: [],
  jobsWaitingForResults: [],
  queued: { imports: 0, polls: 0, people: 0 },
  inFlight: 0,
  nextImportSlotInMs: 0,
  pausedForMs: 0,
  buckets: [],
  ...overrides,
});

describe('the team’s pacing in words', () => {
  it('names this browser’s jobs among the team’s, and when the next import may go', () => {
    const words = describeTeamPacing(view({ jobsSending: ['job-a', 'job-b', 'job-c'], nextImportSlotInMs: 3_200, queued: { imports: 2, polls: 1, people: 0 } }), new Set(['job-b', 'job-z']));
    expect(words).toEqual({
      jobs: '3 jobs sending: yours and 2 others.',
      nextSlot: 'Next import slot in 4 s.',
      waiting: '3 requests waiting at the console’s server for the rate limit.',
      paused: null,
    });
  });

  it('says whose when none or all are this browser’s, and when nothing sends', () => {
    expect(describeTeamPacing(view({ jobsSending: ['job-a'] }), new Set()).jobs).toBe('1 job sending: another person’s.');
    expect(describeTeamPacing(view({ jobsSending: ['job-a', 'job-b'] }), new Set()).jobs).toBe('2 jobs sending: 2 others.');
    expect(describeTeamPacing(view({ jobsSending: ['job-a', 'job-b'] }), new Set(['job-a', 'job-b'])).jobs).toBe('2 jobs sending: all 2 yours.');
    expect(describeTeamPacing(view({ jobsSending: ['job-a', 'job-b', 'job-c'] }), new Set(['job-a', 'job-b'])).jobs).toBe('3 jobs sending: 2 of yours and 1 other.');
    expect(describeTeamPacing(view({}), new Set(['job-a']))).toEqual({ jobs: 'No job is sending in this workspace.', nextSlot: null, waiting: null, paused: null });
  });

  it('tells jobs waiting for their results apart from jobs sending, and no next import slot for them', () => {
    const both = describeTeamPacing(view({ jobsSending: ['job-a'], jobsWaitingForResults: ['job-b'], nextImportSlotInMs: 2_000 }), new Set(['job-b']));
    expect(both.jobs).toBe('1 job sending: another person’s. 1 job waiting for results: yours.');
    const waitingOnly = describeTeamPacing(view({ jobsWaitingForResults: ['job-b', 'job-c'] }), new Set(['job-b']));
    expect(waitingOnly).toEqual({ jobs: '2 jobs waiting for results: yours and 1 other.', nextSlot: null, waiting: null, paused: null });
  });

  it('says so when the service’s 429 holds the workspace', () => {
    const words = describeTeamPacing(view({ jobsSending: ['job-a'], pausedForMs: 4_000, nextImportSlotInMs: 4_000 }), new Set(['job-a']));
    expect(words.paused).toBe('The service answered “too many requests”: the console’s server waits 4 s before sending those again.');
    expect(words.jobs).toBe('1 job sending: yours.');
  });
});
