// Where the console keeps the service address and API key. The key lives in sessionStorage, or
// localStorage when the user asks to be remembered on this device; it leaves the browser only in
// the Authorization header (http-client.ts). Never in a URL, a log or an export. When the server
// holds the key (UPSTREAM_API_KEY), the connection has none: `apiKey` is empty and nothing is sent.
import { z } from 'zod';
import { Observable } from './observable';

const STORAGE_KEY = 'import-console.connection';

const connectionSchema = z
  .object({
    baseUrl: z.string(),
    /** The Bearer key; empty when the server holds it. */
    apiKey: z.string(),
    label: z.string(),
    workspace: z.string().nullable(),
    sandbox: z.boolean(),
    /** The server adds the key itself (proxy mode with UPSTREAM_API_KEY); the browser holds none. */
    keyHeldByServer: z.boolean().default(false),
  })
  .refine((connection) => connection.keyHeldByServer === (connection.apiKey === ''), 'a connection has a key unless the server holds it');
export type Connection = z.infer<typeof connectionSchema> & { remembered: boolean };

function readFrom(storage: Storage, remembered: boolean): Connection | null {
  const raw = storage.getItem(STORAGE_KEY);
  if (!raw) return null;
  try {
    const parsed = connectionSchema.safeParse(JSON.parse(raw));
    return parsed.success ? { ...parsed.data, remembered } : null;
  } catch {
    return null;
  }
}

class ConnectionStore extends Observable<Connection | null> {
  save(connection: Connection): void {
    const { remembered, ...stored } = connection;
    sessionStorage.removeItem(STORAGE_KEY);
    localStorage.removeItem(STORAGE_KEY);
    (remembered ? localStorage : sessionStorage).setItem(STORAGE_KEY, JSON.stringify(stored));
    this.set(connection);
  }

  forget(): void {
    sessionStorage.removeItem(STORAGE_KEY);
    localStorage.removeItem(STORAGE_KEY);
    this.set(null);
  }
}

/** Made, reading the browser's storage, when the connection is first asked for. */
let store: ConnectionStore | null = null;
const connectionStore = () => (store ??= new ConnectionStore(readFrom(sessionStorage, false) ?? readFrom(localStorage, true)));

export function getConnection(): Connection | null {
  return connectionStore().getSnapshot();
}

export function saveConnection(connection: Connection): void {
  connectionStore().save(connection);
}

export function forgetConnection(): void {
  connectionStore().forget();
}

export function subscribeConnection(listener: () => void): () => void {
  return connectionStore().subscribe(listener);
}

/** An empty base URL means "this origin": the bundled sandbox, or the proxy to the real service. */
export function normalizeBaseUrl(input: string): string {
  const trimmed = input.trim().replace(/\/+$/, '');
  return trimmed.replace(/\/api\/v1$/, '');
}
