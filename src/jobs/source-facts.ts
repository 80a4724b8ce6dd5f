// The source file's facts a job keeps: its size and SHA-256, so History can tell two drops of the
// same file apart from two different files of one name. The hash is WebCrypto's (crypto.subtle
// digests off the page's thread in browsers); the bytes are read asynchronously.
export async function sha256Hex(file: Blob): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', await file.arrayBuffer());
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}
