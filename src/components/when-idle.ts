/**
 * Runs `work` when the page's thread is idle, within `timeoutMs` at the latest (after 200 ms where
 * the browser has no idle callbacks); returns the cancel, so an effect can return it.
 */
export function whenIdle(work: () => void, timeoutMs = 2_000): () => void {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(work, { timeout: timeoutMs });
    return () => cancelIdleCallback(id);
  }
  const timer = setTimeout(work, 200);
  return () => clearTimeout(timer);
}
