/**
 * A zip archive read from its central directory (deflate and stored entries, zip64, names in any
 * case). Entry data is decompressed only on request: the small parts by fflate in one call, the
 * shared strings and the sheet streamed (see openEntryStream) by the platform's own inflater,
 * `DecompressionStream('deflate-raw')`, where there is one, else by fflate. No CRC check: a
 * damaged deflate stream fails to inflate or gives the wrong size, and both are refused.
 */
import { Inflate, inflateSync } from 'fflate';
import { XlsxDeclinedError, XlsxReadError, damaged } from './xlsx-errors';

export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  localHeaderOffset: number;
  encrypted: boolean;
}

const EOCD = 0x06054b50;
const ZIP64_EOCD = 0x06064b50;
const ZIP64_LOCATOR = 0x07064b50;
const CENTRAL_HEADER = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const STORED = 0;
const DEFLATED = 8;
/** `read` refuses larger parts: the small parts never are, and a lying size must not become a huge allocation. */
const READ_LIMIT = 64 * 1024 * 1024;
/**
 * ZipEntryStream inflates entries up to this size whole (the shared strings, smaller sheets);
 * larger ones, in slices, so a big sheet's XML never sits in memory at once.
 */
const WHOLE_LIMIT = 16 * 1024 * 1024;
const CFB_MAGIC = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

const names = new TextDecoder();

/** Entry names are matched case-insensitively: some writers store `XL/Workbook.xml`. */
function normalizeZipPath(path: string): string {
  return path.replace(/\\/g, '/').replace(/^\/+/, '').toLowerCase();
}

/** Bounds on what a part may inflate to, checked before a part is inflated and while it is. */
export interface PartLimits {
  /** Inflated bytes of any part. */
  maxPartBytes: number;
  /** Inflated ÷ compressed size of a part over RATIO_FLOOR bytes. */
  maxInflateRatio: number;
}

/** Small parts may compress far better than a sheet does (a run of blanks, one 2 MB cell of one letter): the ratio applies above this. */
const RATIO_FLOOR = 16 * 1024 * 1024;
const NO_PART_LIMITS: PartLimits = { maxPartBytes: Infinity, maxInflateRatio: Infinity };

const megabytes = (bytes: number) => `${Math.round(bytes / 2 ** 20).toLocaleString('en-US')} MB`;

export class ZipArchive {
  private readonly entries = new Map<string, ZipEntry>();

  /**
   * Every part is held to `limits` by the size its zip entry declares, before any byte is
   * inflated; the inflaters then refuse a part that yields one byte more than it declared
   * (ZipEntryStream, NativeEntryStream, read), so a lying entry is caught while it inflates.
   */
  constructor(
    readonly bytes: Uint8Array,
    private readonly limits: PartLimits = NO_PART_LIMITS,
  ) {
    assertZipContainer(bytes);
    for (const entry of readCentralDirectory(bytes)) this.entries.set(normalizeZipPath(entry.name), entry);
  }

  find(path: string): ZipEntry | undefined {
    return this.entries.get(normalizeZipPath(path));
  }

  /** The whole content of a part of at most READ_LIMIT bytes. */
  read(entry: ZipEntry): Uint8Array {
    if (entry.size > READ_LIMIT) {
      throw new XlsxReadError('too_large', `The workbook is too large to read: its part ${entry.name} holds ${Math.round(entry.size / 2 ** 20)} MB.`);
    }
    const compressed = this.compressedData(entry);
    if (entry.method === STORED) return compressed;
    let data: Uint8Array;
    try {
      // The size is known: one buffer instead of a growing one, a byte longer to notice more data.
      data = inflateSync(compressed, { out: new Uint8Array(entry.size + 1) });
    } catch {
      throw damaged(`the part ${entry.name} cannot be decompressed`);
    }
    if (data.length !== entry.size) throw damaged(`the part ${entry.name} does not have the size its zip entry says`);
    return data;
  }

