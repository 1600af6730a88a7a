/**
 * Tables of the join_dimension_branches tests: a TPC-H-like snowflake with few real rows but the row counts
 * (estimatedRows) of a big schema, so the optimizer treats `fact` as the fact table. NULL keys on every join
 * column, duplicate keys in the dimensions (nat has two rows for key 4, cust two for ck 7), keys without a
 * match on either side, and `nk8` — cust's nation key as int8 — for cross-type equalities.
 *   reg 5 · nat 25 · supp 1,000 · cust 20,000 · ord 200,000 · fact 1,000,000 (estimated); TPC-H Q9's bridge:
 *   part 200,000 · ps 800,000 · li 6,000,000 (estimated)
 */
import { Oid, sqlType } from '../../common/pgtypes/oids.ts';
import { MemoryCatalog } from '../../sql/testing/memory-catalog.ts';
import { StrictTable } from './strict-table.ts';

class EstimatedTable extends StrictTable {
  constructor(columns: StrictTable['columns'], rows: StrictTable['rows'], readonly estimatedRows: number) {
    super(columns, rows);
  }
}

const col = (name: string, oid: number) => ({ name, type: sqlType(oid), nullable: true });
const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i + 1);

export function snowflakeCatalog(): MemoryCatalog {
  const cat = new MemoryCatalog();
  const add = (name: string, cols: ReturnType<typeof col>[], rows: unknown[][], estimated: number): void => {
    cat.addRelation({ schema: 'public', name, source: new EstimatedTable(cols, rows, estimated) });
  };
  add('reg', [col('rk', Oid.int4), col('name', Oid.text)], [[1, 'ASIA'], [2, 'EUROPE'], [null, 'NOWHERE'], [3, 'EMPTY']], 5);
  add('nat', [col('nk', Oid.int4), col('rk', Oid.int4), col('name', Oid.text)], [
    [1, 1, 'CHINA'], [2, 1, 'JAPAN'], [3, 2, 'FRANCE'], [4, 2, 'GERMANY'], [4, 2, 'GERMANY2'], [null, 1, 'NULLAND'], [5, null, 'LIMBO'],
  ], 25);
  add('supp', [col('sk', Oid.int4), col('nk', Oid.int4)], range(10).map((i) => [i, i === 9 ? null : i % 6]), 1000);
  add('cust', [col('ck', Oid.int4), col('nk', Oid.int4), col('seg', Oid.text), col('nk8', Oid.int8)], [
    ...range(40).map((i) => [i % 13 === 0 ? null : i, i % 11 === 0 ? null : i % 6, ['AUTO', 'BUILDING', 'MACHINERY'][i % 3], i % 11 === 0 ? null : BigInt(i % 6)]),
    [7, 3, 'BUILDING', 3n],
  ], 20_000);
  add('ord', [col('ok', Oid.int4), col('ck', Oid.int4), col('od', Oid.int4)], range(100).map((i) => [i, i % 17 === 0 ? null : i % 45, i % 10]), 200_000);
  add('fact', [col('ok', Oid.int4), col('sk', Oid.int4), col('amt', Oid.int4)], range(400).map((i) => [i % 37 === 0 ? null : i % 110, i % 12, i]), 1_000_000);
  // TPC-H Q9's bridge: li references part and supp both directly and through ps (pk, sk); duplicate ps pairs
  add('part', [col('pk', Oid.int4), col('name', Oid.text)], range(30).map((i) => [i % 29 === 0 ? null : i, i % 4 === 0 ? 'green' : 'red']), 200_000);
  add('ps', [col('pk', Oid.int4), col('sk', Oid.int4), col('cost', Oid.int4)], [
    ...range(60).map((i) => [i % 23 === 0 ? null : (i % 31) + 1, i % 19 === 0 ? null : i % 11, i]), [4, 4, 1000],
  ], 800_000);
  add('li', [col('ok', Oid.int4), col('pk', Oid.int4), col('sk', Oid.int4), col('amt', Oid.int4)],
    range(300).map((i) => [i % 110, i % 41 === 0 ? null : i % 33, i % 37 === 0 ? null : i % 12, i]), 6_000_000);
  return cat;
}
