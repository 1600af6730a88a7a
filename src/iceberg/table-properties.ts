/**
 * Iceberg table properties set from SQL (`CREATE TABLE … WITH ("write.target-file-size-bytes" = '134217728')`,
 * `ALTER TABLE … SET (…)` / `RESET (…)`): any key with a dot in it is a table property, stored verbatim as
 * Spark's TBLPROPERTIES would, except the keys Iceberg Java reserves (they describe the metadata itself) and the
 * ones lakegate manages through their own statements. The writer honours `write.target-file-size-bytes`.
 */
import { pgError } from '../common/errors.ts';
import { SqlState } from '../common/sqlstate.ts';

export const TARGET_FILE_SIZE_PROPERTY = 'write.target-file-size-bytes';

/**
 * lakegate encodes a data file in one piece from its buffered Arrow columns, so the file size it can aim at is
 * bounded by memory: targets above this many buffered bytes are capped (ZSTD Parquet comes out 3–5× smaller).
 */
export const MAX_TARGET_FILE_BYTES = 256 * 1024 * 1024;

/** TableProperties.RESERVED_PROPERTIES of Iceberg Java, and the properties lakegate's own statements manage */
const RESERVED = new Set([
  'format-version', 'uuid', 'snapshot-count', 'current-snapshot-id', 'current-snapshot-summary',
  'current-snapshot-timestamp-ms', 'current-schema', 'default-partition-spec', 'default-sort-order',
]);
const MANAGED: Readonly<Record<string, string>> = {
  'lakegate.indexes': 'CREATE INDEX / DROP INDEX',
  'lakegate.foreign-keys': 'FOREIGN KEY constraints',
  'lakegate.primary-key-name': 'PRIMARY KEY constraints',
  comment: 'COMMENT ON TABLE',
};

/** does this WITH / SET option name an Iceberg table property (rather than a lakegate option)? */
export function isTablePropertyName(key: string): boolean {
  return key.includes('.') || RESERVED.has(key);
}

/** 22023 for reserved keys and bad values of the properties lakegate interprets */
export function checkTableProperty(key: string, value: string | undefined): void {
  if (RESERVED.has(key)) throw pgError(SqlState.invalid_parameter_value, `Iceberg table property "${key}" is reserved`, { detail: 'It describes the table metadata and is set by the writer.' });
  const managed = MANAGED[key];
  if (managed !== undefined) throw pgError(SqlState.invalid_parameter_value, `Iceberg table property "${key}" is managed by ${managed}`);
  if (key === TARGET_FILE_SIZE_PROPERTY && value !== undefined && !(/^\d+$/.test(value) && Number(value) > 0)) {
    throw pgError(SqlState.invalid_parameter_value, `invalid value for Iceberg table property "${key}": "${value}"`, { hint: 'A positive number of bytes, e.g. 134217728.' });
  }
}

/** the data-file roll size a table asks for, capped at MAX_TARGET_FILE_BYTES; undefined when it sets none */
export function targetFileSizeOf(properties: Readonly<Record<string, string>>): number | undefined {
  const v = properties[TARGET_FILE_SIZE_PROPERTY];
  if (v === undefined || !/^\d+$/.test(v) || Number(v) <= 0) return undefined;
  return Math.min(Number(v), MAX_TARGET_FILE_BYTES);
}