  /** The compressed bytes of an entry, checked to lie inside the archive. */
  compressedData(entry: ZipEntry): Uint8Array {
    const { bytes } = this;
    const at = entry.localHeaderOffset;
    if (at + 30 > bytes.length) throw endsEarly();
    if (readU32(bytes, at) !== LOCAL_HEADER) throw damaged(`the zip entry of ${entry.name} is broken`);
    // The local header's extra field may differ from the central directory's, so read its length here.
    const start = at + 30 + readU16(bytes, at + 26) + readU16(bytes, at + 28);
    const end = start + entry.compressedSize;
    if (end > bytes.length) throw endsEarly();
    if (entry.encrypted) throw new XlsxReadError('invalid_file', `The workbook is damaged: the part ${entry.name} is encrypted with a zip password.`);
    if (entry.method !== STORED && entry.method !== DEFLATED) {
      throw damaged(`the part ${entry.name} uses an unsupported compression method (${entry.method})`);
    }
    if (entry.method === STORED && entry.size !== entry.compressedSize) {
      throw damaged(`the part ${entry.name} does not have the size its zip entry says`);
    }
    this.checkInflatedSize(entry);
    return bytes.subarray(start, end);
  }

  private checkInflatedSize(entry: ZipEntry): void {
    const { maxPartBytes, maxInflateRatio } = this.limits;
    if (entry.size > maxPartBytes) {
      throw new XlsxReadError('too_large', `The workbook's part ${entry.name} inflates to ${megabytes(entry.size)}; the limit is ${megabytes(maxPartBytes)} per part.`);
    }
    if (entry.size > RATIO_FLOOR && entry.size > entry.compressedSize * maxInflateRatio) {
      const ratio = Math.round(entry.size / Math.max(1, entry.compressedSize)).toLocaleString('en-US');
      throw new XlsxReadError(
        'too_large',
        `The workbook's part ${entry.name} inflates ${ratio} times (${megabytes(entry.size)}); a spreadsheet inflates at most ${maxInflateRatio} times, so this is refused as a zip bomb.`,
      );
    }
  }
}

/** Output handed to the scanner per step: bounds the text alive at a time. */
const CHUNK = 1024 * 1024;
/**
 * Streamed inflation: compressed slice bounds, adapted to the ratio to give about CHUNK per slice.
 * The first slice is the smallest: at deflate's ratio of 1,000 it still gives only 4 MB, which a
 * zip bomb must not be able to multiply before the adaptation (or a limit) stops it.
 */
const MIN_SLICE = 4 * 1024;
const MAX_SLICE = 2 * 1024 * 1024;

/**
 * An entry's content in chunks of about CHUNK bytes, so that the caller can decode and scan a
 * chunk at a time, report progress and yield in between.
 *
 * Entries up to WHOLE_LIMIT are inflated in one call into one exact byte buffer, then handed out
 * in slices: on a first read fflate's one-call inflate is markedly faster than its streaming
 * inflater (which regrows and copies its output buffer on every push and is re-optimized at slice
 * ends). Larger entries are inflated slice by slice, so memory stays bounded whatever the sheet's
 * size. Either way the text is decoded chunk by chunk; no string ever holds the whole part.
 */
export class ZipEntryStream implements EntryChunks {
  private readonly compressed: Uint8Array;
  private readonly inflate: Inflate | null = null;
  private whole: Uint8Array | null = null;
  private readonly output: Uint8Array[] = [];
  private sliceSize = MIN_SLICE;
  private offset = 0;
  private produced = 0;
  private finished = false;

  constructor(
    private readonly archive: ZipArchive,
    private readonly entry: ZipEntry,
    wholeLimit = WHOLE_LIMIT,
  ) {
    this.compressed = archive.compressedData(entry);
    if (entry.method === DEFLATED && entry.size > wholeLimit) {
      this.inflate = new Inflate((chunk) => {
        this.output.push(chunk);
      });
    }
  }

  get done(): boolean {
    return this.finished;
  }

