/**
 * The tables the join-rule tests plan over (choose_build_side, subquery_to_semi_join, derive_or_filters): sources that
 * report their row counts, so estimates see a big and a small side. big: 3,000 rows, k = g % 100 (30 rows per key),
 * x = g % 7, plus NULL keys; small: 8 rows with duplicate keys, NULLs and keys big lacks; nulls: a NULL among keys;
 * nothing: empty.
 */
import { Oid, sqlType } from '../../common/pgtypes/oids.ts';
import { MemoryCatalog } from '../../sql/testing/memory-catalog.ts';
import { StrictTable } from './strict-table.ts';

class SizedTable extends StrictTable {
  get estimatedRows(): number { return this.rows.length; }
}

const col = (name: string, oid: number) => ({ name, type: sqlType(oid), nullable: true });

export function sizedJoinCatalog(): MemoryCatalog {
  const cat = new MemoryCatalog();
  const big: unknown[][] = Array.from({ length: 3000 }, (_, i) => [(i + 1) % 100, (i + 1) % 7, i + 1]);
  big.push([null, 1, -1], [null, 2, -2], [5, null, -3]);
  cat.addRelation({ schema: 'public', name: 'big', source: new SizedTable([col('k', Oid.int4), col('x', Oid.int4), col('v', Oid.int4)], big) });
  cat.addRelation({ schema: 'public', name: 'small', source: new SizedTable(
    [col('k', Oid.int4), col('x', Oid.int4), col('v', Oid.int4), col('name', Oid.text)],
    [[1, 1, 10, 'a'], [1, 2, 20, 'b'], [5, 0, 30, 'c'], [5, 0, 31, 'c2'], [null, 3, 40, 'n'], [200, 1, 50, 'miss'], [7, null, 60, 'nx'], [99, 1, 70, 'z']],
  ) });
  cat.addRelation({ schema: 'public', name: 'nulls', source: new SizedTable([col('k', Oid.int4)], [[1], [null], [99]]) });
  cat.addRelation({ schema: 'public', name: 'nothing', source: new SizedTable([col('k', Oid.int4), col('v', Oid.int4)], []) });
  return cat;
}
