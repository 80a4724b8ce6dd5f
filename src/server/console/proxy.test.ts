import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, test } from 'vitest';
import type { Batch } from '../../contract/batch';
import { buildApp } from '../app';
import { loadConfig, testConfig } from '../config';
import { AUTH, multipartBody, sandbox, DEMO_API_KEY } from '../test-support';

const UPSTREAM = 'https://tracking.example.com';

let upstream: FastifyInstance | undefined;
let proxy: FastifyInstance | undefined;
afterEach(async () => {
  await proxy?.close();
  await upstream?.close();
  proxy = upstream = undefined;
});

/** A fetch that answers from an in-process sandbox, recording what reached it. */
function fetchInto(target: FastifyInstance, seen: { url: string; headers: Headers }[]): typeof fetch {
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : input);
    const headers = new Headers(init?.headers);
    seen.push({ url: url.toString(), headers });
    const body = init?.body ? Buffer.from(await new Response(init.body).arrayBuffer()) : undefined;
    const response = await target.inject({
      method: (init?.method ?? 'GET') as 'GET',
      url: `${url.pathname}${url.search}`,
      headers: Object.fromEntries(headers),
      payload: body,
    });
    const responseHeaders = new Headers();
    for (const [name, value] of Object.entries(response.headers)) if (typeof value === 'string') responseHeaders.set(name, value);
    return new Response(new Uint8Array(response.rawPayload), { status: response.statusCode, headers: responseHeaders });
  };
}

describe('proxy mode (UPSTREAM_URL)', () => {
  test('forwards an import’s Idempotency-Key, so a service that honours it answers a repeat with the first batch', async () => {
    upstream = await sandbox();
    const seen: { url: string; headers: Headers }[] = [];
    proxy = await buildApp(testConfig({ upstreamUrl: UPSTREAM }), { fetchUpstream: fetchInto(upstream, seen) });
    const send = () =>
      proxy!.inject({
        method: 'POST',
        url: '/api/v1/shipments/imports',
        headers: { ...AUTH, 'content-type': 'application/json', 'idempotency-key': 'job-9:0' },
        payload: JSON.stringify([{ reference: 'PX-9', tracking_number: 'MSCU1234566', tracking_type: 'container', carrier_scac: 'MSCU' }]),
      });
    const first = await send();
    const again = await send();
    expect(seen[0]?.headers.get('idempotency-key')).toBe('job-9:0');
    expect(again.statusCode).toBe(202);
    expect(again.json<Batch>().id).toBe(first.json<Batch>().id);
    expect(again.headers['idempotent-replayed']).toBe('true');
  });

  test('forwards /api/v1 with the Authorization header, keeping status, body and rate-limit headers', async () => {
    upstream = await sandbox();
    const seen: { url: string; headers: Headers }[] = [];
    proxy = await buildApp(testConfig({ upstreamUrl: UPSTREAM }), { fetchUpstream: fetchInto(upstream, seen) });

    const created = await proxy.inject({
      method: 'POST',
      url: '/api/v1/shipments/imports',
      headers: { ...AUTH, 'content-type': 'application/json', cookie: 'not=forwarded' },
      payload: JSON.stringify([{ reference: 'PX-1', tracking_number: 'MSCU1234566', tracking_type: 'container', carrier_scac: 'MSCU' }]),
    });
    expect(created.statusCode).toBe(202);
    expect(created.json<Batch>().status).toBe('processing');
    expect(created.headers['x-ratelimit-limit']).toBe('20');
    expect(seen[0]?.url).toBe(`${UPSTREAM}/api/v1/shipments/imports`);
    expect(seen[0]?.headers.get('authorization')).toBe(AUTH.authorization);
    expect(seen[0]?.headers.get('cookie')).toBeNull();

    const listed = await proxy.inject({ url: '/api/v1/shipments/?page_size=5', headers: AUTH });
    expect(listed.statusCode).toBe(200);
    expect(seen[1]?.url).toBe(`${UPSTREAM}/api/v1/shipments/?page_size=5`);

    const refused = await proxy.inject({ url: '/api/v1/shipments' });
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ errors: [{ code: 'unauthorized' }] });
  });

  test('streams a multipart upload through unchanged', async () => {
    upstream = await sandbox();
    proxy = await buildApp(testConfig({ upstreamUrl: UPSTREAM }), { fetchUpstream: fetchInto(upstream, []) });
    const body = multipartBody('tracking_number,tracking_type\nMSCU1234566,container\n', 'a.csv');
    const response = await proxy.inject({ method: 'POST', url: '/api/v1/shipments/imports/file', payload: body.payload, headers: { ...AUTH, ...body.headers } });
    expect(response.statusCode).toBe(202);
    expect(response.json<Batch>().total_requests).toBe(1);
  });

  test('answers 502 upstream_unavailable when the service cannot be reached', async () => {
    const unreachable: typeof fetch = () => Promise.reject(new TypeError('fetch failed'));
    proxy = await buildApp(testConfig({ upstreamUrl: UPSTREAM }), { fetchUpstream: unreachable });
    const response = await proxy.inject({ url: '/api/v1/shipments', headers: AUTH });
    expect(response.statusCode).toBe(502);
    expect(response.json()).toEqual({
      errors: [{ code: 'upstream_unavailable', message: expect.stringContaining('tracking.example.com') as string, target: null }],
    });
  });

  test('serves no sandbox: /sandbox.json is 404', async () => {
    proxy = await buildApp(testConfig({ upstreamUrl: UPSTREAM }), { fetchUpstream: () => Promise.reject(new Error('unused')) });
    expect((await proxy.inject({ url: '/sandbox.json' })).statusCode).toBe(404);
  });

  test('passes a 403 through as the service sent it, like a 401', async () => {
    const disabled = 'key-that-is-disabled-0003';
    upstream = await sandbox({ disabledKeys: [disabled] });
    proxy = await buildApp(testConfig({ upstreamUrl: UPSTREAM }), { fetchUpstream: fetchInto(upstream, []) });
    const response = await proxy.inject({ url: '/api/v1/shipments', headers: { authorization: `Bearer ${disabled}` } });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ errors: [{ code: 'forbidden', message: expect.stringContaining('API access is not enabled') as string }] });
  });

  test('without UPSTREAM_API_KEY, /console.json says the browser brings the key', async () => {
    proxy = await buildApp(testConfig({ upstreamUrl: UPSTREAM }), { fetchUpstream: () => Promise.reject(new Error('unused')) });
    expect((await proxy.inject({ url: '/console.json' })).json()).toEqual({ mode: 'proxy', service: 'tracking.example.com', key_held_by_server: false, runs_jobs: true });
  });
});

