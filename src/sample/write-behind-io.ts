/**
 * writeBehindDataFiles: an IcebergWriteIO decorator that lets Parquet data-file writes run concurrently
 * (up to `concurrency` in flight) instead of one after another. The local store fsyncs every file and its
 * folder, so the 731 day-partition files of `orders` written serially spend most of the build waiting on
 * the disk. Ordering is kept where it matters: any other write (manifest, manifest list, metadata file)
 * first waits for every pending data file and fails if one failed, so nothing that references a data file
 * is written before the file is durable, and a commit can never point at a missing file.
 */
import type { IcebergWriteIO } from '../iceberg/index.ts';

const isDataFile = (uri: string): boolean => uri.endsWith('.parquet');

export function writeBehindDataFiles(io: IcebergWriteIO, concurrency = 16): IcebergWriteIO {
  const pending = new Set<Promise<void>>();
  let failure: { error: unknown } | null = null;

  const drain = async (): Promise<void> => {
    while (pending.size > 0) await Promise.allSettled([...pending]);
    if (failure !== null) {
      const { error } = failure;
      failure = null;
      throw error;
    }
  };

  return {
    read: (uri) => io.read(uri),
    readRange: (uri, offset, length) => io.readRange(uri, offset, length),
    ...(io.list === undefined ? {} : { list: io.list.bind(io) }),
    async write(uri, data) {
      if (!isDataFile(uri)) {
        await drain();
        return io.write(uri, data);
      }
      if (failure !== null) return drain();
      while (pending.size >= concurrency) await Promise.race(pending);
      const p: Promise<void> = io.write(uri, data).then(
        () => void pending.delete(p),
        (error: unknown) => {
          pending.delete(p);
          failure ??= { error };
        },
      );
      pending.add(p);
    },
    async writeIfAbsent(uri, data) {
      await drain();
      return io.writeIfAbsent(uri, data);
    },
  };
}
