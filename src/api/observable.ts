// The small observable under every store the pages read through useSyncExternalStore (the
// connection, the rate-limit budget, reachability, the job store, the runner, the ETA): one
// snapshot, replaced as a whole on each change, and the listeners told. No browser global: the
// engine's stores run in Node too.

export class Observable<T> {
  private readonly listeners = new Set<() => void>();

  constructor(private snapshot: T) {}

  getSnapshot = (): T => this.snapshot;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    if (this.listeners.size === 1) this.onFirstListener();
    this.onSubscribe();
    return () => {
      if (this.listeners.delete(listener) && this.listeners.size === 0) this.onLastListener();
    };
  };

  /** Replaces the snapshot and tells every listener. */
  protected set(next: T): void {
    this.snapshot = next;
    this.listeners.forEach((listener) => listener());
  }

  /** Called on every subscribe, after the listener is added. */
  protected onSubscribe(): void {}

  /** Called when the first listener comes (start following a source)… */
  protected onFirstListener(): void {}

  /** …and when the last one leaves (stop following it). */
  protected onLastListener(): void {}
}
