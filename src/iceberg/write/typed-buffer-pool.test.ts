import { describe, expect, it } from 'vitest';
import { giveBuffers, pooledBufferBytes, takeBuffer } from './typed-buffer-pool.ts';

const MiB = 1024 * 1024;

describe('typed-buffer-pool', () => {
  it('keeps a whole 48 MiB file of returned buffers for the next batches, then trims itself once idle', async () => {
    const sizes = [64 * 1024, 128 * 1024, 256 * 1024];
    // one file's worth of column buffers, as they come back from the encode thread
    const file: ArrayBuffer[] = [];
    for (let bytes = 0; bytes < 48 * MiB;) {
      const b = new ArrayBuffer(sizes[file.length % 3]!);
      file.push(b);
      bytes += b.byteLength;
    }
    const before = pooledBufferBytes();
    giveBuffers(file);
    expect(pooledBufferBytes() - before).toBe(file.reduce((s, b) => s + b.byteLength, 0));
    // given twice: kept once
    giveBuffers(file.slice(0, 10));
    expect(pooledBufferBytes() - before).toBe(file.reduce((s, b) => s + b.byteLength, 0));
    // the next batches get those very buffers back
    const again = new Set(file);
    const taken = Array.from({ length: 30 }, (_, k) => takeBuffer(sizes[k % 3]!));
    expect(taken.every((b) => again.has(b))).toBe(true);
    giveBuffers(taken);
    // unused for IDLE_TRIM_MS: cut down to what an idle process keeps
    await new Promise((resolve) => setTimeout(resolve, 5600));
    expect(pooledBufferBytes()).toBeLessThanOrEqual(32 * MiB);
    expect(takeBuffer(64 * 1024).byteLength).toBe(64 * 1024);
  }, 20_000);
});
