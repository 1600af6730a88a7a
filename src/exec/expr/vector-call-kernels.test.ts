/**
 * Differential tests of the special call kernels (vector-call-kernels.ts) and the IN-list set probe
 * (in-list-set.ts): each expression runs with the vector kernels on and off (row closures) over dates
 * from 4713 BC to 5874897 AD and ±infinity, strings with multibyte and astral characters, NULLs, and must
 * give the same rows or the same error.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initParser } from '../../sql/index.ts';
import { setVectorKernels } from './vector-expr.ts';
import { vectorAndRows } from '../testing/vector-and-rows.ts';

let seed = 4242;
function rand(): number {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed / 0x7fffffff;
}
const pickOf = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;

function row(k: number): string {
  const nul = (s: string): string => (rand() < 0.1 ? 'null' : s);
  const day = Math.floor(rand() * 3_000_000) - 1_500_000;
  const dt = pickOf([`'1970-01-01'::date + ${day}`, "'infinity'::date", "'-infinity'::date", "'4713-11-24 BC'::date",
    "'0001-12-31 BC'::date", "'2024-02-29'::date", "'1900-03-01'::date", `'1992-01-01'::date + ${Math.floor(rand() * 2500)}`]);
  const s = pickOf(["'13-555-1234'", "'31-000'", "''", "'x'", "'héllo'", "'😀abc'", "'a😀b'", "'ab😀'", "'PROMO BRUSHED'", "'17'"]);
  return `(${k}, ${nul(dt)}, ${nul(s)}::text, ${nul(s)}::char(12), ${nul(String(Math.floor(rand() * 9) - 2))}::int4)`;
}
const ROWS = Array.from({ length: 400 }, (_v, k) => row(k)).join(',\n');
const DATA = `(values ${ROWS}) v(k, d, s, c, i)`;

const FIELDS = ['year', 'month', 'day', 'quarter', 'decade', 'century', 'millennium', 'dow', 'isodow', 'doy', 'epoch', 'week', 'isoyear', 'julian'];
const EXPRS = [
  ...FIELDS.map((f) => `extract(${f} from d)`),
  "date_part('year', d)", "date_part('MONTH', d)", "date_part('dow', d)", "date_part('epoch', d)", "date_part('hour', d)",
  'extract(hour from d)', "date_part('fortnight', d)",
  'substring(s from 1 for 2)', 'substring(s from 2)', 'substring(s from 0 for 3)', 'substring(s from -2 for 4)',
  'substr(s, 3, 1)', 'substring(c from 1 for 2)', 'substring(s from 2 for 0)', 'substring(s from 1 for -1)',
  "substring(s from 1 for 2) in ('13', '31', '17', 'hé', '😀a')", "substring(s from 1 for 2) not in ('13', null)",
  "c in ('x', '17  ', 'PROMO BRUSH')", "s not in ('x', '')", 'i in (1, 2, 3, 4)', 'i not in (0, 5, 6)', 'i in (1, null)',
  "s like '%😀%'", "s like '_😀%'", "s not like '%é%'",
];

beforeAll(async () => { await initParser(); });
afterAll(() => { setVectorKernels(true); });

describe('special call kernels equal the row closures', () => {
  it('in projections (values or the same error)', async () => {
    let errors = 0;
    for (const e of EXPRS) {
      const sql = `select k, ${e} from ${DATA} order by k`;
      const { vector, rows } = await vectorAndRows(sql);
      expect(vector, sql).toEqual(rows);
      if (!Array.isArray(vector)) errors++;
    }
    // hour of a date, an unknown unit, a negative length
    expect(errors).toBeGreaterThanOrEqual(3);
    expect(errors).toBeLessThan(8);
  });

  it('grouped, over the rows a filter keeps', async () => {
    for (const e of ['extract(year from d)', 'substring(s from 1 for 2)', "date_part('quarter', d)"]) {
      const sql = `select ${e}, count(*), min(k) from ${DATA} where d between '1000-01-01' and '3000-01-01' and k % 3 <> 1 group by 1 order by 1`;
      const { vector, rows } = await vectorAndRows(sql);
      expect(vector, sql).toEqual(rows);
      expect(Array.isArray(vector) && vector.length > 3, sql).toBe(true);
    }
  });
});
