// The console server's own store (CONSOLE_DB, SQLite): the team history of import jobs and the
// remembered mappings, per workspace. This module owns its SQL. Every read and write names the workspace, so nothing of
// another workspace is listed, counted or named; a job id of another workspace reads as unknown.
import { createHmac, randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import Papa from 'papaparse';
import type { RememberedMapping } from '../../contract/remembered-mapping';
import type { TeamBatchOrigin, TeamChunk, TeamChunkRows, TeamJob, TeamJobLine, TeamJobReport, TeamSeenAnswer, TeamSeenQuery } from '../../contract/team-history';
import { referenceKey, trackingNumberKey } from '../../spreadsheet/row-foresight';

/** Applied in order at open; PRAGMA user_version records how many have run. */
export const CONSOLE_MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE settings (
    name TEXT PRIMARY KEY,
    value BLOB NOT NULL
  );
  -- report: the sender's TeamJobReport as JSON (sentBy apart, in its own column).
  CREATE TABLE team_jobs (
    id TEXT PRIMARY KEY,
    workspace TEXT NOT NULL,
    sent_by TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    source_name TEXT NOT NULL,
    report TEXT NOT NULL
  );
  CREATE INDEX team_jobs_by_workspace ON team_jobs (workspace, created_at DESC);
  CREATE INDEX team_jobs_by_age ON team_jobs (updated_at);
  CREATE TABLE team_batches (
    workspace TEXT NOT NULL,
    batch_id TEXT NOT NULL,
    job_id TEXT NOT NULL REFERENCES team_jobs(id) ON DELETE CASCADE,
    chunk_id INTEGER NOT NULL,
    PRIMARY KEY (workspace, batch_id)
  );
  CREATE INDEX team_batches_by_job ON team_batches (job_id);
  CREATE TABLE team_chunk_rows (
    job_id TEXT NOT NULL REFERENCES team_jobs(id) ON DELETE CASCADE,
    chunk_id INTEGER NOT NULL,
    rows TEXT NOT NULL,
    PRIMARY KEY (job_id, chunk_id)
  );
  CREATE TABLE team_references (
    workspace TEXT NOT NULL,
    reference TEXT NOT NULL,
    job_id TEXT NOT NULL REFERENCES team_jobs(id) ON DELETE CASCADE,
    PRIMARY KEY (workspace, reference, job_id)
  ) WITHOUT ROWID;
  CREATE INDEX team_references_by_job ON team_references (job_id);
  `,
  `
  -- record: the RememberedMapping as JSON (savedBy apart, in its own column).
  CREATE TABLE remembered_mappings (
    workspace TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    saved_at INTEGER NOT NULL,
    saved_by TEXT,
    record TEXT NOT NULL,
    PRIMARY KEY (workspace, fingerprint)
  ) WITHOUT ROWID;
  CREATE INDEX remembered_mappings_by_age ON remembered_mappings (workspace, saved_at DESC);
  `,
  `
  -- The tracking numbers of the rows kept as sent, as compared (upper case, no spaces).
  CREATE TABLE team_tracking_numbers (
    workspace TEXT NOT NULL,
    tracking_number TEXT NOT NULL,
    job_id TEXT NOT NULL REFERENCES team_jobs(id) ON DELETE CASCADE,
    PRIMARY KEY (workspace, tracking_number, job_id)
  ) WITHOUT ROWID;
  CREATE INDEX team_tracking_numbers_by_job ON team_tracking_numbers (job_id);
  `,
];

/** Remembered mappings a workspace keeps at most; the oldest go first. */
export const REMEMBERED_MAPPINGS_LIMIT = 500;

/** Keys one statement of `seen` binds at most (SQLite's default cap on parameters is 32,766). */
const SEEN_PARAMETERS = 500;

/** Jobs one list answers with at most; a search narrows it. */
const TEAM_LIST_LIMIT = 200;
/** Jobs one workspace's history keeps at most, besides CONSOLE_KEEP_DAYS. */
const TEAM_JOBS_KEPT = 5_000;

/** A report as stored: sentBy in its own column, skipped always present. */
type StoredReport = Omit<TeamJobReport, 'sentBy' | 'skipped'> & { skipped: NonNullable<TeamJobReport['skipped']> };

interface JobRow {
  id: string;
  sent_by: string | null;
  updated_at: number;
  report: string;
}

export class ConsoleStore {
  readonly #db: Database.Database;
  readonly #jobsKept: number;

  /** `jobsKept`: the most jobs one workspace's history keeps (a test sets a few). */
  constructor(path: string, { jobsKept = TEAM_JOBS_KEPT }: { jobsKept?: number } = {}) {
    this.#jobsKept = jobsKept;
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    this.#db = new Database(path);
    if (path !== ':memory:') this.#db.pragma('journal_mode = WAL');
    // WAL with NORMAL sync stays durable across a process crash (kill -9), which is what a team history needs.
    this.#db.pragma('synchronous = NORMAL');
    this.#db.pragma('foreign_keys = ON');
    const applied = this.#db.pragma('user_version', { simple: true }) as number;
    this.#db.transaction(() => {
      CONSOLE_MIGRATIONS.slice(applied).forEach((sql) => this.#db.exec(sql));
      this.#db.pragma(`user_version = ${CONSOLE_MIGRATIONS.length}`);
    })();
  }

  close(): void {
    this.#db.close();
  }

  /** A random secret made once per store, e.g. the key of the pasted keys' fingerprints. */
  secret(name: string): Buffer {
    const row = this.#db.prepare('SELECT value FROM settings WHERE name = ?').get(name) as { value: Buffer } | undefined;
    if (row) return row.value;
    const value = randomBytes(32);
    this.#db.prepare('INSERT OR IGNORE INTO settings (name, value) VALUES (?, ?)').run(name, value);
    return (this.#db.prepare('SELECT value FROM settings WHERE name = ?').get(name) as { value: Buffer }).value;
  }

  /**
   * Records the sender's report of a job. The first report names who sent it; a later one updates
   * the rest. False when the id belongs to another workspace (the caller answers as if unknown).
   */
  reportJob(workspace: string, id: string, report: TeamJobReport, sentBy: string | null, now: number): boolean {
    return this.#db.transaction(() => {
      const owner = this.#db.prepare('SELECT workspace FROM team_jobs WHERE id = ?').get(id) as { workspace: string } | undefined;
      if (owner && owner.workspace !== workspace) return false;
      const { sentBy: _typed, ...reported } = report;
      const previousRow = owner ? (this.#db.prepare('SELECT report FROM team_jobs WHERE id = ?').get(id) as { report: string }) : null;
      const previous = previousRow ? (JSON.parse(previousRow.report) as StoredReport) : null;
      // Reports arrive out of order (tabs, retries): one older than what is kept changes nothing.
      if (previous && previous.version > report.version) return true;
      const kept = { ...reported, chunks: keepAccepted(reported.chunks, previous?.chunks ?? []), skipped: reported.skipped ?? previous?.skipped ?? [] };
      if (owner) {
        this.#db
          .prepare('UPDATE team_jobs SET updated_at = ?, source_name = ?, report = ? WHERE id = ?')
          .run(now, report.source.name, JSON.stringify(kept), id);
      } else {
        this.#db
          .prepare('INSERT INTO team_jobs (id, workspace, sent_by, created_at, updated_at, source_name, report) VALUES (?, ?, ?, ?, ?, ?, ?)')
          .run(id, workspace, sentBy, report.createdAt, now, report.source.name, JSON.stringify(kept));
        // Bounded per workspace whoever writes: the least recently reported jobs go first.
        const { jobs } = this.#db.prepare('SELECT COUNT(*) AS jobs FROM team_jobs WHERE workspace = ?').get(workspace) as { jobs: number };
        if (jobs > this.#jobsKept) {
          this.#db
            .prepare('DELETE FROM team_jobs WHERE id IN (SELECT id FROM team_jobs WHERE workspace = ? ORDER BY updated_at LIMIT ?)')
            .run(workspace, jobs - this.#jobsKept);
        }
      }
      const addBatch = this.#db.prepare('INSERT OR IGNORE INTO team_batches (workspace, batch_id, job_id, chunk_id) VALUES (?, ?, ?, ?)');
      for (const chunk of kept.chunks) if (chunk.batchId !== null) addBatch.run(workspace, chunk.batchId, id, chunk.id);
      return true;
    })();
  }

  /**
   * What the server saw pass through it: the service accepted the job's chunk as a batch (the
   * import's Idempotency-Key names the job and chunk). Recorded on a job the history holds for
   * the workspace, so a sender whose tab closed right after still shows the batch; false otherwise.
   */
  recordAcceptedChunk(workspace: string, jobId: string, chunkId: number, batchId: string, now: number): boolean {
    return this.#db.transaction(() => {
      const row = this.#db.prepare('SELECT report FROM team_jobs WHERE id = ? AND workspace = ?').get(jobId, workspace) as { report: string } | undefined;
      if (!row) return false;
      const report = JSON.parse(row.report) as StoredReport;
      const chunk = report.chunks.find((candidate) => candidate.id === chunkId);
      if (!chunk || (chunk.status === 'accepted' && chunk.batchId === batchId)) return chunk !== undefined;
      const chunks = report.chunks.map((candidate) => (candidate.id === chunkId ? { ...candidate, status: 'accepted' as const, batchId, note: null } : candidate));
      this.#db.prepare('UPDATE team_jobs SET updated_at = ?, report = ? WHERE id = ?').run(now, JSON.stringify({ ...report, chunks }), jobId);
      this.#db.prepare('INSERT OR IGNORE INTO team_batches (workspace, batch_id, job_id, chunk_id) VALUES (?, ?, ?, ?)').run(workspace, batchId, jobId, chunkId);
      return true;
    })();
  }

  /** Chunks of the job whose rows as sent are kept. */
  rowsKept(workspace: string, jobId: string): number[] {
    if (!this.#owns(workspace, jobId)) return [];
    return (this.#db.prepare('SELECT chunk_id FROM team_chunk_rows WHERE job_id = ? ORDER BY chunk_id').all(jobId) as { chunk_id: number }[]).map((r) => r.chunk_id);
  }

  /** Keeps a chunk's rows as sent, and indexes their references (for search) and tracking numbers. False as reportJob. */
  keepChunkRows(workspace: string, jobId: string, chunkId: number, rows: TeamChunkRows): boolean {
    return this.#db.transaction(() => {
      if (!this.#owns(workspace, jobId)) return false;
      this.#db.prepare('INSERT OR REPLACE INTO team_chunk_rows (job_id, chunk_id, rows) VALUES (?, ?, ?)').run(jobId, chunkId, JSON.stringify(rows));
      const addReference = this.#db.prepare('INSERT OR IGNORE INTO team_references (workspace, reference, job_id) VALUES (?, ?, ?)');
      const addNumber = this.#db.prepare('INSERT OR IGNORE INTO team_tracking_numbers (workspace, tracking_number, job_id) VALUES (?, ?, ?)');
      const keys = keysOf(rows);
      for (const reference of keys.references) addReference.run(workspace, reference, jobId);
      for (const number of keys.trackingNumbers) addNumber.run(workspace, number, jobId);
      return true;
    })();
  }

  job(workspace: string, id: string): TeamJob | null {
    const row = this.#db.prepare('SELECT id, sent_by, updated_at, report FROM team_jobs WHERE id = ? AND workspace = ?').get(id, workspace) as JobRow | undefined;
    if (!row) return null;
    return { ...(JSON.parse(row.report) as StoredReport), id: row.id, sentBy: row.sent_by, updatedAt: row.updated_at, rowsKept: this.rowsKept(workspace, id) };
  }

  /** Where a job stands for the pacing view: chunks left to send, all sent, or finished; null when not held. Read in SQLite, without parsing the report here. */
  jobProgress(workspace: string, id: string): 'sending' | 'sent' | 'finished' | null {
    const row = this.#db
      .prepare(
        `SELECT json_extract(report, '$.finished') AS finished,
                EXISTS (SELECT 1 FROM json_each(report, '$.chunks') WHERE json_extract(value, '$.status') IN ('pending', 'sending')) AS toSend
           FROM team_jobs WHERE id = ? AND workspace = ?`,
      )
      .get(id, workspace) as { finished: number; toSend: number } | undefined;
    if (!row) return null;
    return row.finished ? 'finished' : row.toSend ? 'sending' : 'sent';
  }

  chunkRows(workspace: string, jobId: string, chunkId: number): TeamChunkRows | null {
    if (!this.#owns(workspace, jobId)) return null;
    const row = this.#db.prepare('SELECT rows FROM team_chunk_rows WHERE job_id = ? AND chunk_id = ?').get(jobId, chunkId) as { rows: string } | undefined;
    return row ? (JSON.parse(row.rows) as TeamChunkRows) : null;
  }

  /**
   * The workspace's jobs, newest first. `search` matches part of a file name, or exactly a job id,
   * a batch id or a reference sent.
   */
  list(workspace: string, search = ''): { data: TeamJobLine[]; more: boolean } {
    const term = search.trim();
    const rows = (
      term === ''
        ? this.#db.prepare('SELECT id, sent_by, updated_at, report FROM team_jobs WHERE workspace = ? ORDER BY created_at DESC LIMIT ?').all(workspace, TEAM_LIST_LIMIT + 1)
        : this.#db
            .prepare(
              `SELECT id, sent_by, updated_at, report FROM team_jobs WHERE workspace = @workspace AND (
                 source_name LIKE @like ESCAPE '\\' OR id = @term
                 OR id IN (SELECT job_id FROM team_batches WHERE workspace = @workspace AND batch_id = @term)
                 OR id IN (SELECT job_id FROM team_references WHERE workspace = @workspace AND reference = @term))
               ORDER BY created_at DESC LIMIT @limit`,
            )
            .all({ workspace, term, like: `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`, limit: TEAM_LIST_LIMIT + 1 })
    ) as JobRow[];
    const lines = rows.slice(0, TEAM_LIST_LIMIT).map((row) => {
      const { chunks, skipped: _skipped, ...rest } = JSON.parse(row.report) as StoredReport;
      return { ...rest, id: row.id, sentBy: row.sent_by, updatedAt: row.updated_at, batchIds: chunks.flatMap((chunk) => (chunk.batchId === null ? [] : [chunk.batchId])) };
    });
    return { data: lines, more: rows.length > TEAM_LIST_LIMIT };
  }

  /**
   * Which of these references and tracking numbers the workspace's jobs sent, each with when the
   * latest job that sent it was made. Another workspace's keys are never read.
   */
  seen(workspace: string, query: TeamSeenQuery): TeamSeenAnswer {
    const lookup = (table: 'team_references' | 'team_tracking_numbers', column: 'reference' | 'tracking_number', keys: string[]) => {
      const found: { value: string; sentAt: number }[] = [];
      const unique = [...new Set(keys)].filter((key) => key !== '');
      for (let from = 0; from < unique.length; from += SEEN_PARAMETERS) {
        const slice = unique.slice(from, from + SEEN_PARAMETERS);
        const rows = this.#db
          .prepare(
            `SELECT k.${column} AS value, MAX(j.created_at) AS sentAt FROM ${table} k JOIN team_jobs j ON j.id = k.job_id
             WHERE k.workspace = ? AND j.workspace = k.workspace AND k.${column} IN (${slice.map(() => '?').join(',')}) GROUP BY k.${column}`,
          )
          .all(workspace, ...slice) as { value: string; sentAt: number }[];
        found.push(...rows);
      }
      return found;
    };
    return {
      references: lookup('team_references', 'reference', query.references.map(referenceKey)),
      trackingNumbers: lookup('team_tracking_numbers', 'tracking_number', query.trackingNumbers.map(trackingNumberKey)),
    };
  }

  batchOrigin(workspace: string, batchId: string): TeamBatchOrigin | null {
    const row = this.#db
      .prepare(
        `SELECT b.job_id, b.chunk_id, j.source_name, j.sent_by FROM team_batches b JOIN team_jobs j ON j.id = b.job_id
         WHERE b.workspace = ? AND b.batch_id = ?`,
      )
      .get(workspace, batchId) as { job_id: string; chunk_id: number; source_name: string; sent_by: string | null } | undefined;
    return row ? { jobId: row.job_id, chunkId: row.chunk_id, sourceName: row.source_name, sentBy: row.sent_by } : null;
  }

  /** An opaque tag of the workspace, the same for every key of it and stable across restarts. */
  workspaceTag(workspace: string): string {
    return createHmac('sha256', this.secret('workspace-tag')).update(workspace).digest('hex').slice(0, 32);
  }

  /** Forgets jobs (with their rows as sent) not written to since `before`; returns how many. */
  forgetOlderThan(before: number): number {
    return this.#db.prepare('DELETE FROM team_jobs WHERE updated_at < ?').run(before).changes;
  }

  /** The workspace's remembered mappings, newest first. */
  mappings(workspace: string): RememberedMapping[] {
    const rows = this.#db
      .prepare('SELECT saved_by, record FROM remembered_mappings WHERE workspace = ? ORDER BY saved_at DESC LIMIT ?')
      .all(workspace, REMEMBERED_MAPPINGS_LIMIT) as { saved_by: string | null; record: string }[];
    return rows.map((row) => ({ ...(JSON.parse(row.record) as Omit<RememberedMapping, 'savedBy'>), savedBy: row.saved_by }));
  }

  /**
   * Keeps a mapping under its fingerprint, unless the workspace holds a newer one for it (two
   * browsers may write in either order); the oldest beyond the limit are forgotten. The one kept.
   */
  rememberMapping(workspace: string, mapping: RememberedMapping): RememberedMapping {
    return this.#db.transaction(() => {
      const { savedBy, ...record } = mapping;
      this.#db
        .prepare(
          `INSERT INTO remembered_mappings (workspace, fingerprint, saved_at, saved_by, record) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT (workspace, fingerprint) DO UPDATE SET saved_at = excluded.saved_at, saved_by = excluded.saved_by, record = excluded.record
           WHERE excluded.saved_at >= remembered_mappings.saved_at`,
        )
        .run(workspace, mapping.fingerprint, mapping.savedAt, savedBy, JSON.stringify(record));
      this.#db
        .prepare(
          `DELETE FROM remembered_mappings WHERE workspace = ? AND fingerprint IN (
             SELECT fingerprint FROM remembered_mappings WHERE workspace = ? ORDER BY saved_at DESC LIMIT -1 OFFSET ?)`,
        )
        .run(workspace, workspace, REMEMBERED_MAPPINGS_LIMIT);
      const row = this.#db.prepare('SELECT saved_by, record FROM remembered_mappings WHERE workspace = ? AND fingerprint = ?').get(workspace, mapping.fingerprint) as
        | { saved_by: string | null; record: string }
        | undefined;
      return row ? { ...(JSON.parse(row.record) as Omit<RememberedMapping, 'savedBy'>), savedBy: row.saved_by } : mapping;
    })();
  }

  /** Forgets the workspace's mapping of a set of headers; false when it held none. */
  forgetMapping(workspace: string, fingerprint: string): boolean {
    return this.#db.prepare('DELETE FROM remembered_mappings WHERE workspace = ? AND fingerprint = ?').run(workspace, fingerprint).changes > 0;
  }

  /** Forgets mappings not remembered again since `before`; returns how many. */
  forgetMappingsOlderThan(before: number): number {
    return this.#db.prepare('DELETE FROM remembered_mappings WHERE saved_at < ?').run(before).changes;
  }

  #owns(workspace: string, jobId: string): boolean {
    return this.#db.prepare('SELECT 1 FROM team_jobs WHERE id = ? AND workspace = ?').get(jobId, workspace) !== undefined;
  }
}

/**
 * A chunk the server saw accepted stays accepted: a sender's report made before the answer came
 * (the chunk still sending) may arrive after it. A chunk id is never sent again once accepted.
 */
function keepAccepted(reported: readonly TeamChunk[], previous: readonly TeamChunk[]): TeamChunk[] {
  const accepted = new Map(previous.filter((chunk) => chunk.status === 'accepted').map((chunk) => [chunk.id, chunk]));
  return reported.map((chunk) => (chunk.status !== 'accepted' && accepted.has(chunk.id) ? accepted.get(chunk.id)! : chunk));
}

/** The non-empty references (for search by reference) and tracking numbers of a chunk's rows. */
function keysOf(rows: TeamChunkRows): { references: Set<string>; trackingNumbers: Set<string> } {
  const references = new Set<string>();
  const trackingNumbers = new Set<string>();
  const add = (reference: unknown, number: unknown) => {
    if (typeof reference === 'string' && referenceKey(reference) !== '') references.add(referenceKey(reference));
    if (typeof number === 'string' && trackingNumberKey(number) !== '') trackingNumbers.add(trackingNumberKey(number));
  };
  if (rows.body.format === 'json') {
    for (const request of rows.body.requests) add(request.reference, request.tracking_number);
    return { references, trackingNumbers };
  }
  const parsed = Papa.parse<string[]>(rows.body.csv, { delimiter: ',', skipEmptyLines: true });
  const [header, ...data] = parsed.data;
  const referenceAt = header?.indexOf('reference') ?? -1;
  const numberAt = header?.indexOf('tracking_number') ?? -1;
  for (const row of data) add(referenceAt < 0 ? undefined : row[referenceAt], numberAt < 0 ? undefined : row[numberAt]);
  return { references, trackingNumbers };
}
