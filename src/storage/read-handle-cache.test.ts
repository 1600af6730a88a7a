import { mkdirSync, mkdtempSync, readdirSync, readlinkSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalFsStore } from './local-fs-store.ts';
import { ReadHandleCache } from './read-handle-cache.ts';
import { NotFoundError } from './storage-errors.ts';

const dir = mkdtempSync(join(tmpdir(), 'lakegate-handles-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const dec = (b: Uint8Array): string => Buffer.from(b).toString('latin1');
/** this process's open descriptors on files under `dir` (the real kernel view, not the cache's bookkeeping) */
function openUnder(prefix: string): number {
  let n = 0;
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      if (readlinkSync(`/proc/self/fd/${fd}`).startsWith(prefix)) n++;
    } catch { /* closed meanwhile */ }
  }
  return n;
}
const settle = (ms = 20): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('LocalFsStore ranged reads through kept handles', () => {
  it('reads ranges of one file through one descriptor, cut at the end of the file', async () => {
    const root = join(dir, 'a');
    const store = new LocalFsStore(root);
    await store.put('t/data.parquet', new TextEncoder().encode('0123456789'));
    expect(dec(await store.getRange('t/data.parquet', 2, 3))).toBe('234');
    const reads = await Promise.all([0, 4, 8].map((o) => store.getRange('t/data.parquet', o, 4)));
    expect(reads.map(dec)).toEqual(['0123', '4567', '89']);
    expect((await store.getRange('t/data.parquet', 12, 3)).byteLength).toBe(0);
    expect(openUnder(root)).toBe(1);
  });

  it('reads ranges up to 1 MiB synchronously and longer ones asynchronously: the same bytes, cut at the end', async () => {
    const root = join(dir, 'ranges-sync');
    const store = new LocalFsStore(root);
    const bytes = new Uint8Array(3 << 20);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 2654435761) >>> 24;
    await store.put('big.bin', bytes);
    for (const [offset, length] of [[0, 1 << 20], [5, (1 << 20) + 1], [(3 << 20) - 100, 1 << 20], [(3 << 20) - 100, 2 << 20], [1 << 20, 3 << 20], [7, 0]] as const) {
      const got = await store.getRange('big.bin', offset, length);
      expect(Buffer.from(got).equals(Buffer.from(bytes.subarray(offset, offset + length))), `${offset} ${length}`).toBe(true);
    }
    expect(openUnder(root)).toBe(1);
  });

  it('reads the new bytes after put replaces the file and fails as missing after delete', async () => {
    const root = join(dir, 'b');
    const store = new LocalFsStore(root);
    await store.put('x.bin', new TextEncoder().encode('old bytes'));
    expect(dec(await store.getRange('x.bin', 0, 3))).toBe('old');
    await store.put('x.bin', new TextEncoder().encode('NEW BYTES!'));
    expect(dec(await store.getRange('x.bin', 0, 10))).toBe('NEW BYTES!');
    await store.delete('x.bin');
    await settle();
    expect(openUnder(root)).toBe(0);
    const err = await store.getRange('x.bin', 0, 3).then(() => null, (e: unknown) => e);
    expect(NotFoundError.is(err)).toBe(true);
    expect((err as Error).message).toBe(`could not open file "${join(root, 'x.bin')}": No such file or directory`);
  });

  it('a missing file caches nothing: it is read once it exists', async () => {
    const root = join(dir, 'c');
    const store = new LocalFsStore(root);
    await expect(store.getRange('late.bin', 0, 1)).rejects.toThrow(/No such file/);
    mkdirSync(root, { recursive: true });
    writeFileSync(join(root, 'late.bin'), 'here');
    expect(dec(await store.getRange('late.bin', 0, 4))).toBe('here');
  });
});

describe('ReadHandleCache', () => {
  it('keeps at most `capacity` files open, closing the least recently used', async () => {
    const root = join(dir, 'cap');
    const store = new LocalFsStore(root);
    for (let i = 0; i < 5; i++) await store.put(`f${i}`, new TextEncoder().encode(`file ${i}`));
    const cache = new ReadHandleCache(3, 60_000);
    const read = (i: number) => cache.use(join(root, `f${i}`), async ({ fh, size }) => {
      const b = Buffer.alloc(size);
      await fh.read(b, 0, size, 0);
      return b.toString();
    });
    for (let i = 0; i < 5; i++) expect(await read(i)).toBe(`file ${i}`);
    await settle();
    expect(cache.size).toBe(3);
    expect(openUnder(root)).toBe(3);
    cache.clear();
    await settle();
    expect(openUnder(root)).toBe(0);
  });

  it('closes handles left unused for idleMs', async () => {
    const root = join(dir, 'idle');
    const store = new LocalFsStore(root);
    await store.put('f', new TextEncoder().encode('abc'));
    const cache = new ReadHandleCache(8, 50);
    await cache.use(join(root, 'f'), async ({ size }) => size);
    expect(openUnder(root)).toBe(1);
    await settle(200);
    expect(cache.size).toBe(0);
    expect(openUnder(root)).toBe(0);
  });

  it('a handle dropped during a read closes when the read ends, and a failed read drops it', async () => {
    const root = join(dir, 'busy');
    const store = new LocalFsStore(root);
    await store.put('f', new TextEncoder().encode('abcdef'));
    const file = join(root, 'f');
    const cache = new ReadHandleCache(8, 60_000);
    let release!: () => void;
    const gate = new Promise<void>((r) => { release = r; });
    const slow = cache.use(file, async ({ fh }) => {
      await gate;
      const b = Buffer.alloc(3);
      await fh.read(b, 0, 3, 0);
      return b.toString();
    });
    await settle();
    cache.drop(file);
    expect(cache.size).toBe(0);
    expect(openUnder(root)).toBe(1);
    release();
    expect(await slow).toBe('abc');
    await settle();
    expect(openUnder(root)).toBe(0);
    await expect(cache.use(file, async () => { throw new Error('boom'); })).rejects.toThrow('boom');
    await settle();
    expect(cache.size).toBe(0);
    expect(openUnder(root)).toBe(0);
    unlinkSync(file);
  });
});
