import { describe, expect, it } from 'vitest';
import { XlsxReadError } from './xlsx-errors';
import { writeZip } from './test-workbooks';
import { ZipArchive, ZipEntryStream } from './zip-archive';

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
