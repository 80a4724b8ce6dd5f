import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import type { RememberedMapping, RememberedMappingList } from '../../contract/remembered-mapping';
import { headerFingerprint } from '../../spreadsheet/remembered-mapping';
import { buildApp } from '../app';
import { testConfig, type ServerConfig } from '../config';
import { AUTH } from '../test-support';
import { CONSOLE_MIGRATIONS, ConsoleStore, REMEMBERED_MAPPINGS_LIMIT } from './console-store';

const KEY_A = 'workspace-a-key-0000000001';
const KEY_B = 'workspace-b-key-0000000002';
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const HEADER = ['Equipment', 'Basis', 'Order', 'Operator', 'Cargo'];
const FINGERPRINT = headerFingerprint(HEADER);
// Recent: the server forgets mappings older than CONSOLE_KEEP_DAYS.
const SENT_AT = Date.now() - 60_000;

function mapping(overrides: Partial<RememberedMapping> = {}): RememberedMapping {
  return {
    fingerprint: FINGERPRINT,
    fileName: 'weekly-46.csv',
    sheet: null,
    headerRow: 0,
    columns: [
      { header: 'Equipment', target: 'tracking_number' },
      { header: 'Basis', target: 'tracking_type' },
      { header: 'Order', target: 'reference' },
      { header: 'Operator', target: 'carrier' },
      { header: 'Cargo', target: null },
    ],
    savedAt: SENT_AT,
    savedBy: 'Ana',
    ...overrides,
  };
}

const dirs: string[] = [];
const apps: FastifyInstance[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

async function consoleServer(overrides: Partial<ServerConfig> = {}): Promise<FastifyInstance> {
  const app = await buildApp(testConfig(overrides), { fetchUpstream: () => Promise.reject(new Error('no upstream in this test')) });
  apps.push(app);
  return app;
}

const URL = `/console/api/mappings/${FINGERPRINT}`;
const put = (app: FastifyInstance, body: unknown, headers: Record<string, string> = AUTH, url = URL) =>
  app.inject({ method: 'PUT', url, payload: JSON.stringify(body), headers: { ...headers, 'content-type': 'application/json' } });
const list = async (app: FastifyInstance, headers: Record<string, string> = AUTH) =>
  (await app.inject({ method: 'GET', url: '/console/api/mappings', headers })).json<RememberedMappingList>().data;
const sentence = (response: { json: <T>() => T }) => response.json<{ errors: { message: string }[] }>().errors[0]?.message;

describe('remembered mappings on the console server', () => {
  test('a mapping kept by one browser is listed for the workspace, replaced only by a newer one, and forgotten', async () => {
    const app = await consoleServer();
    expect(await list(app)).toEqual([]);
    expect((await put(app, mapping())).json()).toEqual(mapping());
    expect(await list(app)).toEqual([mapping()]);

    // A browser that writes late with an older record does not undo the newer one.
    await put(app, mapping({ fileName: 'weekly-47.csv', savedAt: mapping().savedAt + 1 }));
    await put(app, mapping({ fileName: 'weekly-45.csv', savedAt: mapping().savedAt - 1 }));
    expect((await list(app)).map((m) => m.fileName)).toEqual(['weekly-47.csv']);

    expect((await app.inject({ method: 'DELETE', url: URL, headers: AUTH })).statusCode).toBe(204);
    expect(await list(app)).toEqual([]);
    expect((await app.inject({ method: 'DELETE', url: URL, headers: AUTH })).statusCode).toBe(204);
  });

  test('a record from a clock that runs ahead is kept as of now, so a later mapping still replaces it', async () => {
    const app = await consoleServer();
    await put(app, mapping({ fileName: 'from-the-future.csv', savedAt: Date.now() + 365 * 86_400_000 }));
    await put(app, mapping({ fileName: 'next-week.csv', savedAt: Date.now() + 1_000 }));
    expect((await list(app)).map((m) => m.fileName)).toEqual(['next-week.csv']);
  });

  test("two workspaces never see or forget each other's mappings", async () => {
    const app = await consoleServer({ apiKeys: [{ key: KEY_A, workspace: 'a' }, { key: KEY_B, workspace: 'b' }] });
    await put(app, mapping(), bearer(KEY_A));
    expect(await list(app, bearer(KEY_B))).toEqual([]);
    await app.inject({ method: 'DELETE', url: URL, headers: bearer(KEY_B) });
    await put(app, mapping({ fileName: 'other.csv', savedAt: 1 }), bearer(KEY_B));
    expect((await list(app, bearer(KEY_A))).map((m) => m.fileName)).toEqual(['weekly-46.csv']);
    expect((await list(app, bearer(KEY_B))).map((m) => m.fileName)).toEqual(['other.csv']);
  });

  test('refuses a request without a key the sandbox knows', async () => {
    const app = await consoleServer();
    expect((await app.inject({ method: 'GET', url: '/console/api/mappings' })).statusCode).toBe(401);
    expect((await put(app, mapping(), bearer('not-a-key-of-this-sandbox'))).statusCode).toBe(401);
  });

  test('answers a bad body with a sentence, and keeps nothing', async () => {
    const app = await consoleServer();
    const badTarget = await put(app, mapping({ columns: [{ header: 'Equipment', target: 'container' }] }));
    expect(badTarget.statusCode).toBe(400);
    expect(sentence(badTarget)).toBe('columns.0.target: a target is a spec header or cf_<slug>');
    const noName = await put(app, { ...mapping(), fileName: undefined });
    expect(noName.statusCode).toBe(400);
    expect(sentence(noName)).toMatch(/^fileName: /);
    const wrongPrint = await put(app, mapping({ columns: [{ header: 'Vessel', target: null }] }));
    expect(wrongPrint.statusCode).toBe(400);
    expect(sentence(wrongPrint)).toMatch(/^The fingerprint does not match the mapping's headers: they give [0-9a-f]{16}\.$/);
    expect((await put(app, mapping(), AUTH, '/console/api/mappings/<script>')).statusCode).toBe(400);
    const notJson = await app.inject({ method: 'PUT', url: URL, payload: '{"fingerprint":', headers: { ...AUTH, 'content-type': 'application/json' } });
    expect(notJson.statusCode).toBe(400);
    expect(await list(app)).toEqual([]);
  });

  test('the name from the single-sign-on header wins over the typed one', async () => {
    const app = await consoleServer({ consoleUserHeader: 'x-forwarded-email' });
    await put(app, mapping(), { ...AUTH, 'x-forwarded-email': 'ana@example.com' });
    expect((await list(app))[0]?.savedBy).toBe('ana@example.com');
  });

  test('survives a restart of the console server', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'console-mappings-'));
    dirs.push(dir);
    const consoleDbPath = join(dir, 'console.sqlite');
    const first = await consoleServer({ consoleDbPath });
    await put(first, mapping());
    await first.close();
    const second = await consoleServer({ consoleDbPath });
    expect(await list(second)).toEqual([mapping()]);
  });
});

