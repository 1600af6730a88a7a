/**
 * Differential tests: every query runs with the vector kernels on and off (row closures) over generated
 * data — NULLs, negatives, zeros, integer and 2^53 boundaries, NaN / ±Infinity for float and numeric, mixed
 * numeric scales — and must give the same rows, or the same error (SQLSTATE and message).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initParser } from '../../sql/index.ts';
import { setVectorKernels } from './vector-expr.ts';
import { vectorAndRows } from '../testing/vector-and-rows.ts';
import type { VecFn } from './vector-types.ts';

let seed = 12345;
function rand(): number {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed / 0x7fffffff;
}
const pickOf = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;

function row(k: number): string {
  const nul = (s: string): string => (rand() < 0.12 ? 'null' : `(${s})`);
  const i = pickOf(['0', '1', '-1', '7', '-13', '2147483647', '-2147483648', '46341', String(Math.floor(rand() * 2000) - 1000)]);
  const b = pickOf(['0', '3', '-9223372036854775808', '9223372036854775807', '4294967296', String(Math.floor(rand() * 1e6))]);
  const f = pickOf(["'NaN'", "'Infinity'", "'-Infinity'", '0', '-0.0', '1.5', '1e308', String(rand() * 100 - 50)]);
  const n = pickOf(['0.00', '-0.05', '0.07', '99999.99', '-12.34', (Math.floor(rand() * 1e7) / 100).toFixed(2)]);
  const m = pickOf(["'NaN'", "'Infinity'", "'-Infinity'", '0', '1', '0.5', '-2.125', '90071992547409.91', '9007199254740993', '123456789012345678901234.5', (rand() * 1000).toFixed(3)]);
  const d = pickOf(['0', '1', '10', '-3']);
  const t = pickOf(["'a'", "'b'", "'PROMO x'", "''"]);
  const dt = pickOf(["'1998-09-02'", "'1998-09-01'", "'1970-01-01'", "'1969-12-31'", "'infinity'", "'-infinity'", "'1994-01-01'", "'1994-12-31'", "'4000-01-01'", "'0044-03-15 BC'"]);
  return `(${k}, ${nul(i)}::int4, ${nul(b)}::int8, ${nul(f)}::float8, ${nul(n)}::numeric(12,2), ${nul(m)}::numeric, ${nul(d)}::int4, ${nul(t)}::text, ${nul(dt)}::date)`;
}
const ROWS = Array.from({ length: 300 }, (_v, k) => row(k)).join(',\n');
const DATA = `(values ${ROWS}) v(k, i, b, f, n, m, d, t, dt)`;

/** scalar expressions over the columns; each is projected, used in WHERE (booleans) and aggregated */
const EXPRS = [
  'n + 1', 'n - m', 'n * n', 'n * (1 - n) * (1 + n)', 'm * m', 'm + n', 'm - m', 'm * 0.5', 'n / 2', 'm / n',
  'i + 1', 'i * 2', 'i - d', 'i / d', 'i % d', 'b * 2', 'b + i', 'f * 2', 'f / f', 'f + 1e308',
  'case when d = 0 then 0 else i / d end', 'case when n > 0 then n * 2 when n < 0 then -n else null end',
  'coalesce(n, m, 0)', 'coalesce(i / d, -1)', 'i::numeric * n', 'n::float8', 'm::int4', 'abs(m)', 'round(n * m, 3)',
  "case when t like 'PROMO%' then n * (1 - n) else 0 end", '-n', '- i',
  // comparisons as values (true / false / NULL)
  'i < d', 'b >= b', "dt > date '1994-01-01'", "t::char(4) = 'a'", "t::char(4) <> t::char(2)", "t::char(4) = null", 'i < null::int4',
  'i::int2 <= d::int2', 'd::int2 > 0::int2',
];
const PREDICATES = [
  'n > 10', 'n between 0.05 and 0.07', 'm < 1', 'm = m', 'f > 0', 'f = f', "t in ('a', 'b')", "t not in ('a', null)",
  'i is null', 'n is not null', 'd <> 0 and i / d > 1', 'd = 0 or i / d > 1', 'not (n > 1)', 'n > 1 and (m > 0 or i < 0)',
  'i / d > 0', "coalesce(t, 'x') = 'x'", 'k in (1, 2, 3, 300)', 'n * n > 100', 'm * 2 >= 10', 'n < 24 and f < 10',
  '(n > 1) is true', '(m > 1) is unknown', 'b > 4294967296 or i > 0',
  "dt <= date '1998-12-01' - interval '90 days'", "dt >= date '1994-01-01' and dt < date '1994-01-01' + interval '1' year",
  "dt = timestamp '1998-09-02 00:00'", "dt > timestamp '1998-09-01 23:59:59.999999'", "dt < timestamp '1969-12-31 12:00'",
  "dt <> timestamp 'infinity'", "dt >= timestamp '-infinity'", "dt <= timestamp 'infinity'", "dt = timestamp '-infinity'",
  "t like 'PROMO%'", "t not like '%x'", "t ilike 'promo%'", "t like '%'", "t not ilike '_'", "t::char(4) like 'a'",
  "t::char(4) like 'a%'", "t::name not like 'b'", "t like 'PROMO_x'", "t not ilike '%O X'", "t like null",
  // same-type comparisons: integers, bigints, dates (infinity), timestamps, char(n) equality ignoring trailing blanks
  'i < d', 'i = d', 'd <> i', 'i >= 7', '7 > i', 'd::int2 <= 1::int2', 'b <= b', 'b > 4294967296', 'b = i::int8',
  'dt < dt + 1', "dt >= date '1994-01-01'", "dt = date 'infinity'", "date '-infinity' < dt", "dt::timestamp < timestamp '1994-01-01'",
  "dt::timestamptz >= timestamptz '1994-01-01 00:00+00'", "t::char(4) = 'a'", "t::char(4) <> 'a  '", "t::char(8) = t::char(3)",
  "'b'::char(3) = t::char(5)",
];

