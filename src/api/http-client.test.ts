import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { HttpError, InvalidResponseError, NetworkError } from './api-error';
import { type HttpDeps, request } from './http-client';
import { RateLimitBudget } from './rate-limit-budget';

const target = { baseUrl: 'https://api.example.com', apiKey: 'secret-key-123' };
const schema = z.object({ ok: z.boolean() });

function harness(responses: Array<Response | Error>) {
  let clock = 1_800_000_000_000;
  const waits: number[] = [];
  const sleep = vi.fn((ms: number) => {
    waits.push(ms);
    clock += ms;
    return Promise.resolve();
  });
  const fetch = vi.fn((..._args: Parameters<typeof globalThis.fetch>) => {
    const next = responses.shift();
    if (!next) return Promise.reject(new Error('no more responses'));
    return next instanceof Error ? Promise.reject(next) : Promise.resolve(next);
  });
  const now = () => clock;
  const deps: HttpDeps = { fetch, sleep, random: () => 0.5, now, budget: new RateLimitBudget(now, sleep) };
  return { deps, fetch, waits };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

describe('request', () => {
  it('sends the key only in the Authorization header and parses the body', async () => {
    const { deps, fetch } = harness([json(200, { ok: true })]);
    await expect(request(target, { path: '/api/v1/shipments', query: { page: 2, batch_id: undefined }, schema }, deps)).resolves.toEqual({ ok: true });
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe('https://api.example.com/api/v1/shipments?page=2');
    expect(url as string).not.toContain('secret');
    expect((init?.headers as Record<string, string>).Authorization).toBe('Bearer secret-key-123');
  });

  it('waits for Retry-After on a 429 and then succeeds', async () => {
    const { deps, waits } = harness([json(429, { errors: [{ code: 'rate_limited', message: 'slow down' }] }, { 'Retry-After': '7' }), json(200, { ok: true })]);
    await expect(request(target, { path: '/x', schema }, deps)).resolves.toEqual({ ok: true });
    expect(waits).toEqual([7000]);
  });

  it('holds requests back while the announced budget is empty, until the window resets', async () => {
    const reset = Math.floor(1_800_000_000_000 / 1000) + 30;
    const { deps, waits } = harness([
      json(200, { ok: true }, { 'X-RateLimit-Limit': '20', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': String(reset) }),
      json(200, { ok: true }),
    ]);
    await request(target, { path: '/a', schema }, deps);
    await request(target, { path: '/b', schema }, deps);
    expect(waits).toEqual([30_000]);
  });

  it('retries a GET after 5xx and network errors with growing, capped backoff', async () => {
    const { deps, waits, fetch } = harness([new TypeError('fetch failed'), json(503, {}), json(200, { ok: true })]);
    await expect(request(target, { path: '/x', schema }, deps)).resolves.toEqual({ ok: true });
    expect(fetch).toHaveBeenCalledTimes(3);
    expect(waits[1]!).toBeGreaterThan(waits[0]!);
  });

  it('does not retry a POST whose answer may have been lost, and says no answer came', async () => {
    const { deps, fetch } = harness([new TypeError('socket hang up'), json(200, { ok: true })]);
    await expect(request(target, { method: 'POST', path: '/x', json: [], schema }, deps)).rejects.toThrow(NetworkError);
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('turns an error body into a typed error with the service sentence', async () => {
    const { deps } = harness([json(422, { errors: [{ code: 'invalid_file', message: 'The header tracking_type is missing.', target: 'tracking_type' }] })]);
    const error = await request(target, { method: 'POST', path: '/x', schema }, deps).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: 422, code: 'invalid_file', target: 'tracking_type', message: 'The header tracking_type is missing.' });
  });

  it('falls back to the raw text for an error body of another shape', async () => {
    const { deps } = harness([new Response('<html>Bad request</html>', { status: 400, statusText: 'Bad Request' })]);
    await expect(request(target, { path: '/x', schema }, deps)).rejects.toThrow('The service answered 400 Bad Request: <html>Bad request</html>');
  });

  it('reads the real service\'s shapes: upper-case codes with a suggested fix, and {"detail"}', async () => {
    const { deps } = harness([
      json(400, { errors: [{ code: 'CARRIER_SCAC_REQUIRED', message: 'Carrier SCAC is required for bill_of_lading', target: 'carrier_scac', suggested_fix: 'Add the carrier SCAC' }] }),
      json(400, { detail: 'Invalid page.' }),
    ]);
    const upper = await request(target, { method: 'POST', path: '/x', schema }, deps).catch((e: unknown) => e);
    expect(upper).toMatchObject({
      status: 400, code: 'CARRIER_SCAC_REQUIRED', target: 'carrier_scac', suggestedFix: 'Add the carrier SCAC',
      message: 'Carrier SCAC is required for bill_of_lading. Suggested fix: Add the carrier SCAC.',
    });
    await expect(request(target, { method: 'POST', path: '/x', schema }, deps)).rejects.toThrow(new HttpError(400, 'Invalid page.', null, null));
  });

  it.each([401, 403])('stops at a %i without retrying, saying the key was refused or API access is not enabled', async (status) => {
    const { deps, fetch } = harness([new Response('', { status }), json(200, { ok: true })]);
    const error = await request(target, { path: '/x', schema }, deps).catch((e: unknown) => e);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(error).toMatchObject({ status, keyRefused: true, message: `The service refused the API key, or API access is not enabled for this account (${status}).` });
  });

  it('sends no Authorization header when the server holds the key', async () => {
    const { deps, fetch } = harness([json(200, { ok: true })]);
    await request({ baseUrl: '', apiKey: '' }, { path: '/api/v1/shipments', schema }, deps);
    expect(fetch.mock.calls[0]?.[1]?.headers).not.toHaveProperty('Authorization');
  });

  it('refuses a 2xx body that is not the documented shape, naming where', async () => {
    const { deps } = harness([json(200, { ok: 'yes' })]);
    await expect(request(target, { path: '/x', schema }, deps)).rejects.toThrow(new InvalidResponseError('GET /x answered in an unexpected shape at ok: Invalid input: expected boolean, received string.'));
  });
});
