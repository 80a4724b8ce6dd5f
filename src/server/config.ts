// Settings of the server and sandbox, read once from the environment and validated with zod
// (DESIGN §3 "Settings"). A bad value stops the server with a message naming the variable.
import { z } from 'zod';

const intFrom = (fallback: number, min = 0) => z.coerce.number().int().min(min).default(fallback);

/** SANDBOX_FAULTS: comma-separated `kind:share`, kinds 500, 429, slow, drop; share 0–1. */
const FAULT_KINDS = ['500', '429', 'slow', 'drop'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];
export type FaultShares = Partial<Record<FaultKind, number>>;

export const faultSharesSchema = z
  .string()
  .optional()
  .transform((value, ctx): FaultShares | null => {
    if (value === undefined || value.trim() === '' || value.trim() === 'off') return null;
    const shares: FaultShares = {};
    for (const part of value.split(',')) {
      const [kind, share] = part.split(':').map((s) => s.trim());
      const n = Number(share);
      if (!FAULT_KINDS.includes(kind as FaultKind) || share === undefined || !(n >= 0 && n <= 1)) {
        ctx.addIssue({
          code: 'custom',
          message: `"${part}" is not kind:share with kind one of ${FAULT_KINDS.join(', ')} and share between 0 and 1`,
        });
        return z.NEVER;
      }
      shares[kind as FaultKind] = n;
    }
    return shares;
  });

const apiKeysSchema = z
  .string()
  .optional()
  .transform((value, ctx) => {
    if (value === undefined || value.trim() === '') return null;
    const pairs: { key: string; workspace: string }[] = [];
    for (const part of value.split(',')) {
      const index = part.indexOf(':');
      const key = part.slice(0, index).trim();
      const workspace = part.slice(index + 1).trim();
      if (index < 1 || key.length < 16 || !/^[A-Za-z0-9_-]+$/.test(workspace)) {
        ctx.addIssue({ code: 'custom', message: `"${part.slice(0, 8)}…" is not key:workspace (key of 16+ characters, workspace of letters, digits, - or _)` });
        return z.NEVER;
      }
      pairs.push({ key, workspace });
    }
    return pairs;
  });

/** SANDBOX_CARRIERS: comma-separated SCACs the sandbox supports; unset = its default list. */
const carriersSchema = z
  .string()
  .optional()
  .transform((value, ctx) => {
    if (value === undefined || value.trim() === '') return null;
    const scacs = value.split(',').map((part) => part.trim().toUpperCase()).filter(Boolean);
    const bad = scacs.find((scac) => !/^[A-Z0-9]{4}$/.test(scac));
    if (bad !== undefined) {
      ctx.addIssue({ code: 'custom', message: `"${bad}" is not a SCAC (exactly 4 letters or digits)` });
      return z.NEVER;
    }
    return scacs;
  });

/** SANDBOX_DISABLED_KEYS: comma-separated keys the sandbox knows but refuses with 403. */
const disabledKeysSchema = z
  .string()
  .optional()
  .transform((value, ctx) => {
    if (value === undefined || value.trim() === '') return [];
    const keys = value.split(',').map((part) => part.trim()).filter(Boolean);
    if (keys.some((key) => key.length < 16)) {
      ctx.addIssue({ code: 'custom', message: 'every disabled key must have 16+ characters' });
      return z.NEVER;
    }
    return keys;
  });

