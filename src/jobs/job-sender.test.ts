import { describe, expect, it } from 'vitest';
import { jobsSentHere, senderSentence, sentFromLabel } from './job-sender';

describe('who sends a job', () => {
  it('names the console’s server, for whom, and that tabs may close; or this browser, which must stay open', () => {
    expect(senderSentence({ runsOn: 'console-server', sentBy: 'Ana', finishedAt: null })).toBe(
      'Sent by the console’s server for Ana: it goes on with every tab closed, and any browser of this workspace can watch it.',
    );
    expect(senderSentence({ runsOn: 'console-server', sentBy: null, finishedAt: 5 })).toBe('Sent by the console’s server.');
    expect(senderSentence({ finishedAt: null })).toBe('Sent by this browser: keep a tab of the console open until every row has gone out.');
    expect([sentFromLabel(undefined, 'mine'), sentFromLabel(undefined, 'team'), sentFromLabel('console-server', 'team')]).toEqual(['This browser', 'A browser', 'The console’s server']);
  });
});

describe('the jobs a person sent from this browser', () => {
  it('are the browser’s own and those it handed to the console’s server, not the colleagues’ the server also lists', () => {
    const jobs = [{ id: 'mine-in-browser' }, { id: 'handed-here', runsOn: 'console-server' as const }, { id: 'a-colleague’s', runsOn: 'console-server' as const }];
    expect(jobsSentHere(jobs, new Set(['handed-here']))).toEqual(['mine-in-browser', 'handed-here']);
  });
});
