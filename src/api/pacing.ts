// What the console server's pacer is doing for this workspace (GET /console/api/pacing): the jobs
// sending or waiting for results, what waits, when the next import may go. Only where the console
// is served by its own server (sandbox and proxy modes); polled only while a job sends or waits
// for results, here or elsewhere.
// Not the service's endpoint, so the service's budget does not pace it.
import { queryOptions } from '@tanstack/react-query';
import { pacingSchema } from '../contract/pacing';
import { request, type ApiTarget } from './http-client';
import { hasTeamHistory } from './team-history';

/** How often the meter asks while something is sending. */
export const PACING_POLL_MS = 2_000;

export const pacingKeys = {
  view: (target: ApiTarget) => ['pacing', target.baseUrl] as const,
};

/** Whether this connection has a console server whose pacer can be asked. */
export const hasPacer = hasTeamHistory;

/** `sendingHere`: this browser has a job sending, so the view is followed even before the server has seen it. */
export const pacingQuery = (target: ApiTarget, sendingHere: boolean) =>
  // sendingHere decides how often to ask, not what the answer is: not part of the key.
  queryOptions({
    queryKey: pacingKeys.view(target),
    queryFn: ({ signal }) => request(target, { path: '/console/api/pacing', schema: pacingSchema, bucket: null, signal }),
    refetchInterval: ({ state: { data } }) => (sendingHere || (data?.jobsSending.length ?? 0) + (data?.jobsWaitingForResults.length ?? 0) > 0 ? PACING_POLL_MS : false),
    enabled: hasPacer(target),
  });
