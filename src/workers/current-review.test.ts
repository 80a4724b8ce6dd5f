import { describe, expect, it } from 'vitest';
import { suggestColumnMapping } from '../spreadsheet/column-mapping';
import { userRows } from '../spreadsheet/sample-rows';
import { CurrentReview, ReviewReplacedError } from './current-review';
import { readOf } from './test-support';

describe('CurrentReview', () => {
  it('an edit asked while the rows are checked is applied to that review once they are', async () => {
    const all = userRows(3000);
    const read = readOf(all);
    const current = new CurrentReview();
    current.build(read, 0, suggestColumnMapping(all[0] ?? []), undefined, 0);
    const review = await current.whenChecked();
    review.run({ type: 'edit', row: 0, column: 0, value: 'MSKU1234565' });
    expect(review.getRows(0, 1)[0]?.values[0]).toBe('MSKU1234565');
  });

  it('refuses a request that waited while its review was built again, and leaves the new review untouched', async () => {
    const all = userRows(3000);
    const read = readOf(all);
    const mapping = suggestColumnMapping(all[0] ?? []);
    const current = new CurrentReview();
    const first = current.build(read, 0, mapping, undefined, 0);
    const edit = current.whenChecked().then((review) => review.run({ type: 'edit', row: 0, column: 0, value: 'MSKU1234565' }));
    // Back, another header row, Continue: another review, its rows one further down.
    const second = current.build(read, 1, mapping, undefined, 0);
    expect(second).not.toBe(first);
    await expect(edit).rejects.toThrow(ReviewReplacedError);
    await current.whenChecked();
    expect(second.state().canUndo).toBe(false);
    expect(second.state().version).toBe(0);
  });

  it('refuses a request that waited while the file was read again', async () => {
    const all = userRows(3000);
    const current = new CurrentReview();
    current.build(readOf(all), 0, suggestColumnMapping(all[0] ?? []), undefined, 0);
    const waiting = current.whenChecked();
    current.drop();
    await expect(waiting).rejects.toThrow(ReviewReplacedError);
    expect(() => current.get()).toThrow('The rows have not been mapped yet.');
  });

  it('answers a page of checked rows at once, and one the check has not reached once every row is', async () => {
    const all = userRows(3000);
    const current = new CurrentReview();
    const review = current.build(readOf(all), 0, suggestColumnMapping(all[0] ?? []), undefined, 0);
    expect(await current.whenCheckedTo(100)).toBe(review);
    expect(review.isChecked).toBe(false);
    expect(await current.whenCheckedTo(2999)).toBe(review);
    expect(review.isChecked).toBe(true);
  });

  it('holds the check while the page makes way for its render, and goes on once the page lifts it', async () => {
    const all = userRows(3000);
    const current = new CurrentReview();
    current.holdCheck(60_000);
    const review = current.build(readOf(all), 0, suggestColumnMapping(all[0] ?? []), undefined, 0);
    try {
      const firstBlock = review.checkedRows;
      // Unheld, the rest of the 3,000 rows are checked well within this.
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(review.checkedRows).toBe(firstBlock);
      expect(review.isChecked).toBe(false);
      // An edit of a row already checked does not wait for the hold.
      const edit = { type: 'edit', row: 0, column: 0, value: 'MSKU1234565' } as const;
      expect(await current.whenReadyFor(edit)).toBe(review);
      current.holdCheck(0);
      expect(await current.whenChecked()).toBe(review);
      expect(review.isChecked).toBe(true);
    } finally {
      current.drop();
    }
  });

  it('a hold nobody lifts (a hidden tab draws no frame) ends by itself', async () => {
    const all = userRows(3000);
    const current = new CurrentReview();
    current.holdCheck(30);
    const review = current.build(readOf(all), 0, suggestColumnMapping(all[0] ?? []), undefined, 0);
    expect(await current.whenChecked()).toBe(review);
    expect(review.isChecked).toBe(true);
  });
});
