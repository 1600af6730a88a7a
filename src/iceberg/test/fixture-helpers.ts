/** Test helpers: map each shared fixture table's location prefix to its folder, and read rows as plain values. */
import { LocalPrefixIO } from '../io.ts';
import { IcebergTableSource, type IcebergTableSourceOptions } from '../iceberg-table-source.ts';
import { rowsOfBatch } from '../../common/batch.ts';
import { Numeric } from '../../common/pgtypes/numeric.ts';
import { dateOut } from '../../common/pgtypes/datetime-text.ts';
import { Oid } from '../../common/pgtypes/oids.ts';

export const FIXTURES = '/work/shared/fixtures/iceberg';

export const fixtureIO = new LocalPrefixIO({
  's3a://hyperparam-iceberg/spark/bunnies': `${FIXTURES}/icebird-spark-bunnies`,
  's3a://hyperparam-iceberg/spark/rename_column': `${FIXTURES}/icebird-spark-rename_column`,
  'lineitem_iceberg': `${FIXTURES}/duckdb-lineitem_iceberg`,
  './lineitem_iceberg': `${FIXTURES}/duckdb-lineitem_iceberg`,
  'data/persistent/equality_deletes': `${FIXTURES}/duckdb-equality_deletes`,
  'data/persistent/iceberg_v1_deprecated': `${FIXTURES}/duckdb-iceberg_v1_deprecated`,
  'file://data/persistent/map_stats': `${FIXTURES}/duckdb-map_stats`,
});

export async function openTable(metadataUri: string, opts?: IcebergTableSourceOptions): Promise<IcebergTableSource> {
  return IcebergTableSource.load(fixtureIO, metadataUri, opts);
}

/** rows with values made comparable to expected.json: date → 'YYYY-MM-DD', Numeric → string, bigint → number if safe */
export async function readRows(t: IcebergTableSource, projection?: number[]): Promise<unknown[][]> {
  const rows: unknown[][] = [];
  const ctx = projection === undefined ? { signal: new AbortController().signal } : { signal: new AbortController().signal, projection };
  for await (const b of t.scan(ctx)) rows.push(...rowsOfBatch(b));
  return rows.map((r) => r.map((v, i) => plain(v, t.columns[i]!.type.oid)));
}

export function plain(v: unknown, oid: number): unknown {
  if (v === null) return null;
  if (oid === Oid.date) return dateOut(v as number);
  if (Numeric.isNumeric(v)) return v.toString();
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : String(v);
  return v;
}

const key = (r: unknown): string => JSON.stringify(r, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));
export const sortRows = (rows: unknown[][]): unknown[][] => [...rows].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
