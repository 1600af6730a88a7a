/**
 * IcebergWriteIO: the file access the write path needs on top of the reader's IcebergIO. storage/'s
 * FileIO satisfies it structurally. Data files, manifests and manifest lists get fresh random names, so
 * plain `write` is enough for them; metadata files use `writeIfAbsent` so two writers can never
 * overwrite each other's version file (the catalog CAS decides which one becomes current).
 */
import type { IcebergIO } from '../io.ts';

export interface IcebergWriteIO extends IcebergIO {
  write(uri: string, data: Uint8Array): Promise<void>;
  /** atomic create: false when the file already exists */
  writeIfAbsent(uri: string, data: Uint8Array): Promise<boolean>;
  /** removes a file (DROP TABLE … purge); absent where the store cannot delete */
  delete?(uri: string): Promise<void>;
  /**
   * writes a file whose bytes are still being produced (a streaming Parquet file, byte-channel.ts); readers never
   * see it partial, and a body that throws leaves no file. Absent: writers buffer the file and use `write`.
   */
  writeStream?(uri: string, body: AsyncIterable<Uint8Array>): Promise<void>;
}

export interface FileIOWritable {
  /** storage/'s FileIO takes a Uint8Array or an AsyncIterable of chunks (ObjectStore PutBody) */
  write(uri: string, data: Uint8Array | AsyncIterable<Uint8Array>): Promise<void>;
  writeIfAbsent(uri: string, data: Uint8Array): Promise<boolean>;
  delete?(uri: string): Promise<void>;
}

/** The reader's IcebergIO plus FileIO's writes. */
export function writableIcebergIO(io: IcebergIO, fileIO: FileIOWritable): IcebergWriteIO {
  return {
    read: (uri) => io.read(uri),
    readRange: (uri, offset, length) => io.readRange(uri, offset, length),
    ...(io.list === undefined ? {} : { list: io.list.bind(io) }),
    write: (uri, data) => fileIO.write(uri, data),
    writeStream: (uri, body) => fileIO.write(uri, body),
    writeIfAbsent: (uri, data) => fileIO.writeIfAbsent(uri, data),
    ...(fileIO.delete === undefined ? {} : { delete: fileIO.delete.bind(fileIO) }),
  };
}
