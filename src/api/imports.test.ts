import { describe, expect, it } from 'vitest';
import { CONSOLE_JOB_HEADER } from '../contract/pacing';
import { fetchBatchBody } from './imports';
import { httpDepsWith } from './http-client';

function recording() {
  const sent: Headers[] = [];
  const deps = httpDepsWith((_input, init) => {
    sent.push(new Headers(init?.headers));
    return Promise.resolve(new Response('{}', { status: 200 }));
  });
  return { sent, deps };
}

describe('a job’s poll', () => {
  it('names its job to the console’s own server, whose pacer shares the budget between jobs', async () => {
    const { sent, deps } = recording();
    await fetchBatchBody({ baseUrl: '', apiKey: 'k' }, 'batch-1', undefined, deps, 'job-aaaa1111');
    expect(sent[0]!.get(CONSOLE_JOB_HEADER)).toBe('job-aaaa1111');
  });

  it('adds no header for a service on another origin, which would have to consent to it (CORS)', async () => {
    const { sent, deps } = recording();
    await fetchBatchBody({ baseUrl: 'https://tracking.example.com', apiKey: 'k' }, 'batch-1', undefined, deps, 'job-aaaa1111');
    expect(sent[0]!.has(CONSOLE_JOB_HEADER)).toBe(false);
  });
});
