/**
 * mulberry32: numbers in [0, 1) from a 32-bit seed, the same sequence on every run and machine.
 * For what must be repeatable rather than unpredictable: the sandbox's simulated journeys (seeded
 * by the tracking number), generated test cases (a failure replays from its seed), bench files.
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), state | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
