import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ReviewState } from '../../workers/import-protocol';
import { freshReview } from './test-support';
import { FilterBar, ReviewCountsLine } from './review-toolbar';

const checking: ReviewState = {
  ...freshReview,
  checkedRows: 12_288,
  counts: { rows: 100_000, errorRows: 12, warningRows: 3, autoFixedRows: 40, excludedRows: 0, readyRows: 12_276 },
  viewLength: 100_000,
};

describe('the review counts while a large file is still being checked', () => {
  it('say how far the check is, not counts of the rows checked so far, and are read out once whole', () => {
    const { rerender } = render(<ReviewCountsLine state={checking} />);
    const line = screen.getByText(/100,000 rows:/).closest('p');
    expect(line).toHaveTextContent('100,000 rows: checking them… 12,288 checked so far.');
    expect(line).toHaveAttribute('aria-busy', 'true');
    expect(line).not.toHaveTextContent('12,276 ready');
    const whole: ReviewState = { ...checking, checkedRows: 100_000, counts: { ...checking.counts, readyRows: 99_945, errorRows: 55 } };
    rerender(<ReviewCountsLine state={whole} />);
    expect(line).toHaveTextContent('100,000 rows: 99,945 ready, 55 with errors, 3 with warnings, 40 auto-fixed, 0 excluded.');
    expect(line).toHaveAttribute('aria-busy', 'false');
  });

  it('say where a check that failed stopped, no longer busy', () => {
    render(<ReviewCountsLine state={checking} stopped />);
    const line = screen.getByText(/100,000 rows:/).closest('p');
    expect(line).toHaveTextContent('100,000 rows: checking stopped after 12,288.');
    expect(line).toHaveAttribute('aria-busy', 'false');
  });

  it('leave the filters uncounted but All, which the read knows', () => {
    render(<FilterBar state={checking} onFilter={() => undefined} />);
    expect(screen.getByRole('button', { name: /^All/ })).toHaveTextContent('All 100,000');
    expect(screen.getByRole('button', { name: /^Errors/ })).toHaveAccessibleName('Errors not counted yet');
    expect(screen.getByRole('button', { name: /^Errors/ })).not.toHaveTextContent('12');
  });
});
