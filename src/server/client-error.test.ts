// Over a real socket: inject() never meets Node's HTTP parser, which refuses these requests.
import { connect } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { errorBodySchema } from '../contract/error-body';
import { AUTH, importList, sandbox, waitForBatch } from './test-support';

let app: FastifyInstance;
let address = '';
beforeAll(async () => {
  app = await sandbox();
  address = await app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => app.close());

/** Writes raw bytes and reads until the server closes, for requests fetch() will not send. */
function rawExchange(request: string): Promise<string> {
  const { hostname, port } = new URL(address);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(request));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

describe('requests the HTTP parser refuses', () => {
  test('a URL over 16 KB is a 431 with an errors body naming the limit and the way round it', async () => {
    const response = await fetch(`${address}/api/v1/shipments/reference/${'R'.repeat(17_000)}`, {
      method: 'PATCH',
      headers: { ...AUTH, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'x' }),
    });
    expect(response.status).toBe(431);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const body = errorBodySchema.parse(await response.json());
    expect(body).toEqual({
      errors: [
        {
          code: 'too_large',
          message: "The request's URL and headers are over 16 KB, more than this service reads.",
          target: null,
          suggested_fix: 'Shorten the URL: a shipment whose reference is this long can be updated by its id (PATCH /api/v1/shipments/id/{id}).',
        },
      ],
    });
  });

  test('a malformed request is a 400 with an errors body', async () => {
    const answer = await rawExchange('NOT HTTP AT ALL\r\n\r\n');
    const [head = '', json = ''] = answer.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(JSON.parse(json)).toEqual({ errors: [{ code: 'bad_request', message: 'The request could not be read as HTTP.', target: null }] });
  });

  test('a reference within the URL limit is updated over the network, far past the 100 characters of Fastify’s default', async () => {
    const reference = `REF-${'7'.repeat(12_000)}`;
    const batch = await waitForBatch(app, (await importList(app, [{ reference, tracking_number: 'MSCU1234566', tracking_type: 'container', carrier_scac: 'MSCU' }])).json<{ id: string }>().id);
    const response = await fetch(`${address}/api/v1/shipments/reference/${reference}`, {
      method: 'PATCH',
      headers: { ...AUTH, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Long reference' }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ id: batch.results[0]?.shipment_id, name: 'Long reference' });
  });
});
