/**
 * MemoryStore: an ObjectStore in a Map, for tests and scratch tables. Copies on the way in and out so
 * callers cannot mutate stored bytes.
 */
import { checkObjectPath, collectBody, type ObjectListing, type ObjectMeta, type ObjectStore, type PutBody } from './object-store.ts';
import { NotFoundError } from './storage-errors.ts';

interface Entry {
  readonly data: Uint8Array;
  readonly lastModified: Date;
}

export class MemoryStore implements ObjectStore {
  readonly #objects = new Map<string, Entry>();
  /** Shown in error messages as `memory://<name>/<path>`. */
  readonly name: string;

  constructor(name = '') {
    this.name = name;
  }

  uriOf(path: string): string {
    return this.name === '' ? `memory://${path}` : `memory://${this.name}/${path}`;
  }

  async get(path: string): Promise<Uint8Array> {
    return this.#entry(path).data.slice();
  }

  async getRange(path: string, offset: number, length: number): Promise<Uint8Array> {
    const { data } = this.#entry(path);
    return data.slice(Math.min(offset, data.byteLength), Math.min(offset + length, data.byteLength));
  }

  async head(path: string): Promise<ObjectMeta | null> {
    const e = this.#objects.get(checkObjectPath(path));
    return e === undefined ? null : { size: e.data.byteLength, lastModified: e.lastModified };
  }

  async put(path: string, data: PutBody): Promise<void> {
    checkObjectPath(path);
    const bytes = (await collectBody(data)).slice();
    this.#objects.set(path, { data: bytes, lastModified: new Date() });
  }

  async putIfAbsent(path: string, data: PutBody): Promise<boolean> {
    checkObjectPath(path);
    const bytes = (await collectBody(data)).slice();
    // Check and set run in one synchronous step, so concurrent callers cannot both win.
    if (this.#objects.has(path)) return false;
    this.#objects.set(path, { data: bytes, lastModified: new Date() });
    return true;
  }

  async *list(prefix: string): AsyncIterable<ObjectListing> {
    const paths = [...this.#objects.keys()].filter((p) => p.startsWith(prefix)).sort();
    for (const path of paths) {
      const e = this.#objects.get(path);
      if (e !== undefined) yield { path, size: e.data.byteLength };
    }
  }

  async delete(path: string): Promise<void> {
    this.#objects.delete(checkObjectPath(path));
  }

  #entry(path: string): Entry {
    const e = this.#objects.get(checkObjectPath(path));
    if (e === undefined) throw new NotFoundError(this.uriOf(path));
    return e;
  }
}
