/**
 * TPC-H for lakegate's tests and benchmarks: a deterministic data generator for the eight tables at any
 * scale factor (CSV chunks for COPY FROM STDIN, with progress), the DDL for PostgreSQL and lakegate, and
 * the 22 queries in PostgreSQL's dialect with the spec's validation parameters.
 */
export {
  TPCH_TABLES, type TpchTable, type TpchRow, tpchRows, tpchRowCount, tpchScale, money, orderKey, partSupplier,
  retailPriceCents,
} from './generator.ts';
export {
  tpchCsv, tpchCsvStream, writeTpchCsvFiles, csvField, type TpchCsvOptions, type TpchProgress, type TpchCsvFile,
} from './csv.ts';
export { tpchCreateDdl, tpchPostLoadDdl, TPCH_COLUMNS, type TpchDdlOptions } from './schema.ts';
export { tpchQuery, tpchQueries, TPCH_QUERY_NUMBERS } from './queries.ts';
