/**
 * Name mapping (§ Column Projection, § Appendix C "Name Mapping Serialization"): the table property
 * `schema.name-mapping.default` gives fallback field ids for data files written without them (files
 * imported by `add_files` / `register_table` from Hive, plain Spark or pyarrow). Each mapped field lists the
 * `names` a column may have in a file, its `field-id` (absent: not in the Iceberg schema) and child `fields`.
 *
 * Resolution of a file's top-level columns when the file carries no field ids, as Iceberg Java's ReadConf:
 * - with a mapping: a column whose name is in a mapped field's `names` gets that `field-id`; unmapped
 *   columns are not read (a requested id no column maps to reads as missing: partition value, default, NULL);
 * - without a mapping: `ParquetSchemaUtil.addFallbackIds` — the top-level columns get ids 1, 2, 3, … by
 *   position, which matches tables whose schema was created from the same files in the same order.
 * Names are literal (a name containing `.` is not a path). Nested children are read by the reader's rules
 * for nested values; only top-level columns are mapped here.
 */
import { pgError } from '../../common/errors.ts';

export const NAME_MAPPING_PROPERTY = 'schema.name-mapping.default';

export interface MappedField {
  readonly names: readonly string[];
  readonly fieldId?: number;
  readonly fields?: readonly MappedField[];
}

export type NameMapping = readonly MappedField[];

function parseField(v: unknown, path: string): MappedField {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new Error(`${path} is not an object`);
  const o = v as Record<string, unknown>;
  const names = o['names'];
  if (!Array.isArray(names) || !names.every((n) => typeof n === 'string')) throw new Error(`${path}.names is not a list of strings`);
  const id = o['field-id'];
  if (id !== undefined && id !== null && !Number.isInteger(Number(id))) throw new Error(`${path}.field-id is not an integer`);
  const fields = o['fields'];
  if (fields !== undefined && fields !== null && !Array.isArray(fields)) throw new Error(`${path}.fields is not a list`);
  return {
    names: names as string[],
    ...(id === undefined || id === null ? {} : { fieldId: Number(id) }),
    ...(Array.isArray(fields) ? { fields: fields.map((f, i) => parseField(f, `${path}.fields[${i}]`)) } : {}),
  };
}

/** The table's name mapping, or null without the property. A malformed property is XX001 naming it. */
export function nameMappingOf(properties: Readonly<Record<string, string>>): NameMapping | null {
  const text = properties[NAME_MAPPING_PROPERTY];
  if (text === undefined) return null;
  try {
    const doc: unknown = JSON.parse(text);
    if (!Array.isArray(doc)) throw new Error('not a JSON list of field mappings');
    return doc.map((f, i) => parseField(f, `[${i}]`));
  } catch (e) {
    throw pgError('XX001', `invalid table property "${NAME_MAPPING_PROPERTY}": ${(e as Error).message}`, { cause: e });
  }
}

/**
 * field id → file column name for the top-level columns of a file without field ids, by the mapping or,
 * without one, by position (ids 1..n).
 */
export function mapColumnsToIds(mapping: NameMapping | null, columnNames: readonly string[]): Map<number, string> {
  const out = new Map<number, string>();
  if (mapping === null) {
    columnNames.forEach((name, i) => out.set(i + 1, name));
    return out;
  }
  const idByName = new Map<string, number>();
  for (const f of mapping) {
    if (f.fieldId === undefined) continue;
    for (const n of f.names) if (!idByName.has(n)) idByName.set(n, f.fieldId);
  }
  for (const name of columnNames) {
    const id = idByName.get(name);
    // two file columns mapped to one id (aliases both present): the first wins, as a file has one value per field
    if (id !== undefined && !out.has(id)) out.set(id, name);
  }
  return out;
}
