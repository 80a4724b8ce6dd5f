/**
 * Rows by reference, to find references repeated within a file, as an open-addressing hash table
 * of row numbers in an Int32Array (and a byte of each one's hash beside it). A Map of 100,000 (or
 * 1,000,000) strings costs more to build than validating the rows, mostly in allocation and
 * garbage collection; this table is two allocations, plain data that a worker can post, and
 * updates in place when a cell is edited.
 * Keys are not stored: a slot holds row + 1 (and a byte of the key's hash), and the row's current reference
 * is read from the column, so callers remove a row before changing its reference and add it back
 * after.
 */
export interface ReferenceIndex {
  /** row + 1 per slot; 0 is empty, -1 a removed entry that probing walks past. */
  slots: Int32Array;
  /**
   * Eight bits of each slot's reference's hash: most probes end on a differing tag, not a string
   * compare (1 in 256 ends on a string compare for nothing). A byte, not the whole hash: 3 MB less
   * at a million rows.
   */
  tags: Uint8Array;
  /** Slots that are not empty (entries and removed ones), to know when to grow. */
  used: number;
}

const EMPTY = 0;
const REMOVED = -1;
/** The share of slots a table is made for: a million rows take two million slots. */
const LOAD = 0.5;
/**
 * The share of slots in use (removed entries count) past which it grows: well above LOAD, so edits
 * after a check (each can leave a removed entry) go on a long time before a table of every row is
 * rebuilt, which takes a third of a second at a million rows.
 */
const GROW_AT = 0.75;

function hashOf(text: string): number {
  // FNV-1a over UTF-16 code units: fast to compute in a loop, well spread for short codes.
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash | 0;
}

/** The slot a hash starts probing at: its high bits scaled to the capacity, which need not be a power of two. */
function home(hash: number, capacity: number): number {
  return Math.floor(((hash >>> 0) / 2 ** 32) * capacity);
}

/** The tag kept beside a slot: the hash's low bits (home takes its high ones). */
function tagOf(hash: number): number {
  return hash & 0xff;
}

function capacityFor(rows: number): number {
  return Math.max(16, Math.ceil(rows / LOAD) + 1);
}

export function createReferenceIndex(expectedRows: number): ReferenceIndex {
  const capacity = capacityFor(expectedRows);
  return { slots: new Int32Array(capacity), tags: new Uint8Array(capacity), used: 0 };
}

/** Moves every entry into a table sized for `rows`; removed entries are left behind. */
function rehash(index: ReferenceIndex, rows: number, referenceOf: (row: number) => string): void {
  const { slots } = index;
  const capacity = capacityFor(Math.max(rows, 8));
  index.slots = new Int32Array(capacity);
  index.tags = new Uint8Array(capacity);
  index.used = 0;
  for (const slot of slots) {
    if (slot <= 0) continue;
    // The tag keeps only eight bits: the hash is worked out again from the row's reference.
    const hash = hashOf(referenceOf(slot - 1));
    let at = home(hash, capacity);
    while (index.slots[at] !== EMPTY) at = at + 1 === capacity ? 0 : at + 1;
    index.slots[at] = slot;
    index.tags[at] = tagOf(hash);
    index.used++;
  }
}

/**
 * Adds a row under its reference and returns how many rows had that reference before it
 * (0 when it is the first), so a caller building the index learns about duplicates at once.
 */
export function addToReferenceIndex(index: ReferenceIndex, reference: string, row: number, referenceOf: (row: number) => string): number {
  if (index.used + 1 > index.slots.length * GROW_AT) {
    let entries = 0;
    for (const slot of index.slots) if (slot > 0) entries++;
    rehash(index, (entries + 1) * 2, referenceOf);
  }
  const { slots, tags } = index;
  const capacity = slots.length;
  const hash = hashOf(reference);
  const tag = tagOf(hash);
  let at = home(hash, capacity);
  let before = 0;
  let free = -1;
  for (let slot = slots[at] ?? EMPTY; slot !== EMPTY; slot = slots[at] ?? EMPTY) {
    if (slot === REMOVED) {
      if (free < 0) free = at;
    } else if (tags[at] === tag && referenceOf(slot - 1) === reference) before++;
    at = at + 1 === capacity ? 0 : at + 1;
  }
  if (free < 0) {
    free = at;
    index.used++;
  }
  slots[free] = row + 1;
  tags[free] = tag;
  return before;
}

export function removeFromReferenceIndex(index: ReferenceIndex, reference: string, row: number): void {
  const { slots } = index;
  const capacity = slots.length;
  for (let at = home(hashOf(reference), capacity); slots[at] !== EMPTY; at = at + 1 === capacity ? 0 : at + 1) {
    if (slots[at] === row + 1) {
      slots[at] = REMOVED;
      return;
    }
  }
}

/** Rows with this reference, in row order. */
export function rowsWithReference(index: ReferenceIndex, reference: string, referenceOf: (row: number) => string): number[] {
  const { slots, tags } = index;
  const capacity = slots.length;
  const hash = hashOf(reference);
  const tag = tagOf(hash);
  const rows: number[] = [];
  for (let at = home(hash, capacity); slots[at] !== EMPTY; at = at + 1 === capacity ? 0 : at + 1) {
    const slot = slots[at] ?? EMPTY;
    if (slot > 0 && tags[at] === tag && referenceOf(slot - 1) === reference) rows.push(slot - 1);
  }
  return rows.sort((a, b) => a - b);
}
