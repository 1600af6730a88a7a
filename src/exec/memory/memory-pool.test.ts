import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../common/errors.ts';
import { Numeric } from '../../common/pgtypes/numeric.ts';
import { MemoryPool } from './memory-pool.ts';
import { ServerMemory } from './server-memory.ts';
import { estimateBatchBytes, estimateValueBytes } from './size-estimate.ts';
import { decodeRows, encodeRows, SpillUnsupported } from './spill-codec.ts';

describe('MemoryPool / MemoryReservation', () => {
  it('grows, shrinks and releases; the server account follows', () => {
    const server = new ServerMemory(10_000);
    const pool = new MemoryPool(1000, server);
    const a = pool.reserve('Sort');
    const b = pool.reserve('HashAggregate');
    a.grow(600);
    expect(b.tryGrow(500)).toBe(false);
    b.grow(400);
    expect([pool.used, server.used, pool.peak]).toEqual([1000, 1000, 1000]);
    a.resize(100);
    expect(pool.used).toBe(500);
    a.release();
    b.release();
    expect([pool.used, server.used, a.peak, b.peak]).toEqual([0, 0, 600, 400]);
  });

  it('fractional estimates leave no residue in the accounts once released', () => {
    const server = new ServerMemory(1e12);
    const pool = new MemoryPool(1e9, server);
    const r = pool.reserve('HashAggregate');
    for (let i = 0; i < 1000; i++) r.grow(123.37 + i / 7);
    r.shrink(0.3);
    r.release();
    expect([pool.used, server.used]).toEqual([0, 0]);
  });

  it('a share of the budget names the setting in its 53200, not the share', () => {
    const pool = new MemoryPool(64 * 1024, new ServerMemory(1e12), 1024 * 1024);
    let err: unknown;
    try { pool.reserve('Finalize HashAggregate').grow(100_000); } catch (e) { err = e; }
    expect((err as GatewayError).detail).toBe(`Failed on request of size 100000 in operator "Finalize HashAggregate": the query's memory use reached lakegate.query_memory_limit (1MB).`);
  });

  it('refuses past the query limit with 53200 and a detail naming the operator and the setting', () => {
    const pool = new MemoryPool(1024 * 1024, new ServerMemory(1e12));
    const r = pool.reserve('HashAggregate');
    r.grow(1000 * 1024);
    let err: unknown;
    try { r.grow(100_000); } catch (e) { err = e; }
    expect(GatewayError.is(err)).toBe(true);
    const g = err as GatewayError;
    expect([g.code, g.message]).toEqual(['53200', 'out of memory']);
    expect(g.detail).toBe(`Failed on request of size 100000 in operator "HashAggregate": the query's memory use reached lakegate.query_memory_limit (1MB).`);
    expect(g.hint).toBe(`Raise lakegate.query_memory_limit, e.g. SET lakegate.query_memory_limit = '2MB'.`);
    expect(r.size).toBe(1000 * 1024);
  });

  it('refuses past the server-wide share even under the query limit', () => {
    const server = new ServerMemory(2048);
    const q1 = new MemoryPool(1e9, server).reserve('Sort');
    const q2 = new MemoryPool(1e9, server).reserve('Hash Join');
    q1.grow(1500);
    expect(() => q2.grow(1000)).toThrow(expect.objectContaining({ code: '53200', detail: expect.stringContaining("server's share for query state (2kB)") }) as Error);
    q1.release();
    q2.grow(1000);
    expect(server.used).toBe(1000);
  });

  it('refuses when the real heap is nearly full (checked every 64 MB of growth)', () => {
    const server = new ServerMemory(1e12, () => ({ used: 95, limit: 100 }));
    const r = new MemoryPool(1e12, server).reserve('WindowAgg');
    expect(() => r.grow(64 * 1024 * 1024)).toThrow(expect.objectContaining({ detail: expect.stringContaining('heap is nearly full') }) as Error);
    expect(server.used).toBe(0);
  });
});

describe('size estimates', () => {
  it('estimates per type', () => {
    expect(estimateValueBytes(1.5)).toBe(8);
    expect(estimateValueBytes('abcd')).toBe(16 + 8);
    expect(estimateValueBytes(null)).toBe(0);
    expect(estimateValueBytes(Numeric.parse('1.25'))).toBeGreaterThan(estimateValueBytes(12n));
    expect(estimateValueBytes(new Uint8Array(1000))).toBeGreaterThan(1000);
  });

  it('estimates a batch from samples, close to the exact sum', () => {
    const n = 4096;
    const strings = Array.from({ length: n }, (_, i) => 'x'.repeat(i % 20));
    const b = { length: n, columns: [Array.from({ length: n }, (_, i) => i), strings] };
    const exact = 2 * (24 + n * 8) + 48 + n * 8 + strings.reduce((s, v) => s + 16 + 2 * v.length, 0);
    expect(Math.abs(estimateBatchBytes(b) - exact) / exact).toBeLessThan(0.15);
  });
});

describe('spill codec', () => {
  it('round-trips every value family exactly', () => {
    const rows = [
      [1, -0, 12345678901234567890n, 'text', true, Numeric.parse('-12.340'), new Uint8Array([1, 2, 3]), { months: 1, days: -2, micros: 3n }, 1],
      [2.5, NaN, null, '', false, Numeric.NaN, null, { micros: 5, offsetSeconds: 3600 }, 'mixed'],
      [null, Infinity, -5n, null, null, Numeric.POSITIVE_INFINITY, new Uint8Array(0),
        { kind: 'array', elementOid: 1700, dims: [2], lowerBounds: [1], values: [Numeric.parse('1.5'), null] }, Numeric.parse('2')],
      [-3, -Infinity, 0n, 'ü€', true, null, null, { kind: 'record', fieldOids: [23, 1700], values: [1, Numeric.parse('2')] }, 4n],
    ];
    const back = decodeRows(encodeRows(rows));
    expect(back).toEqual(rows);
    expect(Object.is(back[0]![1], -0)).toBe(true);
    const n = back[0]![5] as Numeric;
    expect(Numeric.isNumeric(n) && n.toString()).toBe('-12.340');
    expect(Numeric.isNumeric((back[2]![7] as { values: unknown[] }).values[0])).toBe(true);
    expect(Numeric.isNumeric(back[2]![8])).toBe(true);
  });

  it('refuses class instances it cannot rebuild', () => {
    expect(() => encodeRows([[new Date()]])).toThrow(SpillUnsupported);
  });
});

describe('spill codec columns', () => {
  it('keeps strings apart from special numbers in a mixed column', () => {
    const rows = [['NaN', NaN], [-0, '-0'], [Infinity, 'x'], [true, 1n]];
    const back = decodeRows(encodeRows(rows));
    expect(back).toEqual(rows);
    expect(Object.is(back[1]![0], -0)).toBe(true);
  });
});

describe('abandoned queries', () => {
  it('a pool dropped while holding memory gives it back to the server when collected', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const server = new ServerMemory(1e9);
    (() => { new MemoryPool(1e9, server).reserve('Sort').grow(1000); })();
    expect(server.used).toBe(1000);
    for (let i = 0; i < 10 && server.used > 0; i++) { gc(); await new Promise((r) => setTimeout(r, 10)); }
    expect(server.used).toBe(0);
  });
});
