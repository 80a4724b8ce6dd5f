import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { RateLimitMeter } from './rate-limit-meter';

const budget = { general: { limit: 1500, remaining: 1400, resetAt: null }, import: null, pausedUntil: 0 };

describe('the rate-limit meter', () => {
  it('says what the team is doing with the workspace’s budget, as a status a keyboard reaches', async () => {
    render(
      <RateLimitMeter
        budget={budget}
        now={0}
        team={{ jobs: '3 jobs sending: yours and 2 others.', nextSlot: 'Next import slot in 4 s.', waiting: '2 requests waiting at the console’s server for the rate limit.', paused: null }}
      />,
    );
    expect(screen.getByRole('status')).toHaveTextContent('3 jobs sending: yours and 2 others.');
    expect(screen.getByText('Next import slot in 4 s.')).toBeInTheDocument();
    await userEvent.tab();
    expect(screen.getByRole('region', { name: 'Your team on this console' })).toHaveFocus();
  });

  it('shows the browser’s own budget alone where no console server paces (direct mode)', () => {
    render(<RateLimitMeter budget={budget} now={0} />);
    expect(screen.getByText('All requests: 1,400 of 1,500 left')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Your team on this console' })).toBeNull();
  });
});
