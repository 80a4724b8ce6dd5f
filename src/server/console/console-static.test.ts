import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { sandbox } from '../test-support';

const INDEX = '<!doctype html><title>console</title>';
let dir = '';
let app: FastifyInstance;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'console-dist-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), INDEX);
  writeFileSync(join(dir, 'assets', 'main-abc123.js'), 'console.log(1);');
  app = await sandbox({ consoleDir: dir });
});
afterAll(async () => {
  await app.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the built console (dist/)', () => {
  test('serves index.html at / for revalidation, and hashed assets for a year', async () => {
    const index = await app.inject({ url: '/' });
    expect([index.statusCode, index.body, index.headers['cache-control']]).toEqual([200, INDEX, 'no-cache']);
    const asset = await app.inject({ url: '/assets/main-abc123.js' });
    expect([asset.statusCode, asset.body, asset.headers['cache-control']]).toEqual([200, 'console.log(1);', 'public, max-age=31536000, immutable']);
  });

  test('answers a page of the console with index.html, and anything else with a 404 errors body', async () => {
    const page = await app.inject({ url: '/imports/some-job', headers: { accept: 'text/html', cookie: 'theme=dark' } });
    expect([page.statusCode, page.body]).toEqual([200, INDEX]);
    const missing = await app.inject({ url: '/nothing.json', cookies: { theme: 'dark' } });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ errors: [{ code: 'not_found', message: 'There is no GET /nothing.json here.', target: null }] });
  });
});