describe('the console store', () => {
  test('opens a store made before remembered mappings existed, keeping its jobs', () => {
    const dir = mkdtempSync(join(tmpdir(), 'console-mappings-'));
    dirs.push(dir);
    const path = join(dir, 'console.sqlite');
    const old = new Database(path);
    old.exec(CONSOLE_MIGRATIONS[0] ?? '');
    old.pragma('user_version = 1');
    old.prepare("INSERT INTO settings (name, value) VALUES ('kept', x'01')").run();
    old.close();
    const store = new ConsoleStore(path);
    expect(store.secret('kept')).toEqual(Buffer.from([1]));
    expect(store.rememberMapping('w', mapping())).toEqual(mapping());
    store.close();
  });

  test('forgets mappings not remembered again for the kept days, and the oldest beyond the limit', () => {
    const store = new ConsoleStore(':memory:');
    store.rememberMapping('w', mapping({ savedAt: 1_000 }));
    const other = ['Container', 'Kind'];
    store.rememberMapping('w', mapping({ fingerprint: headerFingerprint(other), columns: other.map((header) => ({ header, target: null })), savedAt: 5_000 }));
    expect(store.forgetMappingsOlderThan(2_000)).toBe(1);
    expect(store.mappings('w').map((m) => m.savedAt)).toEqual([5_000]);
    for (let n = 0; n < REMEMBERED_MAPPINGS_LIMIT; n++) {
      const header = [`Column ${n}`];
      store.rememberMapping('w', mapping({ fingerprint: headerFingerprint(header), columns: [{ header: header[0] ?? '', target: null }], savedAt: 10_000 + n }));
    }
    const kept = store.mappings('w');
    expect(kept).toHaveLength(REMEMBERED_MAPPINGS_LIMIT);
    expect(kept.at(-1)?.savedAt).toBe(10_000);
    store.close();
  });
});
