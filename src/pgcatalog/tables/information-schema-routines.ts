/**
 * information_schema.routines / parameters (registry functions, not aggregates, as PostgreSQL lists prokind
 * 'f' and 'p') and element_types (the element type of each array column).
 * @see https://www.postgresql.org/docs/15/infoschema-routines.html
 */
import type { CatalogSnapshot } from '../catalog-snapshot.ts';
import { declaredReturnType, routineOid } from '../routine-oids.ts';
import type { CatalogRow } from '../system-table.ts';
import { typeFacts } from '../type-facts.ts';
import { infoSchemaTypeColumns } from './information-schema-types.ts';
import { registryRoutines } from './pg-proc.ts';

function typeColumns(oid: number): Record<string, unknown> {
  const { udt_schema, udt_name, ...rest } = infoSchemaTypeColumns(oid, -1);
  return { ...rest, udt_schema, udt_name };
}

export function* routinesRows(snap: CatalogSnapshot): Iterable<CatalogRow> {
  const db = snap.catalog.database;
  const seen = new Set<number>();
  for (const def of registryRoutines(snap)) {
    const oid = routineOid(def, snap.functions);
    if (def.kind === 'aggregate' || seen.has(oid)) continue;
    seen.add(oid);
    const { udt_schema, udt_name, ...types } = infoSchemaTypeColumns(declaredReturnType(def.returns, def.args), -1);
    yield {
      specific_catalog: db, specific_schema: 'pg_catalog', specific_name: `${def.name}_${oid}`, routine_catalog: db,
      routine_schema: 'pg_catalog', routine_name: def.name, routine_type: 'FUNCTION', ...types,
      type_udt_catalog: db, type_udt_schema: udt_schema, type_udt_name: udt_name, dtd_identifier: '0',
      routine_body: 'EXTERNAL', routine_definition: def.name, external_name: null, external_language: 'INTERNAL',
      parameter_style: 'GENERAL', is_deterministic: def.volatility === 'i' || def.volatility === undefined ? 'YES' : 'NO',
      sql_data_access: 'MODIFIES', is_null_call: def.strict === false ? 'NO' : 'YES', schema_level_routine: 'YES',
      max_dynamic_result_sets: 0, is_user_defined_cast: 'NO', is_implicitly_invocable: 'NO', security_type: 'INVOKER',
      as_locator: 'NO', is_udt_dependent: 'NO', result_cast_as_locator: 'NO',
    };
  }
}

export function* parametersRows(snap: CatalogSnapshot): Iterable<CatalogRow> {
  const db = snap.catalog.database;
  const seen = new Set<number>();
  for (const def of registryRoutines(snap)) {
    const oid = routineOid(def, snap.functions);
    if (def.kind === 'aggregate' || seen.has(oid)) continue;
    seen.add(oid);
    for (let i = 0; i < def.args.length; i++) {
      yield {
        specific_catalog: db, specific_schema: 'pg_catalog', specific_name: `${def.name}_${oid}`, ordinal_position: i + 1,
        parameter_mode: 'IN', is_result: 'NO', as_locator: 'NO', parameter_name: null, ...typeColumns(def.args[i]!),
        udt_catalog: db, dtd_identifier: String(i + 1), parameter_default: null,
      };
    }
  }
}

export function* elementTypesRows(snap: CatalogSnapshot): Iterable<CatalogRow> {
  const db = snap.catalog.database;
  for (const rel of snap.relations) {
    const cols = snap.columnsOf(rel);
    for (let i = 0; i < cols.length; i++) {
      const t = typeFacts(cols[i]!.type.oid);
      if (!t.isArray) continue;
      yield {
        object_catalog: db, object_schema: rel.schema, object_name: rel.name, object_type: 'TABLE',
        collection_type_identifier: String(i + 1), ...typeColumns(t.typelem), udt_catalog: db, dtd_identifier: 'a',
      };
    }
  }
}
