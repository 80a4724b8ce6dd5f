import { describe, expect, it } from 'vitest';
import { addSample, emptyEta, estimateRemainingMs } from './eta';

describe('the ETA', () => {
  it('is unknown until two samples, then follows the observed rate plus budget waits', () => {
    let eta = addSample(emptyEta(), { at: 0, done: 0 });
    expect(estimateRemainingMs(eta, 100, 0)).toBeNull();
    eta = addSample(eta, { at: 10_000, done: 10 }); // 1 row per second
    expect(estimateRemainingMs(eta, 90, 0)).toBe(90_000);
    expect(estimateRemainingMs(eta, 90, 30_000)).toBe(120_000);
  });

  it('smooths a burst instead of jumping to it', () => {
    let eta = addSample(addSample(emptyEta(), { at: 0, done: 0 }), { at: 10_000, done: 10 });
    eta = addSample(eta, { at: 20_000, done: 110 }); // a burst of 10 rows/s
    const ms = estimateRemainingMs(eta, 100, 0)!;
    expect(ms).toBeGreaterThan(10_000); // not the burst's 10 s
    expect(ms).toBeLessThan(100_000); // nor the old 100 s
  });

  it('ignores samples out of order and says 0 when nothing is left', () => {
    const eta = addSample(addSample(emptyEta(), { at: 5, done: 3 }), { at: 4, done: 4 });
    expect(eta.samples).toHaveLength(1);
    expect(estimateRemainingMs(eta, 0, 0)).toBe(0);
  });
});
