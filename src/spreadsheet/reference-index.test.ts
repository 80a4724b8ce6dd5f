import { describe, expect, it } from 'vitest';
import { addToReferenceIndex, createReferenceIndex, removeFromReferenceIndex, rowsWithReference } from './reference-index';

describe('reference index', () => {
  it('agrees with a Map through adds, removals, re-adds and growth', () => {
    const references: string[] = [];
    const referenceOf = (row: number) => references[row] ?? '';
    const index = createReferenceIndex(4);
    const model = new Map<string, Set<number>>();
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    const add = (row: number) => {
      const reference = referenceOf(row);
      const before = addToReferenceIndex(index, reference, row, referenceOf);
      expect(before).toBe(model.get(reference)?.size ?? 0);
      model.set(reference, (model.get(reference) ?? new Set()).add(row));
    };
    for (let row = 0; row < 3000; row++) {
      references.push(`R${next() % 800}`);
      add(row);
    }
    for (let step = 0; step < 3000; step++) {
      const row = next() % references.length;
      const reference = referenceOf(row);
      removeFromReferenceIndex(index, reference, row);
      model.get(reference)?.delete(row);
      references[row] = `R${next() % 800}`;
      add(row);
    }
    for (const [reference, rows] of model) {
      expect(rowsWithReference(index, reference, referenceOf)).toEqual([...rows].sort((a, b) => a - b));
    }
    expect(rowsWithReference(index, 'nope', referenceOf)).toEqual([]);
  });
});
