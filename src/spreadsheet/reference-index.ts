/**
 * Rows by reference, to find references repeated within a file, as an open-addressing hash table
 * of row numbers in one Int32Array. A Map of 100,000 (or 1,000,000) strings costs more to build
 * than validating the rows, mostly in allocation and garbage collection; this table is one
 * allocation, plain data that a worker can post, and updates in place when a cell is edited.
 * Keys are not stored: a slot holds row + 1 (and the key's hash), and the row's current reference
 * is read from the column, so callers remove a row before changing its reference and add it back
 * after.
 */
export interface ReferenceIndex {
  /** row + 1 per slot; 0 is empty, -1 a removed entry that probing walks past. */
  slots: Int32Array;
  /** The hash of each slot's reference: most probes end on a differing hash, not a string compare. */
  hashes: Int32Array;
  /** Slots that are not empty (entries and removed ones), to know when to grow. */
  used: number;
}

const EMPTY = 0;
const REMOVED = -1;

function hashOf(text: string): number {
  // FNV-1a over UTF-16 code units: fast to compute in a loop, well spread for short codes.
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash | 0;
}

function capacityFor(rows: number): number {
  let capacity = 16;
  while (capacity < rows * 2) capacity *= 2;
  return capacity;
}

export function createReferenceIndex(expectedRows: number): ReferenceIndex {
  const capacity = capacityFor(expectedRows);
  return { slots: new Int32Array(capacity), hashes: new Int32Array(capacity), used: 0 };
}

function rehash(index: ReferenceIndex, rows: number): void {
  const { slots, hashes } = index;
  const capacity = capacityFor(Math.max(rows, 8));
  const mask = capacity - 1;
  index.slots = new Int32Array(capacity);
  index.hashes = new Int32Array(capacity);
  index.used = 0;
  for (let from = 0; from < slots.length; from++) {
    const slot = slots[from] ?? EMPTY;
    if (slot <= 0) continue;
    const hash = hashes[from] ?? 0;
    let at = hash & mask;
    while (index.slots[at] !== EMPTY) at = (at + 1) & mask;
    index.slots[at] = slot;
    index.hashes[at] = hash;
    index.used++;
  }
}

/**
 * Adds a row under its reference and returns how many rows had that reference before it
 * (0 when it is the first), so a caller building the index learns about duplicates at once.
 */
export function addToReferenceIndex(index: ReferenceIndex, reference: string, row: number, referenceOf: (row: number) => string): number {
  if (index.used + 1 > index.slots.length / 2) {
    let entries = 0;
    for (const slot of index.slots) if (slot > 0) entries++;
    rehash(index, (entries + 1) * 2);
  }
  const { slots, hashes } = index;
  const mask = slots.length - 1;
  const hash = hashOf(reference);
  let at = hash & mask;
  let before = 0;
  let free = -1;
  for (let slot = slots[at] ?? EMPTY; slot !== EMPTY; slot = slots[at] ?? EMPTY) {
    if (slot === REMOVED) {
      if (free < 0) free = at;
    } else if (hashes[at] === hash && referenceOf(slot - 1) === reference) before++;
    at = (at + 1) & mask;
  }
  if (free < 0) {
    free = at;
    index.used++;
  }
  slots[free] = row + 1;
  hashes[free] = hash;
  return before;
}

export function removeFromReferenceIndex(index: ReferenceIndex, reference: string, row: number): void {
  const { slots } = index;
  const mask = slots.length - 1;
  for (let at = hashOf(reference) & mask; slots[at] !== EMPTY; at = (at + 1) & mask) {
    if (slots[at] === row + 1) {
      slots[at] = REMOVED;
      return;
    }
  }
}

/** Rows with this reference, in row order. */
export function rowsWithReference(index: ReferenceIndex, reference: string, referenceOf: (row: number) => string): number[] {
  const { slots, hashes } = index;
  const mask = slots.length - 1;
  const hash = hashOf(reference);
  const rows: number[] = [];
  for (let at = hash & mask; slots[at] !== EMPTY; at = (at + 1) & mask) {
    const slot = slots[at] ?? EMPTY;
    if (slot > 0 && hashes[at] === hash && referenceOf(slot - 1) === reference) rows.push(slot - 1);
  }
  return rows.sort((a, b) => a - b);
}
