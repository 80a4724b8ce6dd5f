/**
 * Runs `work` when the page's thread is idle, within 2 s at the latest (after 200 ms where the
 * browser has no idle callbacks); returns the cancel, so an effect can return it.
 */
export function whenIdle(work: () => void): () => void {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(work, { timeout: 2_000 });
    return () => cancelIdleCallback(id);
  }
  const timer = setTimeout(work, 200);
  return () => clearTimeout(timer);
}
