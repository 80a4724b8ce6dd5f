import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, test } from 'vitest';
import { buildApp } from '../app';
import { testConfig } from '../config';
import { drawFault, faultsOfMessage, isFaultReportAsked, seededRandom } from './faults';
import { AUTH, importList, sandbox } from '../test-support';

const ROW = { reference: 'F-1', tracking_number: 'MSCU1234566', tracking_type: 'container', carrier_scac: 'MSCU' };

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe('SANDBOX_FAULTS', () => {
  test('draws faults by their shares, in the order 500, 429, slow, drop', () => {
    const shares = { '500': 0.1, '429': 0.2, slow: 0.3, drop: 0.1 };
    expect(drawFault(shares, 0.05)).toBe('500');
    expect(drawFault(shares, 0.25)).toBe('429');
    expect(drawFault(shares, 0.55)).toBe('slow');
    expect(drawFault(shares, 0.65)).toBe('drop');
    expect(drawFault(shares, 0.75)).toBeNull();
  });

  test('500: the request is refused before it is handled', async () => {
    app = await sandbox({ faults: { '500': 1 } });
    const response = await importList(app, [ROW]);
    expect(response.statusCode).toBe(500);
    expect(response.json()).toMatchObject({ errors: [{ code: 'internal' }] });
  });

  test('429: a rate-limit answer with Retry-After', async () => {
    app = await sandbox({ faults: { '429': 1 } });
    const response = await app.inject({ url: '/api/v1/shipments', headers: AUTH });
    expect(response.statusCode).toBe(429);
    expect(response.headers['retry-after']).toBe('1');
    expect(response.json()).toMatchObject({ errors: [{ code: 'rate_limited' }] });
  });

  test('slow: the answer is held back', async () => {
    app = await sandbox({ faults: { slow: 1 }, faultSlowMs: 150 });
    const started = Date.now();
    const response = await app.inject({ url: '/api/v1/shipments', headers: AUTH });
    expect(response.statusCode).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  test('drop: the connection is cut after the request took effect', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-faults-'));
    try {
      const dbPath = join(dir, 'store.sqlite');
      app = await sandbox({ dbPath, faults: { drop: 1 } });
      await expect(importList(app, [ROW])).rejects.toMatchObject({ code: 'LIGHT_ECONNRESET' });
      await expect(app.inject({ url: '/api/v1/shipments', headers: AUTH })).rejects.toMatchObject({ code: 'LIGHT_ECONNRESET' });
      await app.close();

      // The batch was stored before the response was cut; the restarted sandbox finishes it.
      const restarted = await sandbox({ dbPath });
      app = restarted;
      await expect
        .poll(async () => (await restarted.inject({ url: '/api/v1/shipments', headers: AUTH })).json<{ data: unknown[] }>().data)
        .toMatchObject([{ reference: 'F-1', last_process_status: 'track_succeeded' }]);
    } finally {
      await app?.close();
      app = undefined;
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('drop over a real connection: the cut is final, with no error answer tried on the cut response', async () => {
    // The soak's sandbox logged MaxListenersExceededWarning (11 close listeners on one
    // ServerResponse) and "Premature close" errors for every dropped import: the cut made Fastify
    // treat the response as failed and send an error answer, which the drop cut again, and again.
    const server = await buildApp(testConfig({ faults: { drop: 1 } }));
    app = server;
    let sends = 0;
    server.addHook('onSend', async (_request, _reply, payload) => {
      sends++;
      return payload;
    });
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
    process.on('warning', onWarning);
    try {
      const address = await server.listen({ host: '127.0.0.1', port: 0 });
      const post = fetch(`${address}/api/v1/shipments/imports`, {
        method: 'POST',
        headers: { ...AUTH, 'content-type': 'application/json' },
        body: JSON.stringify([ROW]),
      });
      await expect(post).rejects.toThrow();
      // Warnings are emitted on a later tick than the listener that crossed the limit.
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect({ sends, warnings }).toEqual({ sends: 1, warnings: [] });
    } finally {
      process.off('warning', onWarning);
    }
  });

  test('faults touch /api/v1 only, never /sandbox.json', async () => {
    app = await sandbox({ faults: { '500': 1 } });
    expect((await app.inject({ url: '/sandbox.json' })).statusCode).toBe(200);
  });

  test('no fault is injected unless SANDBOX_FAULTS is set', async () => {
    const plain = await sandbox();
    app = plain;
    for (let i = 0; i < 20; i++) expect((await plain.inject({ url: '/api/v1/shipments', headers: AUTH })).statusCode).toBe(200);
  });

  test('switched while the server runs: on, counted, off; absent where SANDBOX_FAULTS was not set', async () => {
    app = await sandbox({ faults: {} });
    const faults = app.sandboxFaults!;
    expect((await app.inject({ url: '/api/v1/shipments', headers: AUTH })).statusCode).toBe(200);
    faults.set({ '500': 1 });
    expect((await app.inject({ url: '/api/v1/shipments', headers: AUTH })).statusCode).toBe(500);
    faults.set(null);
    expect((await app.inject({ url: '/api/v1/shipments', headers: AUTH })).statusCode).toBe(200);
    expect(faults.injected).toEqual([{ kind: '500', method: 'GET', url: '/api/v1/shipments' }]);
    const plain = await sandbox();
    try {
      expect(plain.sandboxFaults).toBeNull();
    } finally {
      await plain.close();
    }
  });

  test('an IPC message names the shares as SANDBOX_FAULTS does; any other message is not one', () => {
    expect(faultsOfMessage({ sandboxFaults: 'drop:1' })).toEqual({ shares: { drop: 1 }, random: undefined });
    expect(faultsOfMessage({ sandboxFaults: 'off' })).toEqual({ shares: null, random: undefined });
    const seeded = faultsOfMessage({ sandboxFaults: '500:0.5', seed: 7 })?.random;
    const again = seededRandom(7);
    expect([seeded?.(), seeded?.()]).toEqual([again(), again()]);
    expect(faultsOfMessage({ sandboxFaults: 'fire:1' })).toBeUndefined();
    expect(faultsOfMessage({ other: 1 })).toBeUndefined();
    expect(faultsOfMessage('drop:1')).toBeUndefined();
    expect(isFaultReportAsked({ sandboxFaultsReport: true })).toBe(true);
    expect(isFaultReportAsked({ sandboxFaults: 'off' })).toBe(false);
  });
});
