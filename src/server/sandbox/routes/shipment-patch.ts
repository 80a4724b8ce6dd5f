// PATCH /api/v1/shipments/id/:id and /api/v1/shipments/reference/:reference: set any of name,
// tags, viewers, assignees, custom_fields (null removes one) and get the shipment back.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from '../../../contract/error-body';
import { type CustomFieldType, customFieldValueProblem, isEmail } from '../../../contract/import-file';
import { shipmentPatchSchema, type ShipmentPatch } from '../../../contract/shipment';
import type { SandboxServices } from './services';

/** A problem that makes the whole update a 400 (message, target, suggested fix), or null. */
function patchProblem(patch: ShipmentPatch, members: ReadonlySet<string>, fields: ReadonlyMap<string, CustomFieldType>): [string, string, string?] | null {
  for (const column of ['viewers', 'assignees'] as const) {
    const notEmail = patch[column]?.find((email) => !isEmail(email));
    if (notEmail !== undefined) return [`"${notEmail}" in ${column} is not an e-mail address.`, column];
  }
  const stranger = patch.assignees?.find((email) => !members.has(email.toLowerCase()));
  if (stranger !== undefined) return [`${stranger} is not a member of this workspace and cannot be assigned.`, 'assignees'];
  const unknownField = Object.keys(patch.custom_fields ?? {}).find((slug) => !fields.has(slug));
  if (unknownField !== undefined) return [`There is no custom field "${unknownField}" in this workspace.`, `custom_fields.${unknownField}`];
  // Typed custom fields, as on the real service (CUSTOM_FIELD_INVALID_TYPE); null removes a value.
  for (const [slug, value] of Object.entries(patch.custom_fields ?? {})) {
    const wrongType = value === null ? null : customFieldValueProblem(fields.get(slug) ?? 'text', value);
    if (wrongType) return [`custom_fields.${slug}: ${wrongType}.`, `custom_fields.${slug}`, 'Write the date as YYYY-MM-DD, e.g. 2026-01-31.'];
  }
  return null;
}

export function registerShipmentPatch(api: FastifyInstance, { shipments, workspaces }: SandboxServices): void {
  const update = (key: 'id' | 'reference') => async (request: FastifyRequest<{ Params: Record<string, string> }>, reply: FastifyReply) => {
    const value = request.params[key] ?? '';
    const by = key === 'id' ? { id: value } : { reference: value };
    const found = shipments.get(request.workspaceId, by);
    if (!found) {
      const what = 'id' in by ? `id ${by.id}` : `reference ${by.reference}`;
      return reply.code(404).send(errorBody('not_found', `There is no shipment with ${what} in this workspace.`));
    }
    const parsed = shipmentPatchSchema.safeParse(request.body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const target = issue?.path.length ? issue.path.join('.') : null;
      const message = issue?.code === 'unrecognized_keys' ? `Only name, tags, viewers, assignees and custom_fields can be updated; ${issue.message}.` : issue?.message;
      return reply.code(400).send(errorBody('bad_request', message ?? 'The update is not valid.', target));
    }
    const members = new Set(workspaces.members(request.workspaceId).map((email) => email.toLowerCase()));
    const fields = new Map(workspaces.customFields(request.workspaceId).map((field) => [field.slug, field.type]));
    const problem = patchProblem(parsed.data, members, fields);
    if (problem) return reply.code(400).send(errorBody('bad_request', ...problem));

    const { name, tags, viewers, assignees, custom_fields: customFields } = parsed.data;
    shipments.update(found.seq, { name, tags, viewers, assignees, customFields });
    return shipments.getBySeq(found.seq);
  };

  api.patch('/shipments/id/:id', { config: { rateLimitBucket: 'patch_id' } }, update('id'));
  api.patch('/shipments/reference/:reference', { config: { rateLimitBucket: 'patch_reference' } }, update('reference'));
}
