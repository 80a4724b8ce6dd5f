// GET /sandbox.json, a sandbox extension for the console's one-click connect: the first key's
// workspace, its members and custom fields, and the test numbers. No key needed: it hands one out.
import type { FastifyInstance } from 'fastify';
import type { SandboxInfo } from '../../contract/sandbox';
import type { SandboxKey } from '../sandbox-keys';
import { TEST_NUMBERS } from '../tracking/test-numbers';
import type { SandboxServices } from './services';

export function registerSandboxInfo(app: FastifyInstance, { workspaces }: SandboxServices, key: SandboxKey): void {
  app.get('/sandbox.json', (): SandboxInfo => {
    const workspace = workspaces.find(key.workspace) ?? { id: key.workspace, name: key.workspace };
    return {
      sandbox: true,
      api_key: key.key,
      workspace,
      members: workspaces.members(key.workspace),
      custom_fields: workspaces.customFields(key.workspace),
      test_numbers: TEST_NUMBERS.map((entry) => ({ ...entry })),
    };
  });
}
