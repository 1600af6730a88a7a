/**
 * Decimals without NULLs cross from the scan workers as self-materializing columns (pgtypes/numeric-column.ts
 * selfMaterializingNumerics) and stay so through a join's gather (join-gather.ts, join-chunked-rows.ts), a build
 * side's glue (common/batch-concat.ts), a projection's computed numerics and the memory estimate — no Numeric made
 * (TPC-H q9's l_extendedprice, ps_supplycost, amount) — while any reader that does read a row sees every value.
 */
import { describe, expect, it } from 'vitest';
import type { Batch } from '../common/batch.ts';
import { concatColumns } from '../common/batch-concat.ts';
import { Numeric } from '../common/pgtypes/numeric.ts';
import {
  attachLazyScaled, attachScaled, isSelfMaterializing, isSparseNumerics, materializeNumerics, scaledColumnOf,
  selfMaterializingNumerics, sparseLazyNumerics,
} from '../common/pgtypes/numeric-column.ts';
import { packBatch, unpackBatch } from '../iceberg/parallel/column-transfer.ts';
import type { IcebergType } from '../iceberg/spec/schema.ts';
import { chunkedRows } from './join-chunked-rows.ts';
import { take, takeColumn, takeColumnOf } from './join-gather.ts';
import { estimateArrayBytes } from './memory/size-estimate.ts';
import { executePlan } from './index.ts';
import type { ExecContext } from './context.ts';
import { bindSql } from './testing/run-sql.ts';
import { e2eCatalog } from './testing/e2e-fixture.ts';
import { initParser } from '../sql/index.ts';
import { testSession } from '../sql/testing/memory-catalog.ts';

const num = (u: number, scale = 2): Numeric => Numeric.of(BigInt(u), scale);
const texts = (col: readonly unknown[]): (string | null)[] => Array.from(col, (v) => (v === null ? null : (v as Numeric).toString()));
const self = (us: number[], scale = 2): unknown[] => selfMaterializingNumerics(Float64Array.from(us), scale, us.length);

