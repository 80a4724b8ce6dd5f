import { describe, expect, it } from 'vitest';
import { describeProblems } from './problem-text';

describe('describeProblems', () => {
  it('names each problem’s column once, whether or not the message already starts with it', () => {
    expect(
      describeProblems([
        { column: 'carrier', message: 'carrier: QQQQ is not a carrier this service supports' },
        { column: 'name', message: 'is longer than 255 characters' },
        { column: null, message: 'The row could not be read.' },
      ]),
    ).toBe('carrier: QQQQ is not a carrier this service supports; name: is longer than 255 characters; The row could not be read.');
  });
});
