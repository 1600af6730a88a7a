/**
 * A worker thread's IcebergIO, rebuilt from the main thread's IcebergIO.describe() (io.ts) and kept for the
 * worker's lifetime per description, so S3 clients and their sockets are reused across tasks.
 */
import { FileIO, type FileIOOptions } from '../../storage/index.ts';
import { LocalPrefixIO, icebergIOFromFileIO, type IcebergIO, type IcebergIODescription } from '../io.ts';

const cache = new Map<string, IcebergIO>();

export function ioFromDescription(d: IcebergIODescription): IcebergIO {
  const key = JSON.stringify(d);
  let io = cache.get(key);
  if (io === undefined) {
    io = d.kind === 'local-prefix' ? new LocalPrefixIO(d.prefixMap) : icebergIOFromFileIO(new FileIO(d.options as FileIOOptions));
    cache.set(key, io);
  }
  return io;
}

/** A description only when every data and delete file can be read from another thread (not memory:// stores). */
export function describeForWorkers(io: IcebergIO, paths: Iterable<string>): IcebergIODescription | undefined {
  const d = io.describe?.();
  if (d === undefined) return undefined;
  for (const p of paths) if (/^memory:/i.test(p)) return undefined;
  return d;
}
