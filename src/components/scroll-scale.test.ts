import { describe, expect, it } from 'vitest';
import { MAX_SCROLL_HEIGHT, offsetToShow, rowWindow, scrollGeometry } from './scroll-scale';

const ROW = 40;
const VIEW = 400;

describe('scrollGeometry and rowWindow', () => {
  it('lays small tables out as they are, with overscan on both sides', () => {
    const geometry = scrollGeometry(1000, ROW, VIEW);
    expect(geometry).toEqual({ total: 40_000, height: 40_000, scale: 1 });
    const slice = rowWindow(geometry, 1000, ROW, VIEW, 4000, 4000, 5);
    expect(slice).toEqual({ from: 95, to: 115, padTop: 95 * ROW, padBottom: 40_000 - 115 * ROW });
  });

  it('scales 1,000,000 rows into an element under the browsers’ cap and reaches the first, middle and last rows', () => {
    const rows = 1_000_000;
    const geometry = scrollGeometry(rows, ROW, VIEW);
    expect(geometry.height).toBe(MAX_SCROLL_HEIGHT);
    expect(geometry.height).toBeLessThan(33_554_430);
    const maxScroll = geometry.height - VIEW;
    const at = (scrollTop: number) => rowWindow(geometry, rows, ROW, VIEW, scrollTop, scrollTop * geometry.scale, 0);
    expect(at(0).from).toBe(0);
    expect(Math.abs(at(maxScroll / 2).from - rows / 2)).toBeLessThan(10);
    const end = at(maxScroll);
    expect(end.to).toBe(rows);
    expect(end.to - end.from).toBe(VIEW / ROW);
    // The rows drawn fill the content exactly: the spacers and rows add up to its height.
    expect(end.padTop + (end.to - end.from) * ROW + end.padBottom).toBe(geometry.height);
  });

  it('never makes a negative spacer near the top of a scaled grid', () => {
    const geometry = scrollGeometry(1_000_000, ROW, VIEW);
    for (const scrollTop of [0, 1, 5, 39, 41, 1000]) {
      const slice = rowWindow(geometry, 1_000_000, ROW, VIEW, scrollTop, scrollTop * geometry.scale, 10);
      expect(slice.padTop).toBeGreaterThanOrEqual(0);
    }
  });

  it('moves the least to show a row', () => {
    expect(offsetToShow(5, ROW, VIEW, 0)).toBe(0);
    expect(offsetToShow(20, ROW, VIEW, 0)).toBe(21 * ROW - VIEW);
    expect(offsetToShow(2, ROW, VIEW, 400)).toBe(80);
  });
});
