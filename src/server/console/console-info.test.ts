import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, test } from 'vitest';
import { consoleInfoSchema } from '../../contract/sandbox';
import { sandbox } from '../test-support';

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe('GET /console.json', () => {
  test('the sandbox says it is one, with no key, so the console asks its /sandbox.json; by default it runs the console\'s jobs', async () => {
    app = await sandbox();
    const response = await app.inject({ url: '/console.json' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ mode: 'sandbox', runs_jobs: true });
    expect(consoleInfoSchema.parse(response.json())).toEqual({ mode: 'sandbox', runs_jobs: true });
  });

  test('with CONSOLE_RUNS_JOBS off, it says the browser runs its own jobs; an older server that says nothing runs none', async () => {
    app = await sandbox({ consoleRunsJobs: false });
    expect((await app.inject({ url: '/console.json' })).json()).toEqual({ mode: 'sandbox', runs_jobs: false });
    expect(consoleInfoSchema.parse({ mode: 'sandbox' })).toEqual({ mode: 'sandbox', runs_jobs: false });
  });
});