  /** Share of the entry handed out so far, for progress. */
  get fraction(): number {
    if (this.inflate === null) return this.entry.size === 0 ? 1 : this.offset / this.entry.size;
    return this.compressed.length === 0 ? 1 : this.offset / this.compressed.length;
  }

  /** The next chunk of content (possibly none while streaming). */
  next(): Uint8Array[] {
    if (this.inflate !== null) return this.nextInflated(this.inflate);
    this.whole ??= this.archive.read(this.entry);
    const end = Math.min(this.offset + CHUNK, this.whole.length);
    const chunk = this.whole.subarray(this.offset, end);
    this.offset = end;
    this.finished = end >= this.whole.length;
    if (this.finished) this.whole = null;
    return chunk.length > 0 ? [chunk] : [];
  }

  private nextInflated(inflate: Inflate): Uint8Array[] {
    const end = Math.min(this.offset + this.sliceSize, this.compressed.length);
    const slice = this.compressed.subarray(this.offset, end);
    this.offset = end;
    const final = end >= this.compressed.length;
    this.finished = final;
    try {
      inflate.push(slice, final);
    } catch {
      throw damaged(`the part ${this.entry.name} cannot be decompressed`);
    }
    const chunks = this.output.splice(0);
    let produced = 0;
    for (const chunk of chunks) produced += chunk.length;
    this.produced += produced;
    if (produced > 0) this.sliceSize = Math.max(MIN_SLICE, Math.min(MAX_SLICE, Math.round((CHUNK * slice.length) / produced)));
    if (this.produced > this.entry.size || (final && this.produced !== this.entry.size)) {
      throw damaged(`the part ${this.entry.name} does not have the size its zip entry says`);
    }
    return chunks;
  }

  close(): void {
    this.finished = true;
    this.whole = null;
  }
}

/** Which inflater streams the large parts: the platform's `DecompressionStream` or fflate. */
export type InflateMode = 'native' | 'fflate';

interface InflateScope {
  DecompressionStream?: new (format: CompressionFormat) => unknown;
  process?: { versions?: { node?: string } };
}

/** Whether a scope's platform inflates raw deflate streams itself (browsers since 2023, Node 18+). */
export function hasNativeInflate(scope: InflateScope): boolean {
  try {
    if (typeof scope.DecompressionStream !== 'function') return false;
    new scope.DecompressionStream('deflate-raw');
    return true;
  } catch {
    return false; // no 'deflate-raw' format
  }
}

/**
 * The inflater for a scope when the caller forces none. Browsers' DecompressionStream is native
 * code end to end and inflates a 49 MB sheet in a cold worker in ~0.2 s, fflate's streaming
 * inflater in ~1.1 s. Node's is zlib behind a JavaScript stream adapter that hands out 16 KiB
 * pieces, each through several promises: no faster than fflate there, and the whole read is
 * slower (xlsx.bench.ts), so Node keeps fflate. Telling Node by its `process.versions` reads a
 * global only; the module uses no Node API.
 */
export function preferredInflate(scope: InflateScope): InflateMode {
  return hasNativeInflate(scope) && typeof scope.process?.versions?.node !== 'string' ? 'native' : 'fflate';
}

let platformInflate: InflateMode | undefined;
let forcedInflate: InflateMode | undefined;

/** This platform's inflater, decided once, unless one is forced. */
export function defaultInflate(): InflateMode {
  return forcedInflate ?? (platformInflate ??= preferredInflate(globalThis));
}

/** @internal Tests: run a whole suite on one inflater (undefined: the platform's again). */
export function forceInflate(mode: InflateMode | undefined): void {
  forcedInflate = mode;
}

/** The streams' common face; `next` may be asynchronous (the native inflater is). */
export interface EntryChunks {
  readonly done: boolean;
  /** Share of the entry handed out so far, for progress. */
  readonly fraction: number;
  /** The next chunks of content (possibly none); each is valid only until the next call. */
  next(): Uint8Array[] | Promise<Uint8Array[]>;
  /** Releases the inflater when the caller stops early (cancel, an error, `</sheetData>`). */
  close(): void;
}

