import { describe, expect, it } from 'vitest';
import { compactContainerNumber, containerCheckDigit, looksLikeContainerNumber, validateContainerNumber } from './iso6346';

describe('containerCheckDigit', () => {
  it('computes the check digit of real container numbers', () => {
    expect(containerCheckDigit('CSQU305438')).toBe(3);
    expect(containerCheckDigit('MSKU907032')).toBe(3);
  });

  it('writes a remainder of 10 as 0', () => {
    // Find a serial whose weighted sum leaves 10, and check the digit is 0.
    let found = false;
    for (let serial = 0; serial < 200 && !found; serial++) {
      const firstTen = `ABCU${String(serial).padStart(6, '0')}`;
      const digit = containerCheckDigit(firstTen);
      let sum = 0;
      const letters = [10, 12, 13, 32];
      for (let i = 0; i < 10; i++) {
        const value = i < 4 ? (letters[i] ?? 0) : Number(firstTen[i]);
        sum += value * 2 ** i;
      }
      if (sum % 11 === 10) {
        expect(digit).toBe(0);
        found = true;
      }
    }
    expect(found).toBe(true);
  });

  it('accepts the J and Z categories and refuses other shapes', () => {
    expect(containerCheckDigit('ABCJ123456')).toEqual(expect.any(Number));
    expect(containerCheckDigit('ABCZ123456')).toEqual(expect.any(Number));
    expect(containerCheckDigit('ABCX123456')).toBeNull();
    expect(containerCheckDigit('ABC123456')).toBeNull();
    expect(containerCheckDigit('abcu123456')).toBeNull();
  });
});

describe('validateContainerNumber', () => {
  it('accepts a number with the right check digit', () => {
    expect(validateContainerNumber('CSQU3054383')).toEqual({ ok: true });
  });

  it('says which check digit was expected', () => {
    expect(validateContainerNumber('CSQU3054384')).toEqual({ ok: false, reason: 'check_digit', expected: 3 });
  });

  it('refuses other shapes as format errors', () => {
    for (const value of ['', 'CSQU305438', 'CSQX3054383', 'CSQU30543833', '1234567890A', 'MAEU123456789']) {
      expect(validateContainerNumber(value)).toEqual({ ok: false, reason: 'format' });
    }
  });
});

describe('compactContainerNumber', () => {
  it('removes separators and upper-cases', () => {
    expect(compactContainerNumber(' csqu 305438-3 ')).toBe('CSQU3054383');
    expect(compactContainerNumber('CSQU.305438/3')).toBe('CSQU3054383');
    expect(looksLikeContainerNumber('CSQU3054383')).toBe(true);
    expect(looksLikeContainerNumber('MAEU123456789')).toBe(false);
  });
});
