/** An IcebergWriteIO over a Map, for writer tests: files written are kept as bytes, `writeIfAbsent` honours existence. */
import type { IcebergWriteIO } from '../write-io.ts';

export function memoryWriteIO(): IcebergWriteIO & { files: Map<string, Uint8Array> } {
  const files = new Map<string, Uint8Array>();
  return {
    files,
    read: async (u) => files.get(u)!,
    readRange: async (u, o, l) => files.get(u)!.subarray(o, o + l),
    write: async (u, d) => { files.set(u, d); },
    writeIfAbsent: async (u, d) => { if (files.has(u)) return false; files.set(u, d); return true; },
  };
}
