/**
 * The eight TPC-H tables without rows but with the row counts (estimatedRows) of a scale factor, so the
 * optimizer plans the 22 queries as it would over the Iceberg tables of that size: plan shapes at SF 1 can be
 * checked in milliseconds, without data (answers are test/tpch's business, against PostgreSQL).
 */
import { TPCH_COLUMNS, type TpchTable } from '../../bench/tpch/index.ts';
import { Oid, sqlType, type SqlType } from '../../src/common/pgtypes/oids.ts';
import { MemoryCatalog } from '../../src/sql/testing/memory-catalog.ts';
import { StrictTable } from '../../src/exec/testing/strict-table.ts';

/** TPC-H 4.2.5: rows per table at SF 1 (region and nation do not scale) */
const SF1_ROWS: Readonly<Record<TpchTable, number>> = {
  region: 5, nation: 25, supplier: 10_000, customer: 150_000, part: 200_000, partsupp: 800_000, orders: 1_500_000, lineitem: 6_001_215,
};

class EstimatedTable extends StrictTable {
  constructor(columns: StrictTable['columns'], readonly estimatedRows: number) {
    super(columns, []);
  }
}

function typeOf(t: string): SqlType {
  let m: RegExpExecArray | null;
  if (t === 'integer') return sqlType(Oid.int4);
  if (t === 'bigint') return sqlType(Oid.int8);
  if (t === 'date') return sqlType(Oid.date);
  if ((m = /^char\((\d+)\)$/.exec(t)) !== null) return sqlType(Oid.bpchar, Number(m[1]) + 4);
  if ((m = /^varchar\((\d+)\)$/.exec(t)) !== null) return sqlType(Oid.varchar, Number(m[1]) + 4);
  if ((m = /^numeric\((\d+),(\d+)\)$/.exec(t)) !== null) return sqlType(Oid.numeric, ((Number(m[1]) << 16) | Number(m[2])) + 4);
  throw new Error(`unexpected TPC-H column type ${t}`);
}

/** schema `public`, one empty table per TPC-H table reporting its row count at scale factor `sf` */
export function tpchEstimatedCatalog(sf: number): MemoryCatalog {
  const cat = new MemoryCatalog();
  for (const [name, text] of Object.entries(TPCH_COLUMNS) as [TpchTable, string][]) {
    // split on the commas between columns, not inside numeric(15,2)
    const columns = text.split(/,(?![^(]*\))/).map((c) => {
      const [col, ...type] = c.trim().replace(/ not null$/, '').split(/\s+/);
      return { name: col!, type: typeOf(type.join(' ')), nullable: false };
    });
    const rows = name === 'region' || name === 'nation' ? SF1_ROWS[name] : Math.round(SF1_ROWS[name] * sf);
    cat.addRelation({ schema: 'public', name, source: new EstimatedTable(columns, rows) });
  }
  return cat;
}
