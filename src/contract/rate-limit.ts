/**
 * Rate-limit headers (spec §8). `X-RateLimit-Reset` is documented only as a "UTC timestamp", so
 * it is read as epoch seconds, epoch milliseconds or an ISO 8601 date (DESIGN §3). Pure: no zod
 * needed, but it lives with the wire contract because both ends agree on it.
 */
export interface RateLimitState {
  limit: number;
  remaining: number;
  /** When the window resets, as epoch milliseconds; null when the header is absent or unreadable. */
  resetAt: number | null;
}

interface HeaderSource {
  get(name: string): string | null;
}

const EPOCH_MS_THRESHOLD = 1e11; // epoch seconds stay below this until the year 5138
const EPOCH_S_THRESHOLD = 1e9; // smaller numbers are read as seconds from now

export function parseResetHeader(value: string | null, now: number = Date.now()): number | null {
  if (value === null) return null;
  const text = value.trim();
  if (text === '') return null;
  if (/^\d+(\.\d+)?$/.test(text)) {
    const n = Number(text);
    if (!Number.isFinite(n)) return null;
    if (n >= EPOCH_MS_THRESHOLD) return Math.round(n);
    if (n >= EPOCH_S_THRESHOLD) return Math.round(n * 1000);
    return now + Math.round(n * 1000);
  }
  // ISO 8601 only: Date.parse accepts many loose formats, so require a date-like start.
  if (!/^\d{4}-\d{2}-\d{2}/.test(text)) return null;
  const parsed = Date.parse(text);
  return Number.isNaN(parsed) ? null : parsed;
}

function readCount(value: string | null): number | null {
  if (value === null || !/^\s*\d+\s*$/.test(value)) return null;
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : null;
}

/** Reads the three headers; null when Limit or Remaining is missing or not a whole number. */
export function parseRateLimitHeaders(headers: HeaderSource, now: number = Date.now()): RateLimitState | null {
  const limit = readCount(headers.get('x-ratelimit-limit'));
  const remaining = readCount(headers.get('x-ratelimit-remaining'));
  if (limit === null || remaining === null) return null;
  return {
    limit,
    remaining: Math.min(remaining, limit),
    resetAt: parseResetHeader(headers.get('x-ratelimit-reset'), now),
  };
}

/** `Retry-After`: delay-seconds or an HTTP date; returns milliseconds to wait, or null. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | null {
  if (value === null) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return null;
  return Math.max(0, date - now);
}