/**
 * An entry's content in chunks of about CHUNK bytes, deflated entries inflated by `mode`
 * (default: the platform's choice, see preferredInflate).
 */
export function openEntryStream(archive: ZipArchive, entry: ZipEntry, mode: InflateMode = defaultInflate()): EntryChunks {
  if (mode === 'native' && entry.method === DEFLATED) return new NativeEntryStream(archive, entry);
  return new ZipEntryStream(archive, entry);
}

/** Compressed bytes handed to the native inflater per write: bounds the output waiting to be read. */
const NATIVE_SLICE = 64 * 1024;

/**
 * A deflated entry inflated by `DecompressionStream('deflate-raw')`, fed a slice of the
 * compressed bytes at a time as its output is read (the pipe's backpressure), so that memory
 * holds about one slice's output plus one CHUNK. The output, in the inflater's own small pieces,
 * is gathered into one reused CHUNK-sized buffer: the caller decodes each chunk before asking for
 * the next, so no part's bytes are ever held whole.
 */
class NativeEntryStream implements EntryChunks {
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly buffer: Uint8Array;
  /** Output read from the inflater but not yet handed out (it did not fit the buffer). */
  private carry: Uint8Array | null = null;
  private produced = 0;
  private finished = false;

  constructor(
    archive: ZipArchive,
    private readonly entry: ZipEntry,
  ) {
    const compressed = archive.compressedData(entry);
    let offset = 0;
    const source = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          const end = Math.min(offset + NATIVE_SLICE, compressed.length);
          if (end > offset) controller.enqueue(compressed.subarray(offset, end));
          offset = end;
          if (offset >= compressed.length) controller.close();
        },
      },
      { highWaterMark: 0 },
    );
    // The source's chunks are Uint8Array, as the inflater's writable side accepts.
    this.reader = source.pipeThrough(new DecompressionStream('deflate-raw') as unknown as ReadableWritablePair<Uint8Array, Uint8Array>).getReader();
    this.buffer = new Uint8Array(Math.min(CHUNK, entry.size + 1));
  }

  get done(): boolean {
    return this.finished;
  }

  get fraction(): number {
    return this.entry.size === 0 ? 1 : Math.min(1, this.produced / this.entry.size);
  }

  async next(): Promise<Uint8Array[]> {
    const { buffer } = this;
    let fill = 0;
    while (fill < buffer.length) {
      let piece = this.carry;
      this.carry = null;
      if (piece === null) {
        let result: ReadableStreamReadResult<Uint8Array>;
        try {
          result = await this.reader.read();
        } catch {
          throw damaged(`the part ${this.entry.name} cannot be decompressed`);
        }
        if (result.done) {
          this.finished = true;
          if (this.produced !== this.entry.size) throw this.wrongSize();
          break;
        }
        piece = result.value;
        this.produced += piece.length;
        if (this.produced > this.entry.size) {
          this.close();
          throw this.wrongSize();
        }
      }
      const room = buffer.length - fill;
      if (piece.length > room) {
        buffer.set(piece.subarray(0, room), fill);
        this.carry = piece.subarray(room);
        fill += room;
      } else {
        buffer.set(piece, fill);
        fill += piece.length;
      }
    }
    return fill > 0 ? [buffer.subarray(0, fill)] : [];
  }

  close(): void {
    this.finished = true;
    this.reader.cancel().catch(() => undefined);
  }

  private wrongSize(): XlsxReadError {
    return damaged(`the part ${this.entry.name} does not have the size its zip entry says`);
  }
}

function endsEarly(): XlsxReadError {
  return damaged('the zip archive ends early');
}

function assertZipContainer(bytes: Uint8Array): void {
  if (CFB_MAGIC.every((byte, index) => bytes[index] === byte)) {
    throw new XlsxDeclinedError('The workbook is an encrypted or legacy Office file (a CFB container), not a zip archive.');
  }
  if (bytes.length < 4 || bytes[0] !== 0x50 || bytes[1] !== 0x4b) {
    throw new XlsxReadError('invalid_file', 'The file is not an XLSX workbook: it is not a zip archive.');
  }
}

