/**
 * Iceberg schemas (§ Schemas and Data Types, § Appendix C JSON serialization): nested struct/list/map
 * types with field ids. Primitive type strings stay as the spec writes them (`decimal(10, 2)`, `fixed[16]`).
 */
import { pgError } from '../../common/errors.ts';

export interface PrimitiveType {
  readonly kind: 'primitive';
  /** boolean int long float double decimal date time timestamp timestamptz timestamp_ns timestamptz_ns
   *  string uuid fixed binary variant geometry geography unknown */
  readonly name: string;
  readonly precision?: number;
  readonly scale?: number;
  readonly length?: number;
  /** geometry(C) / geography(C, A): the parameters as written between the parentheses, kept for round trips */
  readonly params?: string;
}
export interface NestedField {
  readonly id: number;
  readonly name: string;
  readonly required: boolean;
  readonly type: IcebergType;
  readonly doc?: string;
  /** v3 defaults, in the JSON single-value form */
  readonly initialDefault?: unknown;
  readonly writeDefault?: unknown;
}
export interface StructType { readonly kind: 'struct'; readonly fields: readonly NestedField[] }
export interface ListType {
  readonly kind: 'list';
  readonly elementId: number;
  readonly elementRequired: boolean;
  readonly element: IcebergType;
}
export interface MapType {
  readonly kind: 'map';
  readonly keyId: number;
  readonly key: IcebergType;
  readonly valueId: number;
  readonly valueRequired: boolean;
  readonly value: IcebergType;
}
export type IcebergType = PrimitiveType | StructType | ListType | MapType;

export interface Schema extends StructType {
  readonly schemaId: number;
  readonly identifierFieldIds: readonly number[];
}

const DECIMAL = /^decimal\s*\(\s*(\d+)\s*,\s*(\d+)\s*\)$/;
const FIXED = /^fixed\s*\[\s*(\d+)\s*\]$/;
const PRIMITIVES = new Set([
  'boolean', 'int', 'long', 'float', 'double', 'date', 'time', 'timestamp', 'timestamptz', 'timestamp_ns',
  'timestamptz_ns', 'string', 'uuid', 'binary', 'variant', 'geometry', 'geography', 'unknown',
]);

export function parsePrimitive(text: string): PrimitiveType {
  const t = text.trim();
  const d = DECIMAL.exec(t);
  if (d) return { kind: 'primitive', name: 'decimal', precision: Number(d[1]), scale: Number(d[2]) };
  const f = FIXED.exec(t);
  if (f) return { kind: 'primitive', name: 'fixed', length: Number(f[1]) };
  // geometry(crs) / geography(crs, algo): parameters kept verbatim (reading does not need them)
  const g = /^(geometry|geography)\s*\((.*)\)$/s.exec(t);
  if (g) return { kind: 'primitive', name: g[1]!, params: g[2]!.trim() };
  if (PRIMITIVES.has(t)) return { kind: 'primitive', name: t };
  throw pgError('0A000', `Iceberg type "${t}" is not supported`);
}

type Json = Record<string, unknown>;

export function parseType(json: unknown): IcebergType {
  if (typeof json === 'string') return parsePrimitive(json);
  const o = json as Json;
  switch (o['type']) {
    case 'struct':
      return { kind: 'struct', fields: ((o['fields'] as unknown[]) ?? []).map(parseField) };
    case 'list':
      return {
        kind: 'list',
        elementId: Number(o['element-id']),
        elementRequired: o['element-required'] === true,
        element: parseType(o['element']),
      };
    case 'map':
      return {
        kind: 'map',
        keyId: Number(o['key-id']),
        key: parseType(o['key']),
        valueId: Number(o['value-id']),
        valueRequired: o['value-required'] === true,
        value: parseType(o['value']),
      };
    default:
      throw pgError('XX000', `invalid Iceberg type JSON: ${JSON.stringify(json, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v))}`);
  }
}

function parseField(json: unknown): NestedField {
  const o = json as Json;
  const f: { -readonly [K in keyof NestedField]: NestedField[K] } = {
    id: Number(o['id']),
    name: String(o['name']),
    required: o['required'] === true,
    type: parseType(o['type']),
  };
  if (typeof o['doc'] === 'string') f.doc = o['doc'];
  if ('initial-default' in o) f.initialDefault = o['initial-default'];
  if ('write-default' in o) f.writeDefault = o['write-default'];
  return f;
}

export function parseSchema(json: unknown): Schema {
  const o = json as Json;
  const struct = parseType({ ...o, type: 'struct' }) as StructType;
  return {
    ...struct,
    schemaId: o['schema-id'] === undefined ? 0 : Number(o['schema-id']),
    identifierFieldIds: ((o['identifier-field-ids'] as unknown[]) ?? []).map(Number),
  };
}

/** Every field in the schema by id, nested ones included (list elements and map keys/values as pseudo-fields). */
export function indexById(type: StructType): Map<number, NestedField> {
  const out = new Map<number, NestedField>();
  const visit = (t: IcebergType): void => {
    if (t.kind === 'struct') for (const f of t.fields) { out.set(f.id, f); visit(f.type); }
    else if (t.kind === 'list') {
      out.set(t.elementId, { id: t.elementId, name: 'element', required: t.elementRequired, type: t.element });
      visit(t.element);
    } else if (t.kind === 'map') {
      out.set(t.keyId, { id: t.keyId, name: 'key', required: true, type: t.key });
      out.set(t.valueId, { id: t.valueId, name: 'value', required: t.valueRequired, type: t.value });
      visit(t.key);
      visit(t.value);
    }
  };
  visit(type);
  return out;
}

export function typeToString(t: IcebergType): string {
  if (t.kind === 'primitive') {
    if (t.name === 'decimal') return `decimal(${t.precision}, ${t.scale})`;
    if (t.name === 'fixed') return `fixed[${t.length}]`;
    if (t.params !== undefined) return `${t.name}(${t.params})`;
    return t.name;
  }
  if (t.kind === 'list') return `list<${typeToString(t.element)}>`;
  if (t.kind === 'map') return `map<${typeToString(t.key)}, ${typeToString(t.value)}>`;
  return `struct<${t.fields.map((f) => `${f.name}: ${typeToString(f.type)}`).join(', ')}>`;
}
