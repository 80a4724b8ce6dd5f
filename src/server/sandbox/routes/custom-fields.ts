// GET /api/v1/custom_fields, a sandbox extension: the workspace's custom fields, so the console
// can check cf_ headers before an upload.
import type { FastifyInstance } from 'fastify';
import type { CustomFieldList } from '../../../contract/sandbox';
import type { SandboxServices } from './services';

export function registerCustomFields(api: FastifyInstance, { workspaces }: SandboxServices): void {
  api.get('/custom_fields', (request): CustomFieldList => ({
    data: workspaces.customFields(request.workspaceId).map(({ slug, name }) => ({ slug, name })),
  }));
}
