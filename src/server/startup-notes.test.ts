import { describe, expect, test } from 'vitest';
import { testConfig } from './config';
import { DEMO_API_KEY } from './sandbox/sandbox-keys';
import { startupNotes } from './startup-notes';

describe('startupNotes', () => {
  const served = { consoleDir: '/srv/dist' };

  test('proxy mode with UPSTREAM_API_KEY says the server sends the key and browsers hold none', () => {
    const notes = startupNotes(testConfig({ ...served, upstreamUrl: 'https://api.example.com/v1', upstreamApiKey: 'secret-key' }));
    expect(notes).toEqual(['Proxy mode: /api/v1 is forwarded to https://api.example.com with the key from UPSTREAM_API_KEY; browsers connect without one and hold none.']);
    expect(notes.join('\n')).not.toContain('secret-key');
  });

  test('proxy mode without a server key tells each browser to bring its own', () => {
    expect(startupNotes(testConfig({ ...served, upstreamUrl: 'https://api.example.com' }))).toEqual([
      'Proxy mode: /api/v1 is forwarded to https://api.example.com; each browser connects with its own API key.',
    ]);
  });

  test('the sandbox prints its demo key, and says when dist/ is missing', () => {
    expect(startupNotes(testConfig(served))).toEqual([`Sandbox demo API key: ${DEMO_API_KEY} (workspace "demo")`]);
    expect(startupNotes(testConfig({ consoleDir: null }))).toContain('dist/ is missing: only the API is served. Run `npm start` to build the console.');
  });
});