export const envSchema = z.object({
  PORT: intFrom(4173).pipe(z.number().max(65535)),
  HOST: z.string().min(1).default('127.0.0.1'),
  SANDBOX_DB: z.string().min(1).default('.data/sandbox.sqlite'),
  SANDBOX_API_KEYS: apiKeysSchema,
  SANDBOX_ROW_DELAY_MS: intFrom(250),
  SANDBOX_IMPORT_LIMIT: intFrom(20, 1),
  SANDBOX_IMPORT_WINDOW_S: intFrom(60, 1),
  SANDBOX_PATCH_LIMIT: intFrom(100, 1),
  SANDBOX_PATCH_WINDOW_S: intFrom(60, 1),
  SANDBOX_HOURLY_LIMIT: intFrom(1500, 1),
  SANDBOX_DAILY_LIMIT: intFrom(10000, 1),
  SANDBOX_MAX_FILE_BYTES: intFrom(10 * 1024 * 1024, 1),
  SANDBOX_MAX_BATCH_ROWS: intFrom(5000, 1),
  SANDBOX_SLOW_TRACKING_MS: intFrom(30_000),
  SANDBOX_FAULTS: faultSharesSchema,
  SANDBOX_FAULT_SLOW_MS: intFrom(5_000),
  SANDBOX_CARRIERS: carriersSchema,
  SANDBOX_DISABLED_KEYS: disabledKeysSchema,
  SANDBOX_PARSE_WORKERS: intFrom(1, 1),
  SANDBOX_PARSE_TIMEOUT_MS: intFrom(5_000, 100),
  SANDBOX_PARSE_HEAP_MB: intFrom(256, 32),
  SANDBOX_MAX_JSON_DEPTH: intFrom(32, 2),
  SANDBOX_IDEMPOTENCY_HOURS: intFrom(24, 1),
  UPSTREAM_URL: z.url({ protocol: /^https?$/, error: 'UPSTREAM_URL must be an http(s) URL' }).optional(),
  UPSTREAM_API_KEY: z.string().trim().min(1, 'UPSTREAM_API_KEY is empty').optional(),
  CONSOLE_DB: z.string().min(1).default('.data/console.sqlite'),
  CONSOLE_KEEP_DAYS: intFrom(30, 1),
  CONSOLE_RUNS_JOBS: z.enum(['on', 'off', 'true', 'false', '1', '0']).default('on').transform((value) => ['on', 'true', '1'].includes(value)),
  CONSOLE_USER_HEADER: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9-]+$/, 'CONSOLE_USER_HEADER must be a header name, e.g. X-Forwarded-Email')
    .transform((name) => name.toLowerCase())
    .optional(),
  CONSOLE_PACER: z.enum(['on', 'off']).default('on'),
  LOG_LEVEL: z.enum(['silent', 'error', 'warn', 'info', 'debug']).default('warn'),
});

export interface ServerConfig {
  port: number;
  host: string;
  dbPath: string;
  apiKeys: { key: string; workspace: string }[] | null;
  rowDelayMs: number;
  importLimit: number;
  importWindowS: number;
  patchLimit: number;
  patchWindowS: number;
  hourlyLimit: number;
  dailyLimit: number;
  maxFileBytes: number;
  maxBatchRows: number;
  /** How long tracking of the "slow tracking" test numbers takes. */
  slowTrackingMs: number;
  faults: FaultShares | null;
  /** How long a response injected as `slow` by SANDBOX_FAULTS is held back. */
  faultSlowMs: number;
  /** SCACs the sandbox supports; null: its default list (processing/supported-carriers.ts). */
  carriers: string[] | null;
  /** Keys the sandbox knows but answers with 403, so a client's 403 path can be tried. */
  disabledKeys: string[];
  /** Worker threads that parse uploads, and each one's time and heap limit per file. */
  parseWorkers: number;
  parseTimeoutMs: number;
  parseHeapMb: number;
  /** Deepest nesting of arrays and objects a JSON body may have. */
  maxJsonDepth: number;
  /** How long an import's Idempotency-Key is remembered in its workspace (src/server/README.md, "Idempotency keys"). */
  idempotencyRetentionMs: number;
  upstreamUrl: string | null;
  /** Proxy mode: the key the server sends upstream itself, so the browser holds none. */
  upstreamApiKey: string | null;
  /** The console server's own store: the team history (src/server/console/console-store.ts). */
  consoleDbPath: string;
  /** How long the team history keeps a job and its rows as sent after its last report. */
  consoleKeepMs: number;
  /** CONSOLE_RUNS_JOBS (on unless set off): the console's Send hands jobs to this server, which runs them with every tab closed (/console.json says so); off leaves them to the browser's runner. */
  consoleRunsJobs: boolean;
  /** Behind a single-sign-on proxy, the header (lower case) naming the person; wins over the name typed at Connect. */
  consoleUserHeader: string | null;
  /** Whether every request to the service passes the workspace's pacer (console/pacer.ts); off only to compare without it. */
  consolePacer: boolean;
  logLevel: 'silent' | 'error' | 'warn' | 'info' | 'debug';
  /** Folder of the built console; null serves the API only (tests, `npm run dev`). */
  consoleDir: string | null;
}

