// Workspaces with their keys, members and custom fields. Every workspace named by a key is
// seeded at start with the same members and the custom fields DESIGN §3 lists.
import { createHash } from 'node:crypto';
import type { CustomFieldType } from '../../../contract/import-file';
import type { SandboxKey } from '../sandbox-keys';
import type { Db } from './open-store';

const SEED_MEMBERS = [
  'ana.lopez@example.com',
  'ben.okafor@example.com',
  'chen.wei@example.com',
  'dana.smith@example.com',
] as const;

/** Custom fields are typed, as on the real service (CUSTOM_FIELD_INVALID_TYPE): `eta` a date, the others text. */
const SEED_CUSTOM_FIELDS = [
  { slug: 'po_number', name: 'PO number', type: 'text' },
  { slug: 'incoterm', name: 'Incoterm', type: 'text' },
  { slug: 'eta', name: 'ETA', type: 'date' },
] as const satisfies readonly CustomField[];

/**
 * Every custom field is seeded from the list above, so its type is looked up there rather than
 * stored: the table of custom fields has no type column.
 */
const SEED_TYPES: ReadonlyMap<string, CustomFieldType> = new Map(SEED_CUSTOM_FIELDS.map((field) => [field.slug, field.type]));

export interface CustomField {
  slug: string;
  name: string;
  type: CustomFieldType;
}

export function hashKey(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

export function seedWorkspaces(db: Db, keys: readonly SandboxKey[]): void {
  const insertWorkspace = db.prepare('INSERT OR IGNORE INTO workspaces (id, name) VALUES (?, ?)');
  const insertKey = db.prepare('INSERT OR REPLACE INTO api_keys (key_hash, workspace_id) VALUES (?, ?)');
  const insertMember = db.prepare('INSERT OR IGNORE INTO members (workspace_id, email) VALUES (?, ?)');
  const insertField = db.prepare('INSERT OR IGNORE INTO custom_fields (workspace_id, slug, name) VALUES (?, ?, ?)');
  db.transaction(() => {
    // Keys come from the settings of this run only: a key removed from SANDBOX_API_KEYS stops working.
    db.prepare('DELETE FROM api_keys').run();
    for (const { key, workspace } of keys) {
      insertWorkspace.run(workspace, workspace);
      insertKey.run(hashKey(key), workspace);
      for (const email of SEED_MEMBERS) insertMember.run(workspace, email);
      for (const field of SEED_CUSTOM_FIELDS) insertField.run(workspace, field.slug, field.name);
    }
  })();
}

export class WorkspaceStore {
  private readonly membersOf;
  private readonly fieldsOf;
  private readonly keys;
  private readonly workspace;

  constructor(db: Db) {
    this.membersOf = db.prepare<[string], { email: string }>('SELECT email FROM members WHERE workspace_id = ? ORDER BY email');
    this.fieldsOf = db.prepare<[string], Omit<CustomField, 'type'>>('SELECT slug, name FROM custom_fields WHERE workspace_id = ? ORDER BY slug');
    this.keys = db.prepare<[], { key_hash: Buffer; workspace_id: string }>('SELECT key_hash, workspace_id FROM api_keys');
    this.workspace = db.prepare<[string], { id: string; name: string }>('SELECT id, name FROM workspaces WHERE id = ?');
  }

  members(workspaceId: string): string[] {
    return this.membersOf.all(workspaceId).map((row) => row.email);
  }

  customFields(workspaceId: string): CustomField[] {
    return this.fieldsOf.all(workspaceId).map((field) => ({ ...field, type: SEED_TYPES.get(field.slug) ?? 'text' }));
  }

  keyHashes(): { keyHash: Buffer; workspaceId: string }[] {
    return this.keys.all().map((row) => ({ keyHash: row.key_hash, workspaceId: row.workspace_id }));
  }

  find(workspaceId: string): { id: string; name: string } | undefined {
    return this.workspace.get(workspaceId);
  }
}
