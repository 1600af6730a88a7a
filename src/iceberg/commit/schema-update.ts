/**
 * ALTER TABLE on an Iceberg table as one metadata change (no new snapshot): the column changes of one
 * statement are applied to the current schema, which becomes a new schema (next schema-id) made current,
 * with `last-column-id` bumped for added fields — Iceberg's UpdateSchema. Old data files keep reading
 * through field ids: an added field is NULL in them, a renamed one keeps its id, a promoted one widens.
 * Allowed promotions (spec "Schema Evolution"): int→long, float→double, decimal(P,S)→decimal(P',S) P'>P.
 * The function is pure over the metadata document, so updateTableMetadata can re-apply it on a retry.
 */
import { pgError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import { Oid, type SqlType } from '../../common/pgtypes/oids.ts';
import { formatType } from '../../common/pgtypes/format-type.ts';
import { icebergColumnTypeOf, icebergTypeJson } from '../write/iceberg-type-of.ts';
import { columnDefaultProperty, columnTypeProperty } from '../write/new-table-metadata.ts';
import { assignFreshIds } from '../write/iceberg-type-text.ts';
import { parseType, typeToString, type IcebergType } from '../spec/schema.ts';
import { toSqlType } from '../spec/types.ts';
import { checkV3Types } from '../variant/v3-type-rules.ts';

type Doc = Record<string, unknown>;

export type SchemaChange =
  | {
    readonly kind: 'add'; readonly name: string; readonly type: SqlType; readonly notNull: boolean; readonly ifNotExists: boolean; readonly defaultExpr?: string;
    /** a struct/list/map given by the statement's iceberg_types option (ids still 0; write/iceberg-types-option.ts) */
    readonly icebergType?: IcebergType;
  }
  | { readonly kind: 'drop'; readonly name: string; readonly ifExists: boolean; readonly cascade: boolean }
  | { readonly kind: 'rename'; readonly from: string; readonly to: string }
  | { readonly kind: 'type'; readonly name: string; readonly type: SqlType }
  | { readonly kind: 'nullability'; readonly name: string; readonly notNull: boolean }
  /** ALTER TABLE ADD / DROP PRIMARY KEY: the identifier fields (required; empty: none) */
  | { readonly kind: 'identifier-fields'; readonly names: readonly string[] };

/** true when the current snapshot holds no rows (or there is none) */
export function isEmptyTable(doc: Doc): boolean {
  const current = String(doc['current-snapshot-id'] ?? '-1');
  if (current === '-1' || current === 'null') return true;
  const snap = ((doc['snapshots'] as Doc[] | undefined) ?? []).find((s) => String(s['snapshot-id']) === current);
  const total = (snap?.['summary'] as Record<string, string> | undefined)?.['total-records'];
  return total === '0';
}

const DECIMAL = /^decimal\(\s*(\d+)\s*,\s*(\d+)\s*\)$/;

/** whether Iceberg lets a field of type `from` become `to` (same type, or an allowed promotion) */
function promotionAllowed(from: unknown, to: unknown): boolean {
  if (typeof from !== 'string' || typeof to !== 'string') return JSON.stringify(from) === JSON.stringify(to);
  if (from === to) return true;
  if (from === 'int' && to === 'long') return true;
  if (from === 'float' && to === 'double') return true;
  const a = DECIMAL.exec(from);
  const b = DECIMAL.exec(to);
  return a !== null && b !== null && a[2] === b[2] && Number(b[1]) > Number(a[1]);
}

/** engine/iceberg-tables.ts keeps index and foreign-key column lists by name: a rename follows them */
function renameInProperty(props: Record<string, string>, key: string, from: string, to: string): void {
  const text = props[key];
  if (text === undefined) return;
  const entries = JSON.parse(text) as { columns: string[] }[];
  props[key] = JSON.stringify(entries.map((e) => ({ ...e, columns: e.columns.map((n) => (n === from ? to : n)) })));
}

/**
 * the change applied to a metadata document; `notices` receives PostgreSQL's "skipping" notices
 * (cleared on each application)
 */
export function applySchemaChanges(table: string, changes: readonly SchemaChange[], notices: string[] = []): (doc: Doc) => Doc {
  return (doc) => {
    notices.length = 0;
    const schemas = (doc['schemas'] as Doc[] | undefined) ?? [];
    const current = schemas.find((s) => Number(s['schema-id']) === Number(doc['current-schema-id']));
    if (current === undefined) throw pgError('XX000', 'Iceberg table metadata has no current schema');
    let fields = [...(current['fields'] as Doc[])];
    let identifiers = ((current['identifier-field-ids'] as number[] | undefined) ?? []).map(Number);
    let lastId = Number(doc['last-column-id'] ?? 0);
    const props: Record<string, string> = { ...((doc['properties'] as Record<string, string> | undefined) ?? {}) };
    const empty = isEmptyTable(doc);
    const find = (name: string): Doc | undefined => fields.find((f) => f['name'] === name);
    const missing = (name: string) => pgError(SqlState.undefined_column, `column "${name}" of relation "${table}" does not exist`);
    const setDeclared = (id: number, type: SqlType, iceberg: IcebergType): void => {
      delete props[columnTypeProperty(id)];
      const back = toSqlType(iceberg);
      if (back.oid !== type.oid || back.typmod !== type.typmod) props[columnTypeProperty(id)] = `${type.oid}:${type.typmod}:${JSON.stringify(icebergTypeJson(iceberg))}`;
    };
    let changed = false;
    for (const c of changes) {
      if (c.kind === 'add') {
        if (find(c.name) !== undefined) {
          if (c.ifNotExists) { notices.push(`column "${c.name}" of relation "${table}" already exists, skipping`); continue; }
          throw pgError(SqlState.duplicate_column, `column "${c.name}" of relation "${table}" already exists`);
        }
        // Iceberg v2 has no initial-default: existing rows would read NULL, not the default
        if (!empty && c.defaultExpr !== undefined) {
          throw pgError(SqlState.feature_not_supported, `adding a column with a DEFAULT to a non-empty Iceberg table is not supported`, {
            detail: 'Iceberg format version 2 has no initial default, so existing rows would read NULL.',
            hint: 'Add the column without a DEFAULT.',
          });
        }
        if (!empty && c.notNull) {
          throw pgError(SqlState.not_null_violation, `column "${c.name}" of relation "${table}" contains null values`, { table, column: c.name });
        }
        const id = ++lastId;
        const type = c.icebergType === undefined ? icebergColumnTypeOf(c.type, () => ++lastId) : assignFreshIds(c.icebergType, () => ++lastId);
        checkV3Types([{ name: c.name, type, required: c.notNull }], Number(doc['format-version'] ?? 1)); // variant, geometry, … need v3
        fields.push({ id, name: c.name, required: c.notNull, type: icebergTypeJson(type) });
        setDeclared(id, c.type, type);
        if (c.defaultExpr !== undefined) props[columnDefaultProperty(id)] = c.defaultExpr;
      } else if (c.kind === 'drop') {
        const f = find(c.name);
        if (f === undefined) {
          if (c.ifExists) { notices.push(`column "${c.name}" of relation "${table}" does not exist, skipping`); continue; }
          throw missing(c.name);
        }
        const id = Number(f['id']);
        const spec = ((doc['partition-specs'] as Doc[] | undefined) ?? []).find((s) => Number(s['spec-id']) === Number(doc['default-spec-id'] ?? 0));
        const sources = ((spec?.['fields'] as Doc[] | undefined) ?? []).flatMap((pf) => [pf['source-id'], ...((pf['source-ids'] as unknown[] | undefined) ?? [])]).map(Number);
        if (sources.includes(id)) {
          throw pgError('42P16', `cannot drop column "${c.name}" because it is part of the partition key of relation "${table}"`);
        }
        if (identifiers.includes(id)) {
          if (!c.cascade) {
            throw pgError(SqlState.dependent_objects_still_exist, `cannot drop column ${c.name} of table ${table} because other objects depend on it`, {
              detail: `constraint ${props['lakegate.primary-key-name'] ?? `${table}_pkey`} on table ${table} depends on column ${c.name}`,
              hint: 'Use DROP ... CASCADE to drop the dependent objects too.',
            });
          }
          identifiers = [];
        }
        fields = fields.filter((x) => x !== f);
        delete props[columnTypeProperty(id)];
        delete props[columnDefaultProperty(id)];
      } else if (c.kind === 'rename') {
        const f = find(c.from);
        if (f === undefined) throw pgError(SqlState.undefined_column, `column "${c.from}" does not exist`);
        if (find(c.to) !== undefined) throw pgError(SqlState.duplicate_column, `column "${c.to}" of relation "${table}" already exists`);
        fields = fields.map((x) => (x === f ? { ...x, name: c.to } : x));
        renameInProperty(props, 'lakegate.indexes', c.from, c.to);
        renameInProperty(props, 'lakegate.foreign-keys', c.from, c.to);
      } else if (c.kind === 'type') {
        const f = find(c.name);
        if (f === undefined) throw missing(c.name);
        const id = Number(f['id']);
        let nextId = lastId;
        const target = icebergColumnTypeOf(c.type, () => ++nextId);
        const old = parseType(f['type']);
        const targetJson = target.kind === 'list' && old.kind === 'list' ? icebergTypeJson({ ...target, elementId: old.elementId }) : icebergTypeJson(target);
        if (!promotionAllowed(f['type'], targetJson)) {
          throw pgError(SqlState.feature_not_supported, `cannot change column "${c.name}" of Iceberg table "${table}" from ${typeToString(old)} to ${typeToString(target)}`, {
            detail: 'Iceberg allows only int to long, float to double and decimal(P,S) to decimal(P\',S) with a larger P; PostgreSQL would rewrite the table.',
          });
        }
        // the same Iceberg type read back as another PostgreSQL type (varchar(5) → text) only when it cannot fail
        const declared = props[columnTypeProperty(id)];
        // money is stored as long cents: read as bigint they would change value, and PostgreSQL has no such cast
        const declaredOid = declared === undefined ? undefined : Number(declared.split(':')[0]);
        if ((declaredOid === Oid.money || declaredOid === Oid._money) && c.type.oid !== declaredOid) {
          const typeText = formatType(c.type.oid, c.type.typmod);
          throw pgError(SqlState.datatype_mismatch, `column "${c.name}" cannot be cast automatically to type ${typeText}`, { hint: `You might need to specify "USING ${c.name}::${typeText}".` });
        }
        if (JSON.stringify(f['type']) === JSON.stringify(targetJson)) {
          const natural = toSqlType(target);
          const [oid, typmod] = declared === undefined ? [natural.oid, natural.typmod] : declared.split(':').map(Number);
          // to the type the field reads back as, to an unbounded varchar, or to a longer length of the same type
          const declaredMod = typmod ?? -1;
          // bit(n) values all have n bits: another length fails as PostgreSQL's length coercion would on every row
          // (an empty table may change it); bit(n) → bit varying(m ≥ n) keeps every value
          const bitLength = oid === Oid.bit && c.type.oid === Oid.bit && c.type.typmod !== declaredMod;
          if (bitLength && !empty && declaredMod > 0) {
            throw pgError(SqlState.string_data_length_mismatch, `bit string length ${declaredMod} does not match type bit(${c.type.typmod})`);
          }
          const bitToVarbit = oid === Oid.bit && c.type.oid === Oid.varbit && (c.type.typmod === -1 || c.type.typmod >= declaredMod);
          const widening = (c.type.oid === natural.oid && c.type.typmod === natural.typmod) || (c.type.oid === Oid.varchar && c.type.typmod === -1 && natural.oid === Oid.text)
            || bitLength || bitToVarbit
            || (declared !== undefined && c.type.oid === oid && (c.type.typmod === declaredMod || (oid !== Oid.bit && (c.type.typmod === -1 || c.type.typmod >= declaredMod))));
          if (!widening) {
            throw pgError(SqlState.feature_not_supported, `cannot change column "${c.name}" of Iceberg table "${table}" to ${formatType(c.type.oid, c.type.typmod)}`, {
              detail: 'Only widening type changes are supported on Iceberg tables; PostgreSQL would rewrite the table.',
            });
          }
        }
        fields = fields.map((x) => (x === f ? { ...x, type: targetJson } : x));
        setDeclared(id, c.type, parseType(targetJson));
      } else if (c.kind === 'identifier-fields') {
        const keyFields = c.names.map((n) => find(n) ?? (() => { throw missing(n); })());
        // identifier fields must be required; an optional field becomes required only while no data file exists
        const optional = keyFields.find((f) => f['required'] !== true);
        if (optional !== undefined && !empty) {
          throw pgError(SqlState.feature_not_supported, `cannot add a primary key over the nullable column "${String(optional['name'])}" of a non-empty Iceberg table`, {
            detail: 'Iceberg identifier fields must be required, and an optional field cannot become required once data files exist.',
          });
        }
        fields = fields.map((x) => (keyFields.includes(x) ? { ...x, required: true } : x));
        identifiers = keyFields.map((f) => Number(f['id']));
      } else {
        const f = find(c.name);
        if (f === undefined) throw missing(c.name);
        if (c.notNull && f['required'] !== true && !empty) {
          throw pgError(SqlState.feature_not_supported, `ALTER COLUMN … SET NOT NULL is not supported on a non-empty Iceberg table`, {
            detail: 'Iceberg cannot make an optional field required once data files exist.',
          });
        }
        if (!c.notNull && identifiers.includes(Number(f['id']))) throw pgError('42P16', `column "${c.name}" is in a primary key`);
        fields = fields.map((x) => (x === f ? { ...x, required: c.notNull } : x));
      }
      changed = true;
    }
    if (!changed) return doc;
    const schemaId = Math.max(...schemas.map((s) => Number(s['schema-id']))) + 1;
    const { 'identifier-field-ids': _ids, ...rest } = current;
    const schema = { ...rest, 'schema-id': schemaId, fields, ...(identifiers.length === 0 ? {} : { 'identifier-field-ids': identifiers }) };
    return { ...doc, schemas: [...schemas, schema], 'current-schema-id': schemaId, 'last-column-id': lastId, properties: props };
  };
}
