import { describe, expect, it } from 'vitest';
import { seededRandom } from './seeded-random';

describe('seededRandom', () => {
  it('is mulberry32: the published sequence for seed 0, so seeded journeys and files stay as they were', () => {
    const next = seededRandom(0);
    expect([next(), next(), next()]).toEqual([0.26642920868471265, 0.0003297457005828619, 0.2232720274478197]);
  });

  it('repeats a seed’s sequence, differs between seeds, and stays in [0, 1) for any 32-bit seed', () => {
    const take = (seed: number) => {
      const next = seededRandom(seed);
      return Array.from({ length: 1000 }, () => next());
    };
    expect(take(2024)).toEqual(take(2024));
    expect(take(2024)).not.toEqual(take(2025));
    for (const seed of [0, 1, 0x7fffffff, 0x80000000, 0xffffffff]) {
      expect(take(seed).every((value) => value >= 0 && value < 1)).toBe(true);
    }
  });
});