describe('self-materializing numeric columns', () => {
  it('read as their values by any reader: index, iteration, map, slice, in', () => {
    const c = self([150, -1, 99999]);
    expect(isSelfMaterializing(c)).toBe(true);
    expect(c.length).toBe(3);
    expect(1 in c).toBe(true);
    expect((c[0] as Numeric).toString()).toBe('1.50');
    // the first read made every row's Numeric, in place: a plain array now
    expect(isSparseNumerics(c)).toBe(false);
    expect(Object.getPrototypeOf(c)).toBe(Array.prototype);
    expect(texts(c)).toEqual(['1.50', '-0.01', '999.99']);
    expect(self([5, 6]).map((v) => (v as Numeric).toString())).toEqual(['0.05', '0.06']);
    expect(texts(self([7, 8, 9]).slice(1))).toEqual(['0.08', '0.09']);
    expect(texts([...self([1, 2])])).toEqual(['0.01', '0.02']);
    // the last row's own element is its real Numeric
    expect((self([1, 2, 3])[2] as Numeric).toString()).toBe('0.03');
    expect(scaledColumnOf(c)?.f).toEqual(Float64Array.from([150, -1, 99999]));
  });

  it('keep lazy under attachScaled (a projection attaches its kernel doubles again) and materialize on demand', () => {
    const c = self([10, 20]);
    attachScaled(c, Float64Array.from([10, 20]), 2);
    expect(scaledColumnOf(c)?.lazy).toBe(true);
    expect(isSparseNumerics(c)).toBe(true);
    materializeNumerics(c);
    expect(isSparseNumerics(c)).toBe(false);
    expect(texts(c)).toEqual(['0.10', '0.20']);
  });

  it('arrive from the workers without NULLs as such a column with the same values; with NULLs as Numerics', () => {
    const dec: IcebergType = { kind: 'primitive', name: 'decimal', precision: 12, scale: 2 };
    const plain = [num(150), num(-7), num(123456789)];
    const withNull = [num(1), null, num(2)];
    const b: Batch = { length: 3, columns: [plain, withNull] };
    const transfer: ArrayBufferLike[] = [];
    const back = unpackBatch(structuredClone(packBatch(b, [dec, dec], transfer)));
    expect(isSparseNumerics(back.columns[0]!)).toBe(true);
    expect(isSelfMaterializing(back.columns[0]!)).toBe(true);
    expect(scaledColumnOf(back.columns[0]!)?.f).toEqual(Float64Array.from([150, -7, 123456789]));
    expect(texts(back.columns[0]!)).toEqual(['1.50', '-0.07', '1234567.89']);
    expect(isSparseNumerics(back.columns[1]!)).toBe(false);
    expect(texts(back.columns[1]!)).toEqual(['0.01', null, '0.02']);
  });

  it('stay unread through a join gather: doubles gathered, same kind; a -1 row (outer join) gives a NULL', () => {
    const c = self([100, 200, 300]);
    const out = takeColumn(c, Int32Array.from([2, 0, 2]), 3);
    expect(isSelfMaterializing(c)).toBe(true); // the source was not read
    expect(isSelfMaterializing(out)).toBe(true);
    expect(scaledColumnOf(out)?.f).toEqual(Float64Array.from([300, 100, 300]));
    expect(texts(out)).toEqual(['3.00', '1.00', '3.00']);
    expect(texts(takeColumn(self([100, 200]), Int32Array.from([1, -1]), 2))).toEqual(['2.00', null]);
  });

  it("a worker's sparse lazy column (reads throw) is gathered and estimated by its doubles, never read", () => {
    const lazy = sparseLazyNumerics(3);
    attachLazyScaled(lazy, Float64Array.from([1, 2, 3]), 1, true);
    const t = take({ length: 3, columns: [lazy] }, Int32Array.from([1, 1]), 2)[0]!;
    expect(isSparseNumerics(t)).toBe(true);
    expect(scaledColumnOf(t)?.f).toEqual(Float64Array.from([2, 2]));
    expect(scaledColumnOf(t)?.lazy).toBe(true);
    const c = takeColumnOf(chunkedRows([{ length: 3, columns: [lazy] }]), 0, Int32Array.from([2]), 1);
    expect(isSparseNumerics(c)).toBe(true);
    expect(scaledColumnOf(c)?.f).toEqual(Float64Array.from([3]));
    expect(estimateArrayBytes(lazy)).toBeGreaterThan(3 * 8);
  });

  it('stay unread through a chunked build side, and glue to one of their kind', () => {
    const a: Batch = { length: 2, columns: [self([1, 2])] };
    const b: Batch = { length: 3, columns: [self([3, 4, 5])] };
    const rows = chunkedRows([a, b]);
    const out = takeColumnOf(rows, 0, Int32Array.from([4, 0, 2]), 3);
    expect(isSelfMaterializing(out)).toBe(true);
    expect(scaledColumnOf(out)?.f).toEqual(Float64Array.from([5, 1, 3]));
    expect(texts(out)).toEqual(['0.05', '0.01', '0.03']);
    expect(isSelfMaterializing(a.columns[0]!) && isSelfMaterializing(b.columns[0]!)).toBe(true);
    expect(texts(takeColumnOf(rows, 0, Int32Array.from([-1, 1]), 2))).toEqual([null, '0.02']);
    const glued = concatColumns([{ length: 2, columns: [self([1, 2])] }, { length: 1, columns: [self([3])] }], 1).columns[0]!;
    expect(isSelfMaterializing(glued)).toBe(true);
    expect(texts(glued)).toEqual(['0.01', '0.02', '0.03']);
    // beside a plain numeric column: the values (no placeholder that throws)
    const mixed = concatColumns([{ length: 1, columns: [self([9])] }, { length: 1, columns: [[num(8)]] }], 1).columns[0]!;
    expect(texts(mixed)).toEqual(['0.09', '0.08']);
  });

  it('are estimated by their doubles without being read', () => {
    const c = self(Array.from({ length: 100 }, (_, i) => i));
    expect(estimateArrayBytes(c)).toBeGreaterThan(100 * 8);
    expect(isSelfMaterializing(c)).toBe(true);
  });

  it("are a projection's numerics computed by the kernels without NULLs (TPC-H q9's amount), read as PostgreSQL's", async () => {
    await initParser();
    const catalog = e2eCatalog();
    const q = bindSql(catalog, 'SELECT n * (1 - 0.05) - n AS a, n * d AS b FROM (VALUES (10.50::numeric(12,2), 0.05::numeric(12,2)), (3.00, NULL), (7.25, 0.10)) v(n, d)');
    const ac = new AbortController();
    const session = testSession();
    const ctx: ExecContext = {
      session, catalog, transactionTimestamp: 0n, statementTimestamp: 0n, signal: ac.signal, params: [],
      scan: { signal: ac.signal, session, catalog },
    };
    const batches: Batch[] = [];
    for await (const b of executePlan(q.plan, ctx)) batches.push(b);
    expect(batches.length).toBe(1);
    const [a, b] = batches[0]!.columns;
    // a: no NULL, made from doubles only; b: a NULL row, plain Numerics
    expect(isSelfMaterializing(a!)).toBe(true);
    expect(isSparseNumerics(b!)).toBe(false);
    expect(texts(a!)).toEqual(['-0.5250', '-0.1500', '-0.3625']);
    expect(texts(b!)).toEqual(['0.5250', null, '0.7250']);
  });
});

