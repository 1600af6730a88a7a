/**
 * CREATE TABLE … WITH (iceberg_types = ARRAY['attrs struct<a: int, b: string>', 'tags map<string, long>']):
 * PostgreSQL's grammar has no struct or map type, so a column is declared with the type it reads as
 * (jsonb for struct and map, `jsonb[]` for a list of nested values, `T[]` for a list of primitives) and the
 * option gives its Iceberg type in Iceberg's own spelling (iceberg-type-text.ts). Each item is
 * `<column> <iceberg type>`; the column name is folded to lower case unless double-quoted, as in SQL.
 * The declared type must be what the Iceberg type reads as, so the table reads back as declared.
 */
import type { ColumnDef } from '../../catalog/table-source.ts';
import type { SchemaChange } from '../commit/schema-update.ts';
import { pgError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import { formatType } from '../../common/pgtypes/format-type.ts';
import type { IcebergType } from '../spec/schema.ts';
import { toSqlType } from '../spec/types.ts';
import { typeToString } from '../spec/schema.ts';
import { arrowTypeOfIceberg } from './nested-column.ts';
import { parseIcebergTypeText } from './iceberg-type-text.ts';
import { storedInDataFiles } from '../variant/v3-type-rules.ts';

/** a CREATE TABLE column with the Iceberg type the `iceberg_types` option gave it (ids not yet assigned) */
export interface IcebergColumnDef extends ColumnDef {
  readonly icebergType?: IcebergType;
}

/** the option's value: a JSON array of items (what `ARRAY['…', '…']` becomes, see with-array-options.ts) or one item */
export function icebergTypesItems(value: string): string[] {
  const v = value.trim();
  if (v.startsWith('[')) {
    try {
      const items = JSON.parse(v) as unknown;
      if (Array.isArray(items) && items.every((x) => typeof x === 'string')) return items;
    } catch {
      // not JSON: taken as one item below (and rejected there)
    }
  }
  return [v];
}

function splitItem(item: string): { name: string; typeText: string } {
  const s = item.trim();
  if (s.startsWith('"')) {
    let name = '';
    let i = 1;
    for (; i < s.length; i++) {
      if (s[i] === '"') {
        if (s[i + 1] === '"') { name += '"'; i++; continue; }
        return { name, typeText: s.slice(i + 1).trim() };
      }
      name += s[i];
    }
  } else {
    const m = /^([^\s]+)\s+(.+)$/s.exec(s);
    if (m !== null) return { name: m[1]!.toLowerCase(), typeText: m[2]!.trim() };
  }
  throw pgError(SqlState.invalid_parameter_value, `invalid iceberg_types item "${item}"`, {
    hint: "Each item is a column name and an Iceberg type, e.g. 'attrs struct<a: int, b: string>'.",
  });
}

/** the columns, each named in `items` carrying its Iceberg type (checked to be writable and to match the declared type) */
export function applyIcebergTypes(columns: readonly ColumnDef[], items: readonly string[]): IcebergColumnDef[] {
  const out: IcebergColumnDef[] = [...columns];
  const seen = new Set<string>();
  for (const item of items) {
    const { name, typeText } = splitItem(item);
    const i = columns.findIndex((c) => c.name === name);
    if (i < 0) throw pgError(SqlState.undefined_column, `column "${name}" named in iceberg_types does not exist`);
    if (seen.has(name)) throw pgError(SqlState.duplicate_column, `column "${name}" specified more than once in iceberg_types`);
    seen.add(name);
    const type = parseIcebergTypeText(typeText);
    if (storedInDataFiles({ type })) arrowTypeOfIceberg(type); // 0A000 for types lakegate cannot write (fixed, timestamp_ns, …)
    const c = columns[i]!;
    const reads = toSqlType(type);
    if (reads.oid !== c.type.oid || (c.type.typmod !== -1 && c.type.typmod !== reads.typmod)) {
      throw pgError(SqlState.datatype_mismatch, `column "${name}" is of type ${formatType(c.type.oid, c.type.typmod)} but Iceberg type ${typeToString(type)} reads as ${formatType(reads.oid, reads.typmod)}`, {
        hint: `Declare the column as ${formatType(reads.oid, reads.typmod)}.`,
      });
    }
    out[i] = { ...c, type: reads, icebergType: type };
  }
  return out;
}

/**
 * ALTER TABLE … ADD COLUMN x jsonb, SET (iceberg_types = 'x struct<a: int>'): the option names columns the same
 * statement adds (an existing column's type cannot change to a nested one: Iceberg has no such promotion).
 */
export function applyIcebergTypesToAdds(changes: readonly SchemaChange[], items: readonly string[]): SchemaChange[] {
  if (items.length === 0) return [...changes];
  const adds = changes.flatMap((c) => (c.kind === 'add' ? [c] : []));
  for (const item of items) {
    const { name } = splitItem(item);
    if (!adds.some((a) => a.name === name)) {
      throw pgError(SqlState.feature_not_supported, `iceberg_types in ALTER TABLE applies only to columns the same statement adds, not to "${name}"`, {
        hint: `ALTER TABLE … ADD COLUMN ${name} jsonb, SET (iceberg_types = '${name} struct<…>')`,
      });
    }
  }
  const typed = applyIcebergTypes(adds.map((a) => ({ name: a.name, type: a.type, nullable: !a.notNull })), items);
  return changes.map((c) => {
    if (c.kind !== 'add') return c;
    const t = typed.find((x) => x.name === c.name);
    return t?.icebergType === undefined ? c : { ...c, type: t.type, icebergType: t.icebergType };
  });
}
