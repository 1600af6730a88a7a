/**
 * IcebergIO: the file access the Iceberg reader needs. A stand-in for storage/'s FileIO until it lands;
 * an adapter over FileIO only has to forward read/readRange/list.
 * LocalPrefixIO maps the location prefixes written inside metadata, manifests and delete files
 * (s3a://bucket/…, relative `lineitem_iceberg/…`, malformed `file://data/…`) to local folders, because
 * rewriting the JSON alone is not enough: Avro manifests and position deletes carry the same paths.
 */
import { readFile, readdir, open } from 'node:fs/promises';
import { pgError } from '../common/errors.ts';

export interface IcebergIO {
  read(uri: string): Promise<Uint8Array>;
  readRange(uri: string, offset: number, length: number): Promise<Uint8Array>;
  /** file names (not paths) directly inside a folder URI; used to find metadata without version-hint.text */
  list?(folderUri: string): Promise<string[]>;
  /** atomic create (true when written, false when the file existed); absent on read-only IO */
  writeIfAbsent?(uri: string, data: Uint8Array): Promise<boolean>;
  /** a structured-cloneable recipe a worker thread rebuilds this IO from (parallel/io-from-description.ts); absent = main thread only */
  describe?(): IcebergIODescription;
}

/** How to build an equivalent IcebergIO in another thread; `options` holds storage/'s FileIOOptions (plain data). */
export type IcebergIODescription =
  | { readonly kind: 'file-io'; readonly options: unknown }
  | { readonly kind: 'local-prefix'; readonly prefixMap: Readonly<Record<string, string>> };

export class LocalPrefixIO implements IcebergIO {
  private readonly prefixes: readonly (readonly [string, string])[];

  /** prefixMap: location prefix as written in the table files → local folder. Longest prefix wins. */
  constructor(private readonly prefixMap: Readonly<Record<string, string>> = {}) {
    this.prefixes = Object.entries(prefixMap).sort((a, b) => b[0].length - a[0].length);
  }

  describe(): IcebergIODescription {
    return { kind: 'local-prefix', prefixMap: { ...this.prefixMap } };
  }

  resolve(uri: string): string {
    for (const [prefix, local] of this.prefixes) {
      if (uri === prefix) return local;
      if (uri.startsWith(prefix) && (prefix.endsWith('/') || uri[prefix.length] === '/')) {
        return local.replace(/\/$/, '') + '/' + uri.slice(prefix.length).replace(/^\//, '');
      }
    }
    if (uri.startsWith('file://')) return decodeURIComponent(uri.slice('file://'.length));
    if (uri.startsWith('/')) return uri;
    throw pgError('58030', `could not open file "${uri}": no local folder is mapped for its location prefix`);
  }

  async read(uri: string): Promise<Uint8Array> {
    const path = this.resolve(uri);
    try {
      const b = await readFile(path);
      return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
    } catch (e) {
      throw pgError('58030', `could not read file "${uri}": ${(e as Error).message}`, { cause: e });
    }
  }

  async readRange(uri: string, offset: number, length: number): Promise<Uint8Array> {
    const path = this.resolve(uri);
    try {
      const fh = await open(path, 'r');
      try {
        const out = new Uint8Array(length);
        const { bytesRead } = await fh.read(out, 0, length, offset);
        return out.subarray(0, bytesRead);
      } finally {
        await fh.close();
      }
    } catch (e) {
      throw pgError('58030', `could not read file "${uri}": ${(e as Error).message}`, { cause: e });
    }
  }

  async list(folderUri: string): Promise<string[]> {
    try {
      return await readdir(this.resolve(folderUri));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw pgError('58030', `could not list folder "${folderUri}": ${(e as Error).message}`, { cause: e });
    }
  }
}

/** The part of storage/'s FileIO this module uses (structural, so iceberg/ does not pin FileIO's class). */
export interface FileIOLike {
  read(uri: string): Promise<Uint8Array>;
  readRange(uri: string, offset: number, length: number): Promise<Uint8Array>;
  list(uriPrefix: string): AsyncIterable<{ readonly uri: string }>;
  writeIfAbsent?(uri: string, data: Uint8Array): Promise<boolean>;
  /** FileIO's constructor options as plain data (see FileIO.describe) */
  describe?(): unknown;
}

/** Adapts storage/'s FileIO (path maps, S3, local, memory) to IcebergIO. */
export function icebergIOFromFileIO(fileIO: FileIOLike): IcebergIO {
  return {
    read: (uri) => fileIO.read(uri),
    readRange: (uri, offset, length) => fileIO.readRange(uri, offset, length),
    ...(fileIO.writeIfAbsent === undefined ? {} : { writeIfAbsent: (uri: string, data: Uint8Array) => fileIO.writeIfAbsent!(uri, data) }),
    ...(fileIO.describe === undefined ? {} : { describe: (): IcebergIODescription => ({ kind: 'file-io', options: fileIO.describe!() }) }),
    async list(folderUri) {
      const prefix = folderUri.replace(/\/+$/, '') + '/';
      const names: string[] = [];
      for await (const f of fileIO.list(prefix)) {
        const rest = f.uri.startsWith(prefix) ? f.uri.slice(prefix.length) : f.uri.slice(f.uri.lastIndexOf('/') + 1);
        if (rest !== '' && !rest.includes('/')) names.push(rest);
      }
      return names;
    },
  };
}
