// Settings of the job engine (DESIGN §5), in one place so a deployment can change them.

/** Rows per chunk against a service whose caps are unknown (the real service's older API took 300). */
export const UNKNOWN_SERVICE_CHUNK_ROWS = 300;

/** The bundled sandbox's documented row cap, used when /sandbox.json does not state one. */
export const SANDBOX_DEFAULT_CHUNK_ROWS = 5000;

/** The spec's rule: poll one batch at most once per 10–15 s. */
export const POLL_SPACING_MS = 10_000;
export const POLL_JITTER_MS = 5_000;

/** A batch whose completed_requests has not moved for this long is shown as stalled. */
export const STALL_AFTER_MS = 5 * 60_000;

/** Requests kept back from polling, so a page the user opens still has budget. */
export const POLL_BUDGET_RESERVE = 20;

/**
 * Rows per chunk: the cap the sandbox advertises (or its documented default) when connected to
 * it; otherwise the conservative setting, which a 413 or a 400 naming a cap only ever lowers.
 */
export function chooseChunkRows(service: { sandbox: boolean; advertisedRows: number | null }): number {
  if (service.advertisedRows !== null && service.advertisedRows > 0) return service.advertisedRows;
  return service.sandbox ? SANDBOX_DEFAULT_CHUNK_ROWS : UNKNOWN_SERVICE_CHUNK_ROWS;
}