export class ConfigError extends Error {}

export function loadConfig(env: Record<string, string | undefined>, consoleDir: string | null = null): ServerConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid settings in the environment:\n  ${lines.join('\n  ')}`);
  }
  const e = parsed.data;
  if (e.UPSTREAM_API_KEY !== undefined && e.UPSTREAM_URL === undefined) {
    throw new ConfigError('Invalid settings in the environment:\n  UPSTREAM_API_KEY: set UPSTREAM_URL too; the key is sent only to that service');
  }
  return {
    port: e.PORT,
    host: e.HOST,
    dbPath: e.SANDBOX_DB,
    apiKeys: e.SANDBOX_API_KEYS,
    rowDelayMs: e.SANDBOX_ROW_DELAY_MS,
    importLimit: e.SANDBOX_IMPORT_LIMIT,
    importWindowS: e.SANDBOX_IMPORT_WINDOW_S,
    patchLimit: e.SANDBOX_PATCH_LIMIT,
    patchWindowS: e.SANDBOX_PATCH_WINDOW_S,
    hourlyLimit: e.SANDBOX_HOURLY_LIMIT,
    dailyLimit: e.SANDBOX_DAILY_LIMIT,
    maxFileBytes: e.SANDBOX_MAX_FILE_BYTES,
    maxBatchRows: e.SANDBOX_MAX_BATCH_ROWS,
    slowTrackingMs: e.SANDBOX_SLOW_TRACKING_MS,
    faults: e.SANDBOX_FAULTS,
    faultSlowMs: e.SANDBOX_FAULT_SLOW_MS,
    carriers: e.SANDBOX_CARRIERS,
    disabledKeys: e.SANDBOX_DISABLED_KEYS,
    parseWorkers: e.SANDBOX_PARSE_WORKERS,
    parseTimeoutMs: e.SANDBOX_PARSE_TIMEOUT_MS,
    parseHeapMb: e.SANDBOX_PARSE_HEAP_MB,
    maxJsonDepth: e.SANDBOX_MAX_JSON_DEPTH,
    idempotencyRetentionMs: e.SANDBOX_IDEMPOTENCY_HOURS * 3_600_000,
    upstreamUrl: e.UPSTREAM_URL ?? null,
    upstreamApiKey: e.UPSTREAM_API_KEY ?? null,
    consoleDbPath: e.CONSOLE_DB,
    consoleKeepMs: e.CONSOLE_KEEP_DAYS * 86_400_000,
    consoleRunsJobs: e.CONSOLE_RUNS_JOBS,
    consoleUserHeader: e.CONSOLE_USER_HEADER ?? null,
    consolePacer: e.CONSOLE_PACER === 'on',
    logLevel: e.LOG_LEVEL,
    consoleDir,
  };
}

/** Settings for in-process tests: throwaway store, no delay, API only. */
export function testConfig(overrides: Partial<ServerConfig> = {}): ServerConfig {
  return { ...loadConfig({ SANDBOX_DB: ':memory:', CONSOLE_DB: ':memory:', SANDBOX_ROW_DELAY_MS: '0', LOG_LEVEL: 'silent' }), ...overrides };
}
