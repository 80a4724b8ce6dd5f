import { act, isInaccessible, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FontWarmup } from './font-warmup';

describe('FontWarmup', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('lays out each family, size and weight over idle periods, out of sight and of the accessibility tree', () => {
    const { container } = render(<FontWarmup />);
    const box = container.firstElementChild!;
    expect(box.querySelectorAll('span')).toHaveLength(0);
    // One size of one family an idle period (jsdom has no idle callbacks: 200 ms timers).
    const idlePeriod = () =>
      act(() => {
        vi.advanceTimersByTime(200);
      });
    idlePeriod();
    expect(box.querySelectorAll('span')).toHaveLength(4);
    for (let i = 0; i < 20; i++) idlePeriod();
    // Done: nothing more is asked of the page.
    expect(vi.getTimerCount()).toBe(0);
    const styles = [...box.querySelectorAll('span')].map((span) => span.className);
    expect(styles).toHaveLength(2 * 6 * 4);
    expect(styles).toContain('font-mono text-xs font-semibold');
    expect(styles).toContain('font-sans text-2xl font-bold');
    // Neither seen nor read out: hidden from assistive technology, and invisible (yet laid out).
    for (const span of box.querySelectorAll('span')) expect(isInaccessible(span)).toBe(true);
    expect(box.className).toMatch(/\binvisible\b/);
  });

  it('asks nothing more of the page once it is gone', () => {
    const { container, unmount } = render(<FontWarmup />);
    act(() => {
      vi.advanceTimersByTime(200);
    });
    expect(container.querySelectorAll('span')).toHaveLength(4);
    unmount();
    expect(vi.getTimerCount()).toBe(0);
  });
});
