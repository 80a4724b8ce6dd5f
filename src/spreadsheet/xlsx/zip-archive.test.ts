import { describe, expect, it } from 'vitest';
import { XlsxReadError } from './xlsx-errors';
import { writeZip } from './test-workbooks.fixture';
import { type EntryChunks, type InflateMode, type ZipEntry, ZipArchive, ZipEntryStream, hasNativeInflate, openEntryStream, preferredInflate } from './zip-archive';

function concat(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

// Vitest's deep equality is slow on megabytes of bytes.
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, index) => byte === b[index]);
}

function drain(stream: ZipEntryStream): { data: Uint8Array; steps: number; fractions: number[] } {
  const chunks: Uint8Array[] = [];
  const fractions: number[] = [];
  let steps = 0;
  while (!stream.done) {
    chunks.push(...stream.next());
    fractions.push(stream.fraction);
    steps++;
  }
  return { data: concat(chunks), steps, fractions };
}

// About 5 MB of varied XML-like text: several chunks whole, many slices streamed.
const text = Array.from({ length: 60_000 }, (_, index) => `<row r="${index}"><c><v>${(index * 7919) % 100_003}</v></c></row>`).join('');
const archive = new ZipArchive(
  writeZip([
    { name: 'deflated.xml', data: text },
    { name: 'stored.xml', data: text, stored: true },
  ]),
);
const expected = new TextEncoder().encode(text);

describe('ZipEntryStream', () => {
  it('hands out the same bytes inflated whole or slice by slice, in bounded chunks', () => {
    const entry = archive.find('DEFLATED.XML');
    if (!entry) throw new Error('missing entry');
    const whole = drain(new ZipEntryStream(archive, entry));
    const streamed = drain(new ZipEntryStream(archive, entry, 0));
    expect(sameBytes(whole.data, expected)).toBe(true);
    expect(sameBytes(streamed.data, expected)).toBe(true);
    expect(whole.steps).toBeGreaterThan(1);
    expect(streamed.steps).toBeGreaterThan(1);
    for (const { fractions } of [whole, streamed]) {
      expect(fractions.at(-1)).toBe(1);
      expect(fractions).toEqual([...fractions].sort((a, b) => a - b));
    }
  });

  it('hands out stored entries as they are', () => {
    const entry = archive.find('stored.xml');
    if (!entry) throw new Error('missing entry');
    expect(sameBytes(drain(new ZipEntryStream(archive, entry)).data, expected)).toBe(true);
  });

  it('refuses an entry whose content is not the size its directory says', () => {
    const entry = archive.find('deflated.xml');
    if (!entry) throw new Error('missing entry');
    for (const size of [entry.size - 1, entry.size + 1]) {
      const lying = { ...entry, size };
      for (const wholeLimit of [Infinity, 0]) {
        expect(() => drain(new ZipEntryStream(archive, lying, wholeLimit))).toThrow(XlsxReadError);
      }
    }
  });

  it('refuses to allocate a huge declared size for a part read whole', () => {
    const entry = archive.find('deflated.xml');
    if (!entry) throw new Error('missing entry');
    expect(() => archive.read({ ...entry, size: 2 ** 40 })).toThrow(/too large/);
  });
});

async function drainAsync(stream: EntryChunks): Promise<{ data: Uint8Array; fractions: number[] }> {
  const chunks: Uint8Array[] = [];
  const fractions: number[] = [];
  while (!stream.done) {
    // Copies: the native stream reuses its buffer for the next chunk.
    for (const chunk of await stream.next()) chunks.push(chunk.slice());
    fractions.push(stream.fraction);
  }
  return { data: concat(chunks), fractions };
}

async function failure(read: Promise<unknown>): Promise<string> {
  const error: unknown = await read.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(XlsxReadError);
  return (error as XlsxReadError).message;
}

function entryOf(name: string): ZipEntry {
  const entry = archive.find(name);
  if (!entry) throw new Error('missing entry');
  return entry;
}

describe('the inflater chosen for a platform', () => {
  it('is the native one where it reads raw deflate, except in Node', () => {
    class NoRawDeflate {
      constructor(format: string) {
        if (format === 'deflate-raw') throw new TypeError('unsupported format');
      }
    }
    const browser = { DecompressionStream };
    expect(hasNativeInflate(browser)).toBe(true);
    expect(preferredInflate(browser)).toBe('native');
    expect(preferredInflate({ DecompressionStream, process: { versions: { node: '20.20.2' } } })).toBe('fflate');
    expect(hasNativeInflate({ DecompressionStream: NoRawDeflate })).toBe(false);
    expect(preferredInflate({ DecompressionStream: NoRawDeflate })).toBe('fflate');
    expect(preferredInflate({})).toBe('fflate');
  });
});

// Both inflaters, whatever the platform prefers: the whole reader's tests run on each too
// (read-xlsx.test.ts on Node's choice, fflate; read-xlsx.native.test.ts on the native one).
describe.each<InflateMode>(['native', 'fflate'])('openEntryStream, %s inflater', (mode) => {
  it('hands out the entry in bounded chunks with rising progress', async () => {
    const stream = openEntryStream(archive, entryOf('deflated.xml'), mode);
    expect(stream instanceof ZipEntryStream).toBe(mode === 'fflate');
    const { data, fractions } = await drainAsync(stream);
    expect(sameBytes(data, expected)).toBe(true);
    expect(fractions.length).toBeGreaterThan(2);
    expect(fractions.at(-1)).toBe(1);
    expect(fractions).toEqual([...fractions].sort((a, b) => a - b));
  });

  it('hands out stored and empty entries', async () => {
    expect(sameBytes((await drainAsync(openEntryStream(archive, entryOf('stored.xml'), mode))).data, expected)).toBe(true);
    const empty = new ZipArchive(writeZip([{ name: 'empty.xml', data: '' }]));
    expect((await drainAsync(openEntryStream(empty, empty.find('empty.xml') as ZipEntry, mode))).data.length).toBe(0);
  });

  it('refuses an entry whose content is not the size its directory says', async () => {
    const entry = entryOf('deflated.xml');
    for (const size of [entry.size - 1, entry.size + 1, 10]) {
      expect(await failure(drainAsync(openEntryStream(archive, { ...entry, size }, mode)))).toBe(
        'The workbook is damaged: the part deflated.xml does not have the size its zip entry says.',
      );
    }
  });

  it('refuses a deflate stream cut short or corrupt with a sentence', async () => {
    const entry = entryOf('deflated.xml');
    const cut = { ...entry, compressedSize: entry.compressedSize - 1000 };
    expect(await failure(drainAsync(openEntryStream(archive, cut, mode)))).toBe('The workbook is damaged: the part deflated.xml cannot be decompressed.');
    const corrupt = archive.bytes.slice();
    const start = archive.compressedData(entry).byteOffset;
    // Block type 3 does not exist: no inflater can read past the first block header.
    corrupt[start] = 0b111;
    const broken = new ZipArchive(corrupt);
    expect(await failure(drainAsync(openEntryStream(broken, entryOf('deflated.xml'), mode)))).toBe(
      'The workbook is damaged: the part deflated.xml cannot be decompressed.',
    );
  });

  it('can be closed part way', async () => {
    const stream = openEntryStream(archive, entryOf('deflated.xml'), mode);
    expect((await stream.next()).length).toBeGreaterThanOrEqual(0);
    stream.close();
    expect(stream.done).toBe(true);
  });
});
