/**
 * Partition evolution (§ Partition Evolution), as Iceberg Java's UpdatePartitionSpec does it for v2: the
 * new partitioning (the `partitioning` option's items, or none) becomes the table's default spec, a
 * metadata-only change; existing data files keep the spec they were written with, new writes use the new
 * one, and reads plan each file with its own spec.
 *   - field ids: a field equal to one of any earlier spec (same source and transform) gets that field's id
 *     and name back; other fields get ids after `last-partition-id`, which grows;
 *   - a spec equal to an existing one (same fields, ids and names) becomes the default again without a
 *     new spec; otherwise the new spec gets the next spec id;
 *   - no partitioning: in v2 an empty spec (fields removed); in v1, where specs may not drop fields, every
 *     field of the current spec turns into a `void` transform with its id and name.
 */
import { pgError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import { parseSchema } from '../spec/schema.ts';
import { partitionFieldsFromOption, type PartitionFieldJson } from '../transforms/partitioning-option.ts';

type Doc = Record<string, unknown>;

interface FieldJson { 'source-id': number; 'field-id': number; name: string; transform: string }

const fieldOf = (f: Doc): FieldJson => ({ 'source-id': Number(f['source-id']), 'field-id': Number(f['field-id']), name: String(f['name']), transform: String(f['transform']) });
const sameFields = (a: readonly FieldJson[], b: readonly FieldJson[]): boolean =>
  a.length === b.length && a.every((f, i) => {
    const g = b[i]!;
    return f['source-id'] === g['source-id'] && f['field-id'] === g['field-id'] && f.name === g.name && f.transform === g.transform;
  });

/** a metadata change making `items` (partitioning option items; [] = unpartitioned) the default spec */
export function setPartitioning(items: readonly string[]): (doc: Doc) => Doc {
  return (doc) => {
    const schemas = (doc['schemas'] as Doc[] | undefined) ?? [];
    const current = schemas.find((s) => Number(s['schema-id']) === Number(doc['current-schema-id']));
    if (current === undefined) throw pgError('XX000', 'Iceberg table metadata has no current schema');
    const schema = parseSchema(current);
    const specs = ((doc['partition-specs'] as Doc[] | undefined) ?? []).map((s) => ({ id: Number(s['spec-id']), fields: ((s['fields'] as Doc[] | undefined) ?? []).map(fieldOf) }));
    const defaultId = Number(doc['default-spec-id'] ?? 0);
    const formatVersion = Number(doc['format-version'] ?? 1);
    let lastId = Number(doc['last-partition-id'] ?? 999);
    let fields: FieldJson[];
    if (items.length === 0 && formatVersion === 1) {
      fields = (specs.find((s) => s.id === defaultId)?.fields ?? []).map((f) => ({ ...f, transform: 'void' }));
    } else {
      const wanted: PartitionFieldJson[] = partitionFieldsFromOption(items, schema.fields);
      const history = specs.flatMap((s) => s.fields);
      fields = wanted.map((w) => {
        const old = history.find((h) => h['source-id'] === w['source-id'] && h.transform === w.transform);
        return old !== undefined ? { ...old } : { 'source-id': w['source-id'], 'field-id': ++lastId, name: w.name, transform: w.transform };
      });
      const names = new Set<string>();
      for (const f of fields) {
        if (names.has(f.name)) throw pgError(SqlState.invalid_parameter_value, `Cannot use partition name more than once: ${f.name}`);
        names.add(f.name);
      }
    }
    const same = specs.find((s) => sameFields(s.fields, fields));
    if (same !== undefined) return { ...doc, 'default-spec-id': same.id };
    const specId = Math.max(-1, ...specs.map((s) => s.id)) + 1;
    return {
      ...doc,
      'partition-specs': [...((doc['partition-specs'] as Doc[] | undefined) ?? []), { 'spec-id': specId, fields }],
      'default-spec-id': specId,
      'last-partition-id': Math.max(lastId, Number(doc['last-partition-id'] ?? 999)),
    };
  };
}
