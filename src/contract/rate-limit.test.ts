import { describe, expect, it } from 'vitest';
import { parseRateLimitHeaders, parseResetHeader, parseRetryAfter } from './rate-limit';

const now = Date.UTC(2026, 10, 21, 12, 0, 0);
const headers = (values: Record<string, string>) => new Headers(values);

describe('X-RateLimit-Reset', () => {
  it('reads epoch seconds, epoch milliseconds and ISO 8601 as the same instant', () => {
    const reset = Date.UTC(2026, 10, 21, 12, 1, 0);
    expect(parseResetHeader(String(reset / 1000), now)).toBe(reset);
    expect(parseResetHeader(String(reset), now)).toBe(reset);
    expect(parseResetHeader('2026-11-21T12:01:00Z', now)).toBe(reset);
    expect(parseResetHeader('2026-11-21T12:01:00.000+00:00', now)).toBe(reset);
  });

  it('reads a small number as seconds from now', () => {
    expect(parseResetHeader('30', now)).toBe(now + 30_000);
  });

  it('returns null for garbage instead of a bogus date', () => {
    for (const value of ['', 'soon', 'NaN', '-5', 'Sat, 21 Nov', '1e309']) {
      expect(parseResetHeader(value, now)).toBeNull();
    }
  });
});

describe('rate-limit headers', () => {
  it('parses the three headers, case-insensitively', () => {
    const state = parseRateLimitHeaders(headers({ 'X-RateLimit-Limit': '20', 'x-ratelimit-remaining': '7', 'X-RATELIMIT-RESET': '1795348860' }), now);
    expect(state).toEqual({ limit: 20, remaining: 7, resetAt: 1795348860_000 });
  });

  it('is null when the service sends none, or nonsense counts', () => {
    expect(parseRateLimitHeaders(headers({}), now)).toBeNull();
    expect(parseRateLimitHeaders(headers({ 'X-RateLimit-Limit': 'many', 'X-RateLimit-Remaining': '1' }), now)).toBeNull();
    expect(parseRateLimitHeaders(headers({ 'X-RateLimit-Limit': '10', 'X-RateLimit-Remaining': '-1' }), now)).toBeNull();
  });

  it('never reports more remaining than the limit', () => {
    expect(parseRateLimitHeaders(headers({ 'X-RateLimit-Limit': '10', 'X-RateLimit-Remaining': '99' }), now)?.remaining).toBe(10);
  });
});

describe('Retry-After', () => {
  it('reads seconds and HTTP dates', () => {
    expect(parseRetryAfter('12', now)).toBe(12_000);
    expect(parseRetryAfter(new Date(now + 5000).toUTCString(), now)).toBe(5000);
    expect(parseRetryAfter('whenever', now)).toBeNull();
  });
});
