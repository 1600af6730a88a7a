/**
 * An IcebergWriteIO over a Map, for writer and reader tests: files written are kept as bytes, `writeIfAbsent`
 * honours existence; `reads` counts read and readRange calls, `ranged` the bytes readRange returned.
 */
import type { IcebergWriteIO } from '../write-io.ts';

export interface MemoryWriteIO extends IcebergWriteIO {
  readonly files: Map<string, Uint8Array>;
  reads: number;
  ranged: number;
}

export function memoryWriteIO(): MemoryWriteIO {
  const files = new Map<string, Uint8Array>();
  const io: MemoryWriteIO = {
    files,
    reads: 0,
    ranged: 0,
    read: async (u) => { io.reads++; return files.get(u)!; },
    readRange: async (u, o, l) => { io.reads++; io.ranged += l; return files.get(u)!.subarray(o, o + l); },
    write: async (u, d) => { files.set(u, d); },
    writeIfAbsent: async (u, d) => { if (files.has(u)) return false; files.set(u, d); return true; },
  };
  return io;
}
