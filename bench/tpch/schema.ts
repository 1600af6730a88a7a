/**
 * TPC-H DDL (spec 1.4) in PostgreSQL's dialect. For PostgreSQL, `keys` adds what its users would: primary
 * keys and an index on every foreign-key column (created after the load, then ANALYZE). For lakegate, `keys`
 * adds the same primary keys (Iceberg identifier fields, checked over the loaded rows: rules such as
 * correlated_aggregate_from_join need a unique outer key), and `partitioned` partitions lineitem and orders by
 * month of their date (Trino's `partitioning` spelling).
 */
import type { TpchTable } from './generator.ts';

export interface TpchDdlOptions {
  readonly target: 'postgres' | 'lakegate';
  /** schema to create the tables in (created if given); default: unqualified names */
  readonly schema?: string;
  /** tpchPostLoadDdl: primary keys (+ foreign-key indexes for PostgreSQL) (default false) */
  readonly keys?: boolean;
  /** lakegate: lineitem by month(l_shipdate), orders by month(o_orderdate) (default true) */
  readonly partitioned?: boolean;
  /** the transform of that partitioning (default 'month'; 'year' makes 7 files per table instead of ~80) */
  readonly partitionTransform?: 'month' | 'year';
}

export const TPCH_COLUMNS: Readonly<Record<TpchTable, string>> = {
  region: 'r_regionkey integer not null, r_name char(25) not null, r_comment varchar(152)',
  nation: 'n_nationkey integer not null, n_name char(25) not null, n_regionkey integer not null, n_comment varchar(152)',
  supplier: `s_suppkey integer not null, s_name char(25) not null, s_address varchar(40) not null, s_nationkey integer not null,
    s_phone char(15) not null, s_acctbal numeric(15,2) not null, s_comment varchar(101) not null`,
  customer: `c_custkey integer not null, c_name varchar(25) not null, c_address varchar(40) not null, c_nationkey integer not null,
    c_phone char(15) not null, c_acctbal numeric(15,2) not null, c_mktsegment char(10) not null, c_comment varchar(117) not null`,
  part: `p_partkey integer not null, p_name varchar(55) not null, p_mfgr char(25) not null, p_brand char(10) not null,
    p_type varchar(25) not null, p_size integer not null, p_container char(10) not null, p_retailprice numeric(15,2) not null,
    p_comment varchar(23) not null`,
  partsupp: `ps_partkey integer not null, ps_suppkey integer not null, ps_availqty integer not null,
    ps_supplycost numeric(15,2) not null, ps_comment varchar(199) not null`,
  orders: `o_orderkey bigint not null, o_custkey integer not null, o_orderstatus char(1) not null, o_totalprice numeric(15,2) not null,
    o_orderdate date not null, o_orderpriority char(15) not null, o_clerk char(15) not null, o_shippriority integer not null,
    o_comment varchar(79) not null`,
  lineitem: `l_orderkey bigint not null, l_partkey integer not null, l_suppkey integer not null, l_linenumber integer not null,
    l_quantity numeric(15,2) not null, l_extendedprice numeric(15,2) not null, l_discount numeric(15,2) not null,
    l_tax numeric(15,2) not null, l_returnflag char(1) not null, l_linestatus char(1) not null, l_shipdate date not null,
    l_commitdate date not null, l_receiptdate date not null, l_shipinstruct char(25) not null, l_shipmode char(10) not null,
    l_comment varchar(44) not null`,
};

const PARTITION_COLUMN: Partial<Record<TpchTable, string>> = { lineitem: 'l_shipdate', orders: 'o_orderdate' };

const PRIMARY_KEYS: Readonly<Record<TpchTable, string>> = {
  region: 'r_regionkey', nation: 'n_nationkey', supplier: 's_suppkey', customer: 'c_custkey', part: 'p_partkey',
  partsupp: 'ps_partkey, ps_suppkey', orders: 'o_orderkey', lineitem: 'l_orderkey, l_linenumber',
};

/** foreign-key columns not already the leading column of the primary key */
const FK_INDEXES: readonly (readonly [TpchTable, string])[] = [
  ['nation', 'n_regionkey'], ['supplier', 's_nationkey'], ['customer', 'c_nationkey'], ['partsupp', 'ps_suppkey'],
  ['orders', 'o_custkey'], ['lineitem', 'l_partkey, l_suppkey'], ['lineitem', 'l_suppkey'],
];

const qualify = (o: TpchDdlOptions, t: string): string => (o.schema ? `${o.schema}.${t}` : t);

/** CREATE SCHEMA (if a schema is given) and the eight CREATE TABLEs, in load order */
export function tpchCreateDdl(options: TpchDdlOptions): string[] {
  const out: string[] = [];
  if (options.schema) out.push(`CREATE SCHEMA IF NOT EXISTS ${options.schema}`);
  for (const [table, cols] of Object.entries(TPCH_COLUMNS) as [TpchTable, string][]) {
    const column = options.target === 'lakegate' && options.partitioned !== false ? PARTITION_COLUMN[table] : undefined;
    const withClause = column === undefined ? '' : ` WITH (partitioning = ARRAY['${options.partitionTransform ?? 'month'}(${column})'])`;
    out.push(`CREATE TABLE ${qualify(options, table)} (${cols})${withClause}`);
  }
  return out;
}

/** statements to run after the load: primary keys (PostgreSQL: also foreign-key indexes and ANALYZE) */
export function tpchPostLoadDdl(options: TpchDdlOptions): string[] {
  const out: string[] = [];
  if (options.keys) {
    for (const [table, pk] of Object.entries(PRIMARY_KEYS) as [TpchTable, string][]) {
      out.push(`ALTER TABLE ${qualify(options, table)} ADD PRIMARY KEY (${pk})`);
    }
  }
  if (options.target !== 'postgres') return out;
  if (options.keys) {
    for (const [table, cols] of FK_INDEXES) {
      out.push(`CREATE INDEX ${table}_${cols.replace(/, /g, '_')}_idx ON ${qualify(options, table)} (${cols})`);
    }
  }
  out.push('ANALYZE');
  return out;
}
