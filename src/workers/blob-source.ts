// A dropped File as the reader's ByteSource: its bytes stay in the browser process, out of the
// worker's heap, and are read back a slice at a time, synchronously. A file changed or moved on
// disk since the drop throws a DOMException NotReadableError from read(); the worker says so.
import type { ByteSource } from '../spreadsheet/file-rows';

// Dedicated workers have it; the DOM library this project compiles against does not declare it.
declare const FileReaderSync: new () => { readAsArrayBuffer(blob: Blob): ArrayBuffer };

export function blobSource(blob: Blob): ByteSource {
  return {
    size: blob.size,
    read: (start, end) => new Uint8Array(new FileReaderSync().readAsArrayBuffer(blob.slice(start, end))),
  };
}