describe('proxy mode with UPSTREAM_API_KEY: the server holds the key', () => {
  test('sends its own key upstream, whatever the browser sends, and says so in /console.json', async () => {
    upstream = await sandbox();
    const seen: { url: string; headers: Headers }[] = [];
    proxy = await buildApp(testConfig({ upstreamUrl: UPSTREAM, upstreamApiKey: DEMO_API_KEY }), { fetchUpstream: fetchInto(upstream, seen) });

    const info = await proxy.inject({ url: '/console.json' });
    expect(info.json()).toEqual({ mode: 'proxy', service: 'tracking.example.com', key_held_by_server: true, runs_jobs: true });
    expect(info.body).not.toContain(DEMO_API_KEY);

    const keyless = await proxy.inject({ url: '/api/v1/shipments' });
    expect(keyless.statusCode).toBe(200);
    expect(seen[0]?.headers.get('authorization')).toBe(`Bearer ${DEMO_API_KEY}`);
    const otherKey = await proxy.inject({ url: '/api/v1/shipments', headers: { authorization: 'Bearer someone-elses-key-000' } });
    expect(otherKey.statusCode).toBe(200);
    expect(seen[1]?.headers.get('authorization')).toBe(`Bearer ${DEMO_API_KEY}`);
  });

  test('UPSTREAM_API_KEY without UPSTREAM_URL stops the server with a sentence', () => {
    expect(() => loadConfig({ UPSTREAM_API_KEY: 'a-key' })).toThrow(/UPSTREAM_API_KEY: set UPSTREAM_URL too/);
    expect(loadConfig({ UPSTREAM_URL: UPSTREAM, UPSTREAM_API_KEY: ' a-key ' }).upstreamApiKey).toBe('a-key');
  });
});
