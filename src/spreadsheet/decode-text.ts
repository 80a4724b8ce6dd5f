import { SpreadsheetReadError } from './read-error';

export interface DecodedText {
  text: string;
  /** WHATWG name of the encoding used: utf-8, utf-16le, utf-16be, windows-1252 or the override. */
  encoding: string;
}

function decoder(label: string, fatal = false): TextDecoder {
  try {
    return new TextDecoder(label, { fatal });
  } catch {
    throw new SpreadsheetReadError('invalid_file', `"${label}" is not a text encoding this reader knows.`);
  }
}

/**
 * Text of a CSV file. A byte order mark wins; otherwise UTF-8 if the bytes are valid UTF-8,
 * else Windows-1252 (what Excel writes on Western European Windows), so "é" is never garbled.
 */
export function decodeText(bytes: Uint8Array, encoding?: string, utf16WithoutBom?: 'utf-16le' | 'utf-16be'): DecodedText {
  if (encoding) {
    const chosen = decoder(encoding);
    return { text: chosen.decode(bytes), encoding: chosen.encoding };
  }
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { text: decoder('utf-8').decode(bytes), encoding: 'utf-8' };
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { text: decoder('utf-16le').decode(bytes), encoding: 'utf-16le' };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { text: decoder('utf-16be').decode(bytes), encoding: 'utf-16be' };
  if (utf16WithoutBom) return { text: decoder(utf16WithoutBom).decode(bytes), encoding: utf16WithoutBom };
  // The lenient decoder is about twice as fast as the strict one; only text with a U+FFFD (a
  // bad byte, or rarely a real replacement character) needs the strict verdict.
  const text = decoder('utf-8').decode(bytes);
  if (!text.includes('\uFFFD')) return { text, encoding: 'utf-8' };
  try {
    return { text: decoder('utf-8', true).decode(bytes), encoding: 'utf-8' };
  } catch {
    return { text: decoder('windows-1252').decode(bytes), encoding: 'windows-1252' };
  }
}