beforeAll(async () => { await initParser(); });
afterAll(() => { setVectorKernels(true); });

describe('vector kernels equal the row closures', () => {
  it('in projections (values or the same error)', async () => {
    let errors = 0;
    for (const e of EXPRS) {
      const sql = `select k, ${e} from ${DATA} order by k`;
      const { vector, rows } = await vectorAndRows(sql);
      expect(vector, sql).toEqual(rows);
      if (!Array.isArray(vector)) errors++;
    }
    // most expressions have answers (the data must not make every query fail)
    expect(errors).toBeGreaterThan(0);
    expect(errors).toBeLessThan(EXPRS.length / 2);
  });

  it('in filters', async () => {
    let answered = 0;
    for (const p of PREDICATES) {
      const sql = `select k from ${DATA} where ${p} order by k`;
      const { vector, rows } = await vectorAndRows(sql);
      expect(vector, sql).toEqual(rows);
      if (Array.isArray(vector) && vector.length > 0) answered++;
    }
    expect(answered).toBeGreaterThan(PREDICATES.length - 5);
  });

  it('in aggregates, grouped and with FILTER', async () => {
    for (const e of EXPRS) {
      const sql = `select t, sum(${e}), avg(${e}), count(${e}), min(${e}), max(${e}), count(*) filter (where ${e} is null)
        from ${DATA} where k % 7 <> 3 group by t order by t`;
      const { vector, rows } = await vectorAndRows(sql);
      expect(vector, sql).toEqual(rows);
    }
  });

  it('sums of numeric products exactly, past the 2^53 fast path boundary', async () => {
    const sql = `select sum(x * y), sum(x * y * y), avg(x * y), sum(x + y), count(*)
      from (select g::numeric(15,2) * 1000003.07 as x, (g % 97)::numeric(4,2) / 100 as y from generate_series(-2000, 2000) g) s`;
    const { vector, rows } = await vectorAndRows(sql);
    expect(vector).toEqual(rows);
    const big = `select sum(x * x) from (values (94906265.62::numeric(12,2)), (94906266.00), (1.01)) v(x)`;
    const r = await vectorAndRows(big);
    expect(r.vector).toEqual(r.rows);
    expect(r.vector).toEqual([['18014398579996751.0045']]);
  });

  it('lazy CASE / AND / COALESCE never evaluate the rows they skip', async () => {
    const { vector, rows } = await vectorAndRows(`select sum(case when d = 0 then 0 else i / d end) from ${DATA} where i is not null and i > -2147483648`);
    expect(vector).toEqual(rows);
    expect(vector).not.toHaveProperty('error');
    const { vector: v2 } = await vectorAndRows(`select count(*) from ${DATA} where d <> 0 and i / d >= 0`);
    expect(v2).not.toHaveProperty('error');
    const esc = await vectorAndRows(`select count(*) from ${DATA} where t like '\\'`);
    expect(esc.vector).toEqual({ error: '22025', message: 'LIKE pattern must not end with escape character' });
    expect(esc.rows).toEqual(esc.vector);
    const err = await vectorAndRows(`select count(*) from ${DATA} where i / d >= 0`);
    expect(err.vector).toEqual({ error: '22012', message: 'division by zero' });
    expect(err.rows).toEqual(err.vector);
  });
});

