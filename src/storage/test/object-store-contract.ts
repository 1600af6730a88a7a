/**
 * The ObjectStore contract: one suite every store implementation must pass (memory, local filesystem,
 * S3 through s3rver). `makeStore` is called per test and must return an empty store.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../common/errors.ts';
import type { ObjectStore } from '../object-store.ts';
import { NotFoundError } from '../storage-errors.ts';

export interface ContractOptions {
  /** Concurrent putIfAbsent calls have exactly one winner (false for S3 servers ignoring If-None-Match). */
  readonly atomicPutIfAbsent?: boolean;
}

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const dec = (b: Uint8Array): string => new TextDecoder().decode(b);
const sha = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');

async function* chunks(total: number, chunkSize: number): AsyncIterable<Uint8Array> {
  for (let at = 0; at < total; at += chunkSize) {
    const c = new Uint8Array(Math.min(chunkSize, total - at));
    for (let i = 0; i < c.length; i++) c[i] = (at + i) * 31 % 251;
    yield c;
  }
}

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

async function expectIoError(p: Promise<unknown>): Promise<GatewayError> {
  const e: unknown = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(GatewayError.is(e)).toBe(true);
  expect((e as GatewayError).code).toBe('58030');
  return e as GatewayError;
}

export function objectStoreContract(name: string, makeStore: () => Promise<ObjectStore> | ObjectStore, opts: ContractOptions = {}): void {
  describe(`ObjectStore contract: ${name}`, () => {
    it('round-trips put/get and overwrites', async () => {
      const store = await makeStore();
      await store.put('a/b/hello.txt', enc('hello world'));
      expect(dec(await store.get('a/b/hello.txt'))).toBe('hello world');
      await store.put('a/b/hello.txt', enc('bye'));
      expect(dec(await store.get('a/b/hello.txt'))).toBe('bye');
      await store.put('empty', new Uint8Array(0));
      expect((await store.get('empty')).byteLength).toBe(0);
    });

    it('puts a stream of chunks', async () => {
      const store = await makeStore();
      await store.put('s.bin', chunks(10_000, 999));
      const got = await store.get('s.bin');
      expect(got.byteLength).toBe(10_000);
      expect(got[9_999]).toBe((9_999 * 31) % 251);
    });

    it('reads ranges at the start, middle and end', async () => {
      const store = await makeStore();
      await store.put('r.txt', enc('0123456789'));
      expect(dec(await store.getRange('r.txt', 0, 3))).toBe('012');
      expect(dec(await store.getRange('r.txt', 4, 2))).toBe('45');
      expect(dec(await store.getRange('r.txt', 7, 3))).toBe('789');
      expect(dec(await store.getRange('r.txt', 8, 100))).toBe('89');
      expect((await store.getRange('r.txt', 10, 5)).byteLength).toBe(0);
      expect((await store.getRange('r.txt', 3, 0)).byteLength).toBe(0);
    });

    it('heads an object, and a missing one as null', async () => {
      const store = await makeStore();
      expect(await store.head('nope/missing.json')).toBeNull();
      await store.put('x.json', enc('{}'));
      const meta = await store.head('x.json');
      expect(meta?.size).toBe(2);
      expect(meta?.lastModified).toBeInstanceOf(Date);
    });

    it('fails get/getRange of a missing object with NotFoundError 58030', async () => {
      const store = await makeStore();
      const e = await expectIoError(store.get('nope/missing.json'));
      expect(NotFoundError.is(e)).toBe(true);
      expect(e.message).toBe(`could not open file "${store.uriOf('nope/missing.json')}": No such file or directory`);
      expect(NotFoundError.is(await expectIoError(store.getRange('nope/missing.json', 0, 4)))).toBe(true);
      expect(NotFoundError.is(await expectIoError(store.getRange('nope/missing.json', 0, 0)))).toBe(true);
    });

    it('rejects invalid paths with 58030', async () => {
      const store = await makeStore();
      for (const bad of ['', '/abs', 'a/../b', './x']) {
        const e = await expectIoError(store.get(bad));
        expect(e.message).toContain('invalid object path');
      }
    });

    it('putIfAbsent creates once, then returns false without overwriting', async () => {
      const store = await makeStore();
      expect(await store.putIfAbsent('meta/v1.metadata.json', enc('first'))).toBe(true);
      expect(await store.putIfAbsent('meta/v1.metadata.json', enc('second'))).toBe(false);
      expect(dec(await store.get('meta/v1.metadata.json'))).toBe('first');
    });

    if (opts.atomicPutIfAbsent === true) {
      it('putIfAbsent has exactly one winner among concurrent writers', async () => {
        const store = await makeStore();
        const results = await Promise.all(Array.from({ length: 8 }, (_, i) => store.putIfAbsent('race.json', enc(`w${i}`))));
        expect(results.filter((r) => r).length).toBe(1);
        expect(dec(await store.get('race.json'))).toBe(`w${results.indexOf(true)}`);
      });
    }

    it('lists by plain prefix, sorted, across pages', async () => {
      const store = await makeStore();
      const keys = ['t/data/a-1.parquet', 't/data/b.parquet', 't/data/sub/c.parquet', 't/data2/d.parquet', 't/meta.json', 'u/x'];
      for (const k of keys) await store.put(k, enc(k));
      const all = await collect(store.list('t/'));
      expect(all.map((o) => o.path)).toEqual(keys.slice(0, 5));
      expect(all[0]?.size).toBe('t/data/a-1.parquet'.length);
      expect((await collect(store.list('t/data/'))).map((o) => o.path)).toEqual(keys.slice(0, 3));
      expect((await collect(store.list('t/data'))).map((o) => o.path)).toEqual(keys.slice(0, 4));
      expect((await collect(store.list('t/data/b'))).map((o) => o.path)).toEqual(['t/data/b.parquet']);
      expect(await collect(store.list('none/'))).toEqual([]);
      expect((await collect(store.list(''))).length).toBe(6);
    });

    it('uploads a 12 MB stream (multipart where the store has it) and reads it back', async () => {
      const store = await makeStore();
      const total = 12 * 1024 * 1024 + 123;
      let expected = createHash('sha256');
      for await (const c of chunks(total, 1024 * 1024 + 17)) expected = expected.update(c);
      await store.put('big/file.parquet', chunks(total, 1024 * 1024 + 17));
      expect((await store.head('big/file.parquet'))?.size).toBe(total);
      expect(sha(await store.get('big/file.parquet'))).toBe(expected.digest('hex'));
      const tail = await store.getRange('big/file.parquet', total - 8, 8);
      expect([...tail]).toEqual(Array.from({ length: 8 }, (_, i) => ((total - 8 + i) * 31) % 251));
    });

    it('deletes, and deleting a missing object is not an error', async () => {
      const store = await makeStore();
      await store.put('d/x', enc('x'));
      await store.delete('d/x');
      expect(await store.head('d/x')).toBeNull();
      await store.delete('d/x');
      expect(await collect(store.list('d/'))).toEqual([]);
    });
  });
}
