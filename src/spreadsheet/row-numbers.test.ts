import { describe, expect, it } from 'vitest';
import { LineNumbers } from './row-numbers';

/** Lines as a reader pushes them: mostly one a row, with blank lines and cells broken over lines at the given odds. */
function randomLines(count: number, breakOdds: number, seed: number): number[] {
  let state = seed;
  const next = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const lines: number[] = [];
  let line = 1;
  for (let row = 0; row < count; row++) {
    lines.push(line);
    line += next() < breakOdds ? 2 + Math.floor(next() * 3) : 1;
  }
  return lines;
}

function linesOf(lines: readonly number[]): LineNumbers {
  const kept = new LineNumbers();
  for (const line of lines) kept.push(line);
  return kept;
}

describe('LineNumbers', () => {
  it('gives every row the line pushed for it, as an array would, whether kept as runs or plainly', () => {
    // From a file of one row a line to one where nearly every row breaks the run (kept plainly).
    for (const [count, breakOdds] of [[0, 0], [1, 0], [5_000, 0], [5_000, 0.001], [5_000, 0.05], [5_000, 0.9], [300, 1]] as const) {
      const lines = randomLines(count, breakOdds, count + breakOdds * 1000);
      const kept = linesOf(lines);
      expect(kept.length).toBe(count);
      for (let row = -3; row < count + 3; row++) expect(kept.at(row), `${count} rows at ${breakOdds}: row ${row}`).toBe(lines.at(row));
      expect(kept.slice()).toEqual(lines);
      for (const [start, end] of [[0, 3], [-4, undefined], [count - 2, count + 5], [7, 2], [-9, -3], [2.5, 6.9]] as const) {
        expect(kept.slice(start, end), `slice(${start}, ${end})`).toEqual(lines.slice(start, end));
      }
    }
  });

  it('reads NaN and fractions as Array.prototype.at does', () => {
    const lines = [2, 3, 5, 6];
    const kept = linesOf(lines);
    for (const index of [Number.NaN, 0.9, -0.5, 2.7, -1.2, Infinity, -Infinity]) expect(kept.at(index), String(index)).toBe(lines.at(index));
  });
});
