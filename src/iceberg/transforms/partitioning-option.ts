/**
 * The `partitioning` table option, in Trino's spelling: a list of `column`, `year(c)`, `month(c)`, `day(c)`,
 * `hour(c)`, `bucket(N, c)`, `truncate(W, c)`, `void(c)` → partition spec fields (field ids from 1000) named
 * as Iceberg Java / Trino name them: `c`, `c_year`, `c_month`, `c_day`, `c_hour`, `c_bucket`, `c_trunc`,
 * `c_null`. Column names match case-insensitively unless double-quoted. The option value reaches us as a
 * JSON array (sql/parser/with-array-options.ts rewrites `ARRAY[...]`) or as one comma-separated string.
 */
import { pgError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import type { IcebergType } from '../spec/schema.ts';
import { partitionTransform } from './partition-transform.ts';

export interface PartitionFieldJson {
  readonly 'source-id': number;
  readonly 'field-id': number;
  readonly name: string;
  readonly transform: string;
}

interface SourceField { readonly id: number; readonly name: string; readonly type: IcebergType }

/** splits the option text: a JSON array of strings, or comma-separated items outside parentheses */
export function partitioningItems(value: string): string[] {
  const t = value.trim();
  if (t.startsWith('[')) {
    const parsed: unknown = JSON.parse(t);
    if (Array.isArray(parsed) && parsed.every((x) => typeof x === 'string')) return parsed;
  }
  const items: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of t) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) { items.push(cur.trim()); cur = ''; } else cur += ch;
  }
  if (cur.trim() !== '') items.push(cur.trim());
  return items;
}

const ITEM = /^\s*(?:(\w+)\s*\(\s*(?:(\d+)\s*,\s*)?("(?:[^"]|"")+"|[\w$]+)\s*\)|("(?:[^"]|"")+"|[\w$]+))\s*$/;
const SUFFIX: Readonly<Record<string, string>> = { year: 'year', month: 'month', day: 'day', hour: 'hour', bucket: 'bucket', truncate: 'trunc', void: 'null' };

export function partitionFieldsFromOption(items: readonly string[], fields: readonly SourceField[]): PartitionFieldJson[] {
  const out: PartitionFieldJson[] = [];
  for (const item of items) {
    const m = ITEM.exec(item);
    if (m === null) throw pgError(SqlState.invalid_parameter_value, `Unable to parse partitioning value: ${item}`);
    const fn = m[1]?.toLowerCase();
    const col = (m[3] ?? m[4])!;
    const quoted = col.startsWith('"');
    const colName = quoted ? col.slice(1, -1).replace(/""/g, '"') : col;
    const src = fields.find((f) => (quoted ? f.name === colName : f.name.toLowerCase() === colName.toLowerCase()));
    if (src === undefined) throw pgError(SqlState.undefined_column, `column "${colName}" named in partitioning does not exist`);
    let transform: string;
    let name: string;
    if (fn === undefined) {
      transform = 'identity';
      name = src.name;
    } else {
      const suffix = SUFFIX[fn];
      if (suffix === undefined) throw pgError(SqlState.invalid_parameter_value, `Unsupported partition transform: ${item}`);
      const needsParam = fn === 'bucket' || fn === 'truncate';
      if (needsParam !== (m[2] !== undefined)) throw pgError(SqlState.invalid_parameter_value, `Unable to parse partitioning value: ${item}`);
      transform = needsParam ? `${fn}[${m[2]}]` : fn;
      name = `${src.name}_${suffix}`;
    }
    partitionTransform(transform, src.type); // validates the source type
    if (out.some((f) => f.name === name)) throw pgError(SqlState.invalid_parameter_value, `Cannot use partition name more than once: ${name}`);
    if (transform !== 'identity' && fields.some((f) => f.name === name)) throw pgError(SqlState.invalid_parameter_value, `Cannot create partition from name that exists in schema: ${name}`);
    out.push({ 'source-id': src.id, 'field-id': 1000 + out.length, name, transform });
  }
  return out;
}
