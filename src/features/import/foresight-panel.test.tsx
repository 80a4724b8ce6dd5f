import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { ForesightCounts } from '../../workers/import-protocol';
import { ForesightPanel } from './foresight-panel';
import type { ServiceCheck, SourceState } from './use-foresight';

const NOV_12 = Date.UTC(2026, 10, 12, 9);
const COUNTS: ForesightCounts = { creates: 1200, updates: 340, withoutReference: 15, possibleDuplicates: 3, duplicatesSentFrom: NOV_12, duplicatesSentTo: NOV_12 };
const READ: SourceState = { state: 'read', detail: '4 past jobs' };
const TEAM: SourceState = { state: 'read', detail: 'the team history of this workspace' };

function panel(overrides: { counts?: ForesightCounts | null; browser?: SourceState; team?: SourceState; service?: ServiceCheck; remaining?: number | null } = {}) {
  const props = {
    counts: overrides.counts === undefined ? COUNTS : overrides.counts,
    browser: overrides.browser ?? READ,
    team: overrides.team ?? TEAM,
    service: overrides.service ?? ({ state: 'not-read' }),
    remaining: overrides.remaining === undefined ? 1_380 : overrides.remaining,
    resetAt: null,
    reserve: 23,
    onShowRows: vi.fn(),
    onCheck: vi.fn(),
    onReadFrom: vi.fn(),
    onCancel: vi.fn(),
  };
  render(<ForesightPanel {...props} />);
  return props;
}

describe('ForesightPanel', () => {
  it('names only the sources that know something: a browser with no past job is left out of the sentence', () => {
    panel({ browser: { state: 'read', detail: '' } });
    expect(screen.getAllByRole('status')[0]).toHaveTextContent('Known from the team history of this workspace.');
  });

  it('says the counts in words, each a button that opens its rows', async () => {
    const props = panel();
    const region = screen.getByRole('region', { name: 'What the rows will do at the service' });
    expect(region).toHaveTextContent('1,200 create · 340 update existing shipments · 15 without a reference, 3 of them already sent on 12 Nov');
    await userEvent.click(screen.getByRole('button', { name: '340 update existing shipments' }));
    await userEvent.click(screen.getByRole('button', { name: '3 of them already sent on 12 Nov' }));
    expect(props.onShowRows.mock.calls).toEqual([['updates'], ['possible_duplicates']]);
  });

  it('names what the foresight is known from and what it is not, and offers the check with its cost against the budget', async () => {
    const props = panel();
    const status = screen.getAllByRole('status')[0]!;
    expect(status).toHaveTextContent('Known from this browser’s 4 past jobs and the team history of this workspace.');
    expect(status).toHaveTextContent('The service’s own shipments are not read');
    const check = screen.getByRole('group', { name: 'Check against the service' });
    expect(check).toHaveTextContent('The service allows 1,380 more requests in its current window; the check stops when 23 are left');
    await userEvent.click(within(check).getByRole('button', { name: 'Check against the service' }));
    expect(props.onCheck).toHaveBeenCalledOnce();
  });

  it('says what is not read while the sources are still read, so the panel keeps its height when they answer', () => {
    panel({ counts: null, browser: { state: 'reading' }, team: { state: 'reading' } });
    const status = screen.getAllByRole('status').find((s) => s.textContent?.includes('Reading what this console knows'));
    expect(status).toHaveTextContent('The service’s own shipments are not read');
  });

  it('says there is no team history in direct mode', () => {
    panel({ team: { state: 'absent' } });
    expect(screen.getAllByRole('status')[0]).toHaveTextContent('There is no team history here');
  });

  it('shows what the rest of the check costs before it is read, and where the reserve stops it', async () => {
    const props = panel({ service: { state: 'confirm', pagesRead: 1, totalPages: 57, total: 5_650 }, remaining: 50 });
    expect(screen.getAllByRole('status')[0]).toHaveTextContent('The service’s own shipments are read only in part (the newest 100)');
    const check = screen.getByRole('group', { name: 'Check against the service' });
    expect(check).toHaveTextContent('The service holds 5,650 shipments; page 1 is read. The rest takes 56 requests; the budget allows 27 of them before its reserve, and the check will stop there.');
    await userEvent.click(within(check).getByRole('button', { name: 'Read the rest (56 requests)' }));
    expect(props.onReadFrom).toHaveBeenCalledWith(2, { totalPages: 57, total: 5_650 });
    await userEvent.click(within(check).getByRole('button', { name: 'Cancel' }));
    expect(props.onCancel).toHaveBeenCalledOnce();
  });

  it('says where a check stopped at the reserve, and goes on from there', async () => {
    const props = panel({ service: { state: 'stopped', why: 'reserve', pagesRead: 28, totalPages: 57, total: 5_650 } });
    const check = screen.getByRole('group', { name: 'Check against the service' });
    expect(check).toHaveTextContent('Stopped after 28 of 57 pages, at the budget’s reserve');
    expect(screen.getAllByRole('status')[0]).toHaveTextContent('The service’s own shipments are read only in part (the newest 2,800)');
    await userEvent.click(within(check).getByRole('button', { name: 'Check again from where it stopped' }));
    expect(props.onReadFrom).toHaveBeenCalledWith(29, { totalPages: 57, total: 5_650 });
  });

  it('once checked, counts the service among what it knows', () => {
    panel({ service: { state: 'read', pagesRead: 2, total: 150 } });
    expect(screen.getAllByRole('status')[0]).toHaveTextContent('Known from this browser’s 4 past jobs, the team history of this workspace and the service’s 150 shipments.');
    expect(screen.getByRole('group', { name: 'Check against the service' })).toHaveTextContent('Checked against the service’s 150 shipments (2 requests).');
  });
});
