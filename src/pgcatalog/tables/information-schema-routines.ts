/**
 * information_schema.routines / parameters (the registry's functions and aggregates, from their pg_proc rows — names,
 * modes and defaults of the arguments, language, volatility — as PostgreSQL 15's views derive them) and element_types
 * (the element type of each array column).
 * @see https://www.postgresql.org/docs/15/infoschema-routines.html
 */
import type { CatalogSnapshot } from '../catalog-snapshot.ts';
import { procSignature, type ProcSignature } from '../function-signatures.ts';
import { routineOid } from '../routine-oids.ts';
import type { CatalogRow } from '../system-table.ts';
import { typeFacts } from '../type-facts.ts';
import { infoSchemaTypeColumns } from './information-schema-types.ts';
import { registryRoutines } from './pg-proc.ts';

function typeColumns(oid: number): Record<string, unknown> {
  const { udt_schema, udt_name, ...rest } = infoSchemaTypeColumns(oid, -1);
  return { ...rest, udt_schema, udt_name };
}

/** the pg_proc rows of the registry's routines, one per OID */
function* registrySignatures(snap: CatalogSnapshot): Iterable<ProcSignature> {
  const seen = new Set<number>();
  for (const def of registryRoutines(snap)) {
    const oid = routineOid(def, snap.functions);
    if (seen.has(oid)) continue;
    seen.add(oid);
    const sig = procSignature(snap, oid);
    if (sig !== undefined) yield sig;
  }
}

/** aggregates and window functions have none, as in PostgreSQL's view */
const ROUTINE_TYPES: Readonly<Record<string, string>> = { f: 'FUNCTION', p: 'PROCEDURE' };
const LANGUAGE_NAMES: Readonly<Record<number, string>> = { 12: 'internal', 13: 'c', 14: 'sql', 13563: 'plpgsql' };

export function* routinesRows(snap: CatalogSnapshot): Iterable<CatalogRow> {
  const db = snap.catalog.database;
  for (const sig of registrySignatures(snap)) {
    const r = sig.row;
    const oid = r['oid'] as number;
    const lang = LANGUAGE_NAMES[r['prolang'] as number] ?? 'internal';
    const { udt_schema, udt_name, ...types } = infoSchemaTypeColumns(r['prorettype'] as number, -1);
    yield {
      specific_catalog: db, specific_schema: 'pg_catalog', specific_name: `${sig.name}_${oid}`, routine_catalog: db,
      routine_schema: 'pg_catalog', routine_name: sig.name, routine_type: ROUTINE_TYPES[r['prokind'] as string] ?? null, ...types,
      type_udt_catalog: db, type_udt_schema: udt_schema, type_udt_name: udt_name, dtd_identifier: '0',
      routine_body: lang === 'sql' ? 'SQL' : 'EXTERNAL', routine_definition: r['prosrc'], external_name: lang === 'c' ? r['prosrc'] : null,
      external_language: lang.toUpperCase(), parameter_style: 'GENERAL', is_deterministic: r['provolatile'] === 'i' ? 'YES' : 'NO',
      sql_data_access: 'MODIFIES', is_null_call: r['proisstrict'] === true ? 'YES' : 'NO', schema_level_routine: 'YES',
      max_dynamic_result_sets: 0, is_user_defined_cast: 'NO', is_implicitly_invocable: 'NO', security_type: r['prosecdef'] === true ? 'DEFINER' : 'INVOKER',
      as_locator: 'NO', is_udt_dependent: 'NO', result_cast_as_locator: 'NO',
    };
  }
}

const PARAMETER_MODES: Readonly<Record<string, string>> = { i: 'IN', o: 'OUT', b: 'INOUT', v: 'IN', t: 'OUT' };

export function* parametersRows(snap: CatalogSnapshot): Iterable<CatalogRow> {
  const db = snap.catalog.database;
  for (const sig of registrySignatures(snap)) {
    const specificName = `${sig.name}_${sig.row['oid'] as number}`;
    const lackDefaults = sig.inputCount - sig.defaults.length;
    let inputNo = 0;
    for (let i = 0; i < sig.argTypes.length; i++) {
      const mode = sig.modes?.[i] ?? 'i';
      if (mode === 'i' || mode === 'b' || mode === 'v') inputNo++;
      const isDefaulted = mode !== 'o' && mode !== 't' && inputNo > lackDefaults;
      yield {
        specific_catalog: db, specific_schema: 'pg_catalog', specific_name: specificName, ordinal_position: i + 1,
        parameter_mode: PARAMETER_MODES[mode] ?? 'IN', is_result: 'NO', as_locator: 'NO', parameter_name: sig.names?.[i] || null,
        ...typeColumns(sig.argTypes[i]!), udt_catalog: db, dtd_identifier: String(i + 1),
        parameter_default: isDefaulted ? sig.defaults[inputNo - lackDefaults - 1] ?? null : null,
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