function readU16(bytes: Uint8Array, at: number): number {
  return (bytes[at] ?? 0) | ((bytes[at + 1] ?? 0) << 8);
}

function readU32(bytes: Uint8Array, at: number): number {
  return (readU16(bytes, at) | (readU16(bytes, at + 2) << 16)) >>> 0;
}

function readU64(bytes: Uint8Array, at: number): number {
  return readU32(bytes, at) + readU32(bytes, at + 4) * 0x1_0000_0000;
}

interface Directory {
  count: number;
  offset: number;
  size: number;
}

/** The end-of-central-directory record sits in the last 64 KiB (after an optional comment). */
function findDirectory(bytes: Uint8Array): Directory {
  const lowest = Math.max(0, bytes.length - 22 - 0xffff);
  for (let at = bytes.length - 22; at >= lowest; at--) {
    if (bytes[at] !== 0x50 || readU32(bytes, at) !== EOCD) continue;
    const directory = { count: readU16(bytes, at + 10), size: readU32(bytes, at + 12), offset: readU32(bytes, at + 16) };
    const locator = at - 20;
    if (locator >= 0 && readU32(bytes, locator) === ZIP64_LOCATOR) {
      const record = readU64(bytes, locator + 8);
      if (record + 56 > bytes.length || readU32(bytes, record) !== ZIP64_EOCD) throw damaged('its zip64 directory is broken');
      directory.count = readU64(bytes, record + 32);
      directory.size = readU64(bytes, record + 40);
      directory.offset = readU64(bytes, record + 48);
    }
    if (directory.offset + directory.size > bytes.length) throw endsEarly();
    return directory;
  }
  throw endsEarly();
}

function readCentralDirectory(bytes: Uint8Array): ZipEntry[] {
  const { count, offset } = findDirectory(bytes);
  const entries: ZipEntry[] = [];
  let at = offset;
  for (let index = 0; index < count; index++) {
    if (at + 46 > bytes.length) throw endsEarly();
    if (readU32(bytes, at) !== CENTRAL_HEADER) throw damaged('its zip directory is broken');
    const nameLength = readU16(bytes, at + 28);
    const extraLength = readU16(bytes, at + 30);
    const commentLength = readU16(bytes, at + 32);
    const entry: ZipEntry = {
      name: names.decode(bytes.subarray(at + 46, at + 46 + nameLength)),
      method: readU16(bytes, at + 10),
      encrypted: (readU16(bytes, at + 8) & 1) === 1,
      compressedSize: readU32(bytes, at + 20),
      size: readU32(bytes, at + 24),
      localHeaderOffset: readU32(bytes, at + 42),
    };
    applyZip64Extra(bytes, at + 46 + nameLength, extraLength, entry);
    entries.push(entry);
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** Fields saturated at 0xFFFFFFFF are given in the zip64 extra field, in this fixed order. */
function applyZip64Extra(bytes: Uint8Array, start: number, length: number, entry: ZipEntry): void {
  const saturated = 0xffffffff;
  if (entry.size !== saturated && entry.compressedSize !== saturated && entry.localHeaderOffset !== saturated) return;
  for (let at = start; at + 4 <= start + length; ) {
    const id = readU16(bytes, at);
    const size = readU16(bytes, at + 2);
    if (id === 0x0001) {
      let field = at + 4;
      if (entry.size === saturated) {
        entry.size = readU64(bytes, field);
        field += 8;
      }
      if (entry.compressedSize === saturated) {
        entry.compressedSize = readU64(bytes, field);
        field += 8;
      }
      if (entry.localHeaderOffset === saturated) entry.localHeaderOffset = readU64(bytes, field);
      return;
    }
    at += 4 + size;
  }
  throw damaged(`the zip64 sizes of ${entry.name} are missing`);
}
