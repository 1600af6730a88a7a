/**
 * Differential tests of the typed aggregate states (group-states.ts, group-minmax.ts): each grouped query runs
 * through the hash aggregate's typed path (vector kernels on) and through the per-row AggregateStates (kernels
 * off), and must give the same rows or the same error. The data has what breaks typed shortcuts: NULLs, -0 and
 * +0, NaN, ±Infinity, int and 2^53 boundaries, numeric NaN / Infinity, mixed and far apart numeric scales, ties
 * of equal values with different display scales, many groups across several batches.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Numeric } from '../../common/pgtypes/numeric.ts';
import { Oid, sqlType } from '../../common/pgtypes/oids.ts';
import type { AggregateDef, AggregateState, EvalContext } from '../../functions/registry-types.ts';
import { initParser } from '../../sql/index.ts';
import { testRegistry } from '../testing/run-sql.ts';
import { GroupMinMax } from './group-minmax.ts';
import { GroupStates } from './group-states.ts';
import { setVectorKernels } from './vector-expr.ts';
import { vectorAndRows } from '../testing/vector-and-rows.ts';

let seed = 777;
function rand(): number {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed / 0x7fffffff;
}
const pickOf = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;

function row(k: number): string {
  const nul = (s: string): string => (rand() < 0.1 ? 'null' : `(${s})`);
  const i = pickOf(['0', '-1', '7', '2147483647', '-2147483648', String(Math.floor(rand() * 2000) - 1000)]);
  const s = pickOf(['0', '-32768', '32767', '5', String(Math.floor(rand() * 200) - 100)]);
  const b = pickOf(['0', '-9223372036854775808', '9223372036854775807', '9007199254740993', '-9007199254740993', '1099511627776', String(Math.floor(rand() * 1e6) - 5e5)]);
  const f = pickOf(["'NaN'", "'Infinity'", "'-Infinity'", '0', "'-0'", '1.5', '-1.5', '1e308', '-1e308', String(rand() * 100 - 50)]);
  const n = pickOf(['0.00', '-0.05', '99999.99', '-12.34', (Math.floor(rand() * 1e7) / 100 - 5e4).toFixed(2)]);
  const m = pickOf(["'NaN'", "'Infinity'", "'-Infinity'", '0', '0.0', '-0.000', '1', '1.0', '1.00', '-2.125', '90071992547409.91',
    '9007199254740993', '123456789012345678901234.5', '0.00000000000000000001', (rand() * 1000 - 500).toFixed(3)]);
  const d = pickOf(["'1998-09-02'", "'1970-01-01'", "'1969-12-31'", "'infinity'", "'-infinity'", "'0044-03-15 BC'", "'2024-02-29'"]);
  const ts = pickOf(["'1998-09-02 10:00'", "'1970-01-01 00:00:00.000001'", "'infinity'", "'-infinity'", "'2000-01-01'", "'1899-12-31 23:59:59'"]);
  return `(${k}, ${nul(i)}::int4, ${nul(s)}::int2, ${nul(b)}::int8, ${nul(f)}::float8, ${nul(n)}::numeric(12,2), ${nul(m)}::numeric, ${nul(d)}::date, ${nul(ts)}::timestamp)`;
}
const DATA = `(values ${Array.from({ length: 400 }, (_v, k) => row(k)).join(',\n')}) v(k, i, s, b, f, n, m, d, ts)`;

beforeAll(async () => { await initParser(); });
afterAll(() => { setVectorKernels(true); });

const COLUMNS = ['i', 's', 'b', 'f', "(case when f = 'NaN' or abs(f) = 'Infinity' or abs(f) < 1e30 then f end)::float4", 'n', 'm', 'd', 'ts', 'ts::timestamptz', 'n * m', 'n - 1', '-f'];

describe('typed aggregate states equal the per-row states', () => {
  it('min and max of every typed class, grouped, with FILTER', async () => {
    for (const c of COLUMNS) {
      const sql = `select k % 5, min(${c}), max(${c}), count(${c}), max(${c}) filter (where k % 3 = 0)
        from ${DATA} group by 1 order by 1`;
      const { vector, rows } = await vectorAndRows(sql);
      expect(vector, sql).toEqual(rows);
      expect(Array.isArray(vector), sql).toBe(true);
    }
  });

  it('sums and averages of int2, int4, int8, float4, float8 and numeric (or the same overflow error)', async () => {
    let errors = 0;
    for (const c of ['i', 's', 'b', 'f', 'f::float4', 'n', 'm', 'i::int8 * 1000000000']) {
      const sql = `select k % 4, sum(${c}), avg(${c}), sum(${c}) filter (where k > 100) from ${DATA} group by 1 order by 1`;
      const { vector, rows } = await vectorAndRows(sql);
      expect(vector, sql).toEqual(rows);
      if (!Array.isArray(vector)) errors++;
    }
    // sum(f) overflows (1e308 + 1e308): 22003 "value out of range: overflow" both ways
    expect(errors).toBeGreaterThan(0);
    const finite = await vectorAndRows(`select k % 4, sum(f) from ${DATA} where f between -1e300 and 1e300 group by 1 order by 1`);
    expect(finite.vector).toEqual(finite.rows);
    expect(Array.isArray(finite.vector)).toBe(true);
  });

  it('many groups over several batches, sums past 2^53 and scales that change between batches', async () => {
    const src = `(select g, (g * 7919) % 1000 as k, (g % 1000)::int4 * 2147483 as i, g::int8 * 4503599627370 as b,
      (g::numeric(20,2) * 1234567.89) as n, case when g > 6000 then g::numeric / 8 else g::numeric end as m,
      case when g % 1000 = 7 then 'NaN'::float8 when g % 1000 = 8 then -0.0::float8 else g * 0.25 end as f
      from generate_series(1, 12000) g) x`;
    const sql = `select k, sum(i), sum(b), avg(b), sum(n), avg(n), min(n), max(n), sum(m), min(m), max(m), min(f), max(f), sum(f), count(*)
      from ${src} group by k order by k`;
    const { vector, rows } = await vectorAndRows(sql);
    expect(vector).toEqual(rows);
    expect((vector as unknown[]).length).toBe(1000);
  });

  it('ties keep the newer value, as int4larger / float8_larger / numeric_larger', async () => {
    const ties = `(values (1, 0::float8, 1.0::numeric), (1, '-0', 1.00), (1, '-0', 1.000), (1, 0, 1), (1, '-0', 1.0),
      (2, 'NaN', 2.5), (2, 'NaN', 2.50), (3, '-0', 0), (3, 0, -0.00)) t(g, f, m)`;
    const sql = `select g, max(f), min(f), max(m), min(m) from ${ties} group by g order by g`;
    const { vector, rows } = await vectorAndRows(sql);
    expect(vector).toEqual(rows);
    // PostgreSQL 15 answers the same: on ties max/min return the later value (its sign of zero, its display scale)
    expect(vector).toEqual([['1', '-0', '-0', '1.0', '1.0'], ['2', 'NaN', 'NaN', '2.50', '2.50'], ['3', '0', '0', '0.00', '0.00']]);
  });
});

describe('DISTINCT aggregates through the group table', () => {
  it('count / sum / avg / min / max (DISTINCT x) equal the sorted row path, with FILTER and NULL groups', async () => {
    for (const c of ['i', 's', 'b', 'f', 'n', 'm', 'd', 'ts', 'k % 3', "coalesce(d::text, 'x')"]) {
      const typed = ['i', 's', 'b', 'k % 3'].includes(c) ? `, sum(distinct ${c}), avg(distinct ${c})` : '';
      const sql = `select k % 6, count(distinct ${c}), min(distinct ${c}), max(distinct ${c}), count(distinct ${c}) filter (where k % 4 = 1)${typed},
        count(*), count(${c}) from ${DATA} group by 1 order by 1`;
      const { vector, rows } = await vectorAndRows(sql);
      expect(vector, sql).toEqual(rows);
      expect(Array.isArray(vector), sql).toBe(true);
    }
  });

  it('dedupes pairs across batches and many groups', async () => {
    const sql = `select g % 500 as k, count(distinct g % 37), count(distinct (g % 11)::numeric / 4), sum(distinct g % 23), count(*)
      from generate_series(1, 20000) g group by 1 order by 1`;
    const { vector, rows } = await vectorAndRows(sql);
    expect(vector).toEqual(rows);
    expect((vector as unknown[][])[0]).toEqual(['0', '37', '11', '253', '40']);
  });
});

describe('GroupMinMax', () => {
  const ctx = {} as EvalContext;
  const def = (name: string, oid: number): AggregateDef =>
    testRegistry().routines(name).find((d) => d.kind === 'aggregate' && d.args.length === 1 && d.args[0] === oid) as AggregateDef;

  it('moves a group to its state at a value it cannot hold, keeping the order of values', () => {
    const states: AggregateState[] = [];
    const max = def('max', Oid.numeric);
    const mm = new GroupMinMax(true, 'num', (g) => (states[g] ??= max.create(ctx, [sqlType(Oid.numeric)], sqlType(Oid.numeric))));
    mm.ensure(4);
    const gids = new Int32Array([0, 1, 0, 1, 2]);
    mm.addScaled(new Float64Array([150, 7, 150, -3, 0]), 2, new Uint8Array([0, 0, 0, 0, 1]), null, 5, gids);
    expect(String(mm.final(0))).toBe('1.50');
    expect(String(mm.final(1))).toBe('0.07');
    expect(mm.final(2)).toBeNull();
    // group 0 meets NaN (largest), group 1 a scale 30 apart from its own (not comparable in a double)
    mm.addValues([Numeric.NaN, Numeric.parse('0.000000000000000000000000000001')], null, 2, new Int32Array([0, 1]));
    expect(mm.mode[0]).toBe(2);
    expect(String(mm.final(0))).toBe('NaN');
    expect(String(mm.final(1))).toBe('0.07');
    mm.addScaled(new Float64Array([8]), 2, null, null, 1, new Int32Array([1]));
    expect(String(mm.final(1))).toBe('0.08');
  });

  it('types min/max, sums and counts, and leaves the others to states', () => {
    const t = (o: number) => sqlType(o);
    const gs = new GroupStates([
      { def: def('max', Oid.int4), argTypes: [t(Oid.int4)], type: t(Oid.int4) },
      { def: def('min', Oid.timestamptz), argTypes: [t(Oid.timestamptz)], type: t(Oid.timestamptz) },
      { def: def('sum', Oid.int4), argTypes: [t(Oid.int4)], type: t(Oid.int8) },
      { def: def('sum', Oid.float4), argTypes: [t(Oid.float4)], type: t(Oid.float4) },
      { def: def('sum', Oid.int8), argTypes: [t(Oid.int8)], type: t(Oid.numeric) },
      { def: def('max', Oid.text), argTypes: [t(Oid.text)], type: t(Oid.text) },
      { def: def('avg', Oid.float8), argTypes: [t(Oid.float8)], type: t(Oid.float8) },
    ], ctx);
    expect(gs.kinds).toEqual(['minmax', 'minmax', 'isum', 'fsum', 'sum', null, null]);
    gs.ensure(1);
    for (let r = 0; r < 3; r++) gs.addInt(2, 0, 2147483647);
    expect(gs.final(2, 0)).toBe(6442450941n);
    for (let r = 0; r < 3000; r++) gs.addInt(2, 0, 2147483647);
    expect(gs.final(2, 0)).toBe(2147483647n * 3003n);
    gs.addInteger(4, 0, 9223372036854775807n);
    gs.addInteger(4, 0, 5);
    expect(String(gs.final(4, 0))).toBe('9223372036854775812');
    expect(gs.final(3, 0)).toBeNull();
  });
});
