import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { Batch } from '../../contract/batch';
import { AUTH, importList, sandbox, uploadFile, waitForBatch, warmParsePool } from '../test-support';

beforeAll(() => warmParsePool(), 60_000);

const ROW = { reference: 'RL-1', tracking_number: 'MSCU1234566', tracking_type: 'container', carrier_scac: 'MSCU' };
const CSV = 'tracking_number,tracking_type\nMSCU1234566,container\n';

/** The sandbox's own limits, as a client reaching it without the console's pacer in front meets them. */
const sandboxAlone = (overrides: Parameters<typeof sandbox>[0]) => sandbox({ ...overrides, consolePacer: false });

let app: FastifyInstance;
afterEach(async () => app.close());

function limitHeaders(response: LightMyRequestResponse) {
  return {
    limit: Number(response.headers['x-ratelimit-limit']),
    remaining: Number(response.headers['x-ratelimit-remaining']),
    reset: Number(response.headers['x-ratelimit-reset']),
  };
}

function expectRateLimited(response: LightMyRequestResponse, limit: number) {
  expect(response.statusCode).toBe(429);
  expect(response.json()).toMatchObject({ errors: [{ code: 'rate_limited', target: null }] });
  expect(Number(response.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  expect(limitHeaders(response)).toMatchObject({ limit, remaining: 0 });
}

describe('rate-limit headers', () => {
  test('every response carries the most constrained bucket, Reset in epoch seconds', async () => {
    app = await sandboxAlone({ hourlyLimit: 50, dailyLimit: 100 });
    const before = Math.floor(Date.now() / 1000);
    const first = await app.inject({ url: '/api/v1/shipments', headers: AUTH });
    // Bounded by the clock before and after the request: on a loaded machine it can take a second.
    const after = Math.ceil(Date.now() / 1000);
    expect(limitHeaders(first)).toMatchObject({ limit: 50, remaining: 49 });
    expect(limitHeaders(first).reset).toBeGreaterThanOrEqual(before + 3599);
    expect(limitHeaders(first).reset).toBeLessThanOrEqual(after + 3600);

    const imported = await importList(app, [ROW]);
    expect(imported.statusCode).toBe(202);
    expect(limitHeaders(imported)).toMatchObject({ limit: 20, remaining: 19 });

    const notFound = await app.inject({ url: '/api/v1/shipments/imports/00000000-0000-4000-8000-000000000000', headers: AUTH });
    expect(notFound.statusCode).toBe(404);
    expect(limitHeaders(notFound)).toMatchObject({ limit: 50, remaining: 47 });
  });
});

describe('buckets', () => {
  test('the hourly bucket covers every endpoint and answers 429 with Retry-After', async () => {
    app = await sandboxAlone({ hourlyLimit: 3 });
    for (let i = 0; i < 3; i++) expect((await app.inject({ url: '/api/v1/custom_fields', headers: AUTH })).statusCode).toBe(200);
    const refused = await importList(app, [ROW]);
    expectRateLimited(refused, 3);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3500);
  });

  test('the daily bucket applies when it is the smaller one', async () => {
    app = await sandboxAlone({ dailyLimit: 2 });
    await app.inject({ url: '/api/v1/shipments', headers: AUTH });
    await app.inject({ url: '/api/v1/shipments', headers: AUTH });
    const refused = await app.inject({ url: '/api/v1/shipments', headers: AUTH });
    expectRateLimited(refused, 2);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(86_000);
  });

  test('each import endpoint has its own window, and a refused request uses up nothing', async () => {
    app = await sandboxAlone({ importLimit: 2, importWindowS: 60, hourlyLimit: 10 });
    expect((await importList(app, [ROW])).statusCode).toBe(202);
    expect((await importList(app, [ROW])).statusCode).toBe(202);
    const refused = await importList(app, [ROW]);
    expectRateLimited(refused, 2);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);

    const file = await uploadFile(app, CSV);
    expect(file.statusCode).toBe(202);
    expect(limitHeaders(file)).toMatchObject({ limit: 2, remaining: 1 });
    // 2 imports + 1 refused + 1 file: the refused one did not count against the hourly bucket.
    const list = await app.inject({ url: '/api/v1/shipments', headers: AUTH });
    expect(limitHeaders(list)).toMatchObject({ limit: 10, remaining: 6 });
  });

  test('the window of an import bucket reopens', async () => {
    app = await sandboxAlone({ importLimit: 1, importWindowS: 1 });
    expect((await importList(app, [ROW])).statusCode).toBe(202);
    expect((await importList(app, [ROW])).statusCode).toBe(429);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await importList(app, [ROW])).statusCode).toBe(202);
  });

  test('PATCH by id and PATCH by reference each have their own bucket', async () => {
    app = await sandboxAlone({ patchLimit: 1 });
    const batch = await waitForBatch(app, (await importList(app, [ROW])).json<Batch>().id);
    const id = batch.results[0]?.shipment_id ?? '';
    const patch = (url: string) => app.inject({ method: 'PATCH', url, headers: AUTH, payload: { name: 'n' } });

    expect((await patch(`/api/v1/shipments/id/${id}`)).statusCode).toBe(200);
    expectRateLimited(await patch(`/api/v1/shipments/id/${id}`), 1);
    expect((await patch('/api/v1/shipments/reference/RL-1')).statusCode).toBe(200);
    expectRateLimited(await patch('/api/v1/shipments/reference/RL-1'), 1);
  });

  test('limits are per key', async () => {
    app = await sandboxAlone({
      importLimit: 1,
      apiKeys: [
        { key: 'first-key-000000000001', workspace: 'one' },
        { key: 'second-key-00000000002', workspace: 'two' },
      ],
    });
    expect((await importList(app, [ROW], { authorization: 'Bearer first-key-000000000001' })).statusCode).toBe(202);
    expect((await importList(app, [ROW], { authorization: 'Bearer first-key-000000000001' })).statusCode).toBe(429);
    expect((await importList(app, [ROW], { authorization: 'Bearer second-key-00000000002' })).statusCode).toBe(202);
  });
});
