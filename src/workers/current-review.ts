// The import worker's one review, as the page's requests find it: built or kept by each Continue,
// dropped by a read. A request that needs every row checked waits for the review it came to; if
// that review is replaced meanwhile, the request is refused with a sentence rather than applied to
// the new one, whose rows and columns may not be the ones the person pointed at.
import type { ColumnMapping } from '../spreadsheet/column-mapping';
import type { TableReadResult } from '../spreadsheet/read-table';
import type { TableRows } from '../spreadsheet/file-rows';
import type { ReviewCommand } from './import-protocol';
import { type RetryMatch, ReviewSession } from './review-session';

/** A request meant for a review that was built again, or whose file was read again, while it waited. */
export class ReviewReplacedError extends Error {
  override name = 'ReviewReplacedError';
  constructor() {
    super('The rows were mapped or read again before they were all checked; that change was not applied to the new review.');
  }
}

export class CurrentReview {
  private session: ReviewSession | null = null;
  /** Until when (performance.now()) the check waits: the page is rendering what it asked for. */
  private heldUntil = 0;

  /** The review now; refuses with a sentence before any is built. */
  get(): ReviewSession {
    if (!this.session) throw new Error('The rows have not been mapped yet.');
    return this.session;
  }

  /** The review now, or null: a submission's chunk says itself why it is gone. */
  peek(): ReviewSession | null {
    return this.session;
  }

  /** The review of Continue (or of the Columns step, ahead): the one kept when it still fits, else a new one. */
  build(source: TableReadResult<TableRows>, headerRow: number, mapping: ColumnMapping, retry?: RetryMatch, blockMs?: number): ReviewSession {
    this.session = ReviewSession.buildOrKeep(this.session, source, headerRow, mapping, retry, blockMs, () => this.heldUntil - performance.now());
    return this.session;
  }

  /**
   * The check of this review, and of any built next, waits `forMs` before its next block; 0 lets
   * it go on at once. The page asks at Continue and lifts it once it has drawn the review: on two
   * cores, a check running beside the page's render made that render's frame one of 50 ms or more.
   */
  holdCheck(forMs: number): void {
    this.heldUntil = performance.now() + forMs;
  }

  /** The file is read again: the review goes, and its check stops. */
  drop(): void {
    this.session?.drop();
    this.session = null;
  }

  /**
   * The review once every row is checked, for what needs every row (a command, Next error, the
   * Ready step). The one the request came to, or ReviewReplacedError; the check's own failure.
   */
  async whenChecked(onProgress?: (checkedRows: number) => void): Promise<ReviewSession> {
    const waited = this.get();
    await waited.whenChecked(onProgress);
    if (this.session !== waited) throw new ReviewReplacedError();
    return waited;
  }

  /** The review once it can run this command: at once for an edit of a row the check has passed, else once every row is checked. */
  async whenReadyFor(command: ReviewCommand): Promise<ReviewSession> {
    const now = this.get();
    return now.canRunNow(command) ? now : this.whenChecked();
  }

  /** The review once rows [0, to) are checked: a page of rows the check has not reached waits for every row. */
  async whenCheckedTo(to: number): Promise<ReviewSession> {
    const now = this.get();
    return to <= now.checkedRows ? now : this.whenChecked();
  }
}