describe('scaled numeric columns', () => {
  it("use the decoder's attached doubles, and a filter's gather keeps them aligned", async () => {
    const { Numeric } = await import('../../common/pgtypes/numeric.ts');
    const { attachScaled, scaledColumnOf } = await import('../../common/pgtypes/numeric-column.ts');
    const { toScaled, scaledArith } = await import('./vector-numeric.ts');
    const { gatherColumns } = await import('../operators/filter-exec.ts');
    const col = [Numeric.of(150n, 2), null, Numeric.of(-2n, 2), Numeric.of(2n ** 53n - 1n, 2)];
    attachScaled(col, new Float64Array([150, 0, -2, 2 ** 53 - 1]), 2);
    const s = toScaled({ tag: 'values', v: col }, null, 4)!;
    expect(s.scale).toBe(2);
    expect([...s.nul!]).toEqual([0, 1, 0, 0]);
    expect(s.src).toBe(col);
    // 1.50 * 1.50, NULL, ... and (2^53 - 1)^2 leaves the exact range: the whole batch goes to bigint
    expect(scaledArith('*', s, s, new Int32Array([0, 1, 2]), 4)!.f.slice(0, 3)).toEqual(new Float64Array([22500, 0, 4]));
    expect(scaledArith('*', s, s, null, 4)).toBeNull();
    const [g] = gatherColumns([col], [3, 0]);
    expect(g).toEqual([col[3], col[0]]);
    expect([...scaledColumnOf(g!)!.f]).toEqual([2 ** 53 - 1, 150]);
  });

  it('a numeric CASE of branches at different scales stays scaled, with a scale per row', async () => {
    const { Numeric } = await import('../../common/pgtypes/numeric.ts');
    const { caseKernel } = await import('./vector-control.ts');
    const { valuesOf } = await import('./vector-values.ts');
    const cond: VecFn = () => ({ tag: 'values', v: [true, false, null, true, false] });
    const then: VecFn = () => ({ tag: 'scaled', f: new Float64Array([12345, 0, 0, -5, 0]), scale: 4, nul: new Uint8Array([0, 0, 0, 0, 0]) });
    const zero: VecFn = () => ({ tag: 'const', c: Numeric.of(0n, 0) });
    const mixed = caseKernel([[cond, then]], zero, true)([], 5, null);
    expect(mixed.tag).toBe('mixed');
    expect(valuesOf(mixed, null, 5).map(String)).toEqual(['1.2345', '0', '0', '-0.0005', '0']);
    // one scale everywhere (ELSE NULL): a plain scaled vector; a non-numeric CASE keeps values
    const one = caseKernel([[cond, then]], () => ({ tag: 'const', c: null }), true)([], 5, null);
    expect(one.tag).toBe('scaled');
    expect(valuesOf(one, null, 5).map((x) => (x === null ? null : String(x)))).toEqual(['1.2345', null, null, '-0.0005', null]);
    expect(caseKernel([[cond, then]], zero, false)([], 5, null).tag).toBe('values');
    // a branch that is not exact (NaN) keeps Numeric values
    const nan = caseKernel([[cond, then]], () => ({ tag: 'const', c: Numeric.NaN }), true)([], 5, null);
    expect(nan.tag).toBe('values');
  });

  it('+ − × with a constant operand on either side', async () => {
    const { scaledArithConst } = await import('./vector-numeric.ts');
    const x = { tag: 'scaled', f: new Float64Array([5, -7, 0, 2 ** 53 - 10]), scale: 2, nul: new Uint8Array([0, 0, 1, 0]) } as const;
    const k = { u: 1, scale: 0 };
    const sel = new Int32Array([0, 1, 2]);
    expect([...scaledArithConst('-', x, k, true, sel, 4)!.f.slice(0, 2)]).toEqual([95, 107]);
    expect([...scaledArithConst('-', x, k, false, sel, 4)!.f.slice(0, 2)]).toEqual([-95, -107]);
    expect([...scaledArithConst('+', x, { u: 1, scale: 3 }, true, sel, 4)!.f.slice(0, 2)]).toEqual([51, -69]);
    expect(scaledArithConst('*', x, { u: 25, scale: 1 }, false, sel, 4)!.scale).toBe(3);
    // 2^53 - 10 + 100 leaves the exact range: the batch falls back to Numeric
    expect(scaledArithConst('+', x, k, false, null, 4)).toBeNull();
  });
});
