// GET /sandbox.json, a sandbox extension for the console's one-click connect: the first key's
// workspace, its members and custom fields, and the test numbers. No key needed: it hands one out.
import type { FastifyInstance } from 'fastify';
import type { SandboxInfo } from '../../../contract/sandbox';
import type { SandboxKey } from '../sandbox-keys';
import { TEST_NUMBERS } from '../tracking/test-numbers';
import type { SandboxServices } from './services';

export function registerSandboxInfo(app: FastifyInstance, { workspaces, config }: SandboxServices, key: SandboxKey): void {
  app.get('/sandbox.json', (): SandboxInfo => {
    const workspace = workspaces.find(key.workspace) ?? { id: key.workspace, name: key.workspace };
    return {
      sandbox: true,
      api_key: key.key,
      workspace,
      members: workspaces.members(key.workspace),
      custom_fields: workspaces.customFields(key.workspace),
      test_numbers: TEST_NUMBERS.map((entry) => ({ ...entry })),
      // The caps an upload meets (DESIGN §3), so the console cuts its chunks to fit at once
      // instead of learning them from a 413 and splitting.
      max_batch_rows: config.maxBatchRows,
      max_file_bytes: config.maxFileBytes,
    };
  });
}
