/**
 * The remaining catalog functions psql 15's describe.c, pgJDBC and Metabase call: getdatabaseencoding,
 * oidvectortypes, pg_describe_object, information_schema._pg_expandarray, pg_options_to_table,
 * pg_relation_is_publishable, pg_tablespace_size and the pg_*_is_visible family for object kinds lakegate lacks.
 * @see https://github.com/postgres/postgres/blob/REL_15_STABLE/src/bin/psql/describe.c
 */
import { Oid, elementTypeOf, formatType, sqlType, type PgArray } from '../../common/pgtypes/index.ts';
import type { EvalContext, RoutineDef } from '../../functions/registry-types.ts';
import { quoteIdent } from '../catalog-snapshot.ts';
import { snapshotFor } from '../eval-snapshot.ts';
import { procSignature } from '../function-signatures.ts';
import { regOut } from '../reg-names.ts';
import { constraintIndexes, relationIndexes } from '../tables/relation-indexes.ts';
import { ClassOid, PLPGSQL_LANGUAGE_OID } from '../well-known-oids.ts';
import { scalar, setReturning } from './define.ts';

const RELKIND_NAMES: Record<string, string> = { r: 'table', v: 'view', m: 'materialized view', f: 'foreign table', p: 'table', i: 'index', S: 'sequence' };

/** pg_describe_object(classid, objid, objsubid) for the object kinds lakegate has. */
function describeObject(ctx: EvalContext, classid: number, objid: number, subid: number): string | null {
  const snap = snapshotFor(ctx);
  switch (classid) {
    case ClassOid.pg_class: {
      const rel = snap.relationByOid(objid);
      if (rel === undefined) {
        const pk = relationIndexes(snap).find((p) => p.oid === objid);
        return pk === undefined ? null : `index ${snap.isSchemaOnPath(pk.rel.schemaOid) ? quoteIdent(pk.name) : `${quoteIdent(pk.rel.schema)}.${quoteIdent(pk.name)}`}`;
      }
      const name = regOut(Oid.regclass, objid, snap);
      const col = subid > 0 ? snap.columnsOf(rel)[subid - 1]?.name : undefined;
      return col === undefined ? `${RELKIND_NAMES[rel.kind] ?? 'relation'} ${name}` : `column ${quoteIdent(col)} of ${RELKIND_NAMES[rel.kind] ?? 'relation'} ${name}`;
    }
    case ClassOid.pg_constraint: {
      const pk = constraintIndexes(snap).find((p) => p.constraintOid === objid);
      return pk === undefined ? null : `constraint ${quoteIdent(pk.name)} on table ${regOut(Oid.regclass, pk.rel.oid, snap)}`;
    }
    case ClassOid.pg_namespace: {
      const s = snap.schemaByOid(objid);
      return s === undefined ? null : `schema ${quoteIdent(s.name)}`;
    }
    case ClassOid.pg_type:
      return `type ${regOut(Oid.regtype, objid, snap)}`;
    case ClassOid.pg_proc:
      return `function ${regOut(Oid.regprocedure, objid, snap)}`;
    case ClassOid.pg_language:
      return objid === PLPGSQL_LANGUAGE_OID ? 'language plpgsql' : null;
    default:
      return null;
  }
}

const INVISIBLE_KINDS = ['pg_opfamily_is_visible', 'pg_statistics_obj_is_visible', 'pg_ts_config_is_visible', 'pg_ts_dict_is_visible', 'pg_ts_parser_is_visible', 'pg_ts_template_is_visible'];

export const psqlSupportFunctions: readonly RoutineDef[] = [
  scalar('getdatabaseencoding', [], Oid.name, () => 'UTF8'),
  scalar('oidvectortypes', [Oid.oidvector], Oid.text, ([v]) => (v as PgArray).values.map((o) => formatType(o as number)).join(', ')),
  scalar('pg_describe_object', [Oid.oid, Oid.oid, Oid.int4], Oid.text, ([c, o, s], ctx) => describeObject(ctx, c as number, o as number, s as number)),
  scalar('pg_get_partition_constraintdef', [Oid.oid], Oid.text, () => null),
  // a SQL-standard body (BEGIN ATOMIC … END) of a built-in; lakegate's own functions have none
  scalar('pg_get_function_sqlbody', [Oid.oid], Oid.text, ([oid], ctx) => {
    const body = procSignature(snapshotFor(ctx), oid as number)?.row['prosqlbody'];
    return typeof body === 'string' ? body : null;
  }),
  ...INVISIBLE_KINDS.map((name) => scalar(name, [Oid.oid], Oid.bool, () => true)),
  scalar('pg_tablespace_size', [Oid.oid], Oid.int8, () => 0n, { volatility: 'v' }),
  scalar('pg_tablespace_size', [Oid.name], Oid.int8, () => 0n, { volatility: 'v' }),
  scalar('pg_relation_is_publishable', [Oid.regclass], Oid.bool, ([oid], ctx) => {
    const rel = snapshotFor(ctx).relationByOid(oid as number);
    return rel === undefined ? null : (rel.kind === 'r' || rel.kind === 'p') && rel.persistence === 'p' && rel.schemaOid !== 11 && rel.schemaOid !== 13207;
  }),
  scalar('current_query', [], Oid.text, (_a, ctx) => ctx.session.sessions().find((s) => s.pid === ctx.session.backendPid)?.query ?? null, { volatility: 'v' }),
  setReturning('pg_options_to_table', [Oid._text], Oid.record,
    ([opts]) => (opts as PgArray).values.map((o) => {
      const s = String(o);
      const eq = s.indexOf('=');
      return eq < 0 ? [s, null] : [s.slice(0, eq), s.slice(eq + 1)];
    }),
    () => [{ name: 'option_name', type: sqlType(Oid.text) }, { name: 'option_value', type: sqlType(Oid.text) }],
    { volatility: 's' }),
  // lakegate has no table partitioning: no relation has ancestors or a partition tree (PostgreSQL returns no rows for those)
  setReturning('pg_partition_ancestors', [Oid.regclass], Oid.regclass, () => [],
    () => [{ name: 'relid', type: sqlType(Oid.regclass) }]),
  setReturning('pg_partition_tree', [Oid.regclass], Oid.record, () => [],
    () => [
      { name: 'relid', type: sqlType(Oid.regclass) }, { name: 'parentrelid', type: sqlType(Oid.regclass) },
      { name: 'isleaf', type: sqlType(Oid.bool) }, { name: 'level', type: sqlType(Oid.int4) },
    ]),
  // information_schema._pg_expandarray: the array's elements with their 1-based position (pgJDBC getPrimaryKeys)
  setReturning('_pg_expandarray', [Oid.anyarray], Oid.record,
    ([arr]) => (arr as PgArray).values.map((x, i) => [x, i + 1]),
    (argTypes) => [{ name: 'x', type: sqlType(elementTypeOf(argTypes[0]?.oid ?? 0) || Oid.anyelement) }, { name: 'n', type: sqlType(Oid.int4) }],
    { volatility: 'i' }),
  // the same for int2vector/oidvector (pg_index.indkey), which PostgreSQL matches to anyarray; not in PostgreSQL's pg_proc
  ...[Oid.int2vector, Oid.oidvector].map((vectorType) => setReturning('_pg_expandarray', [vectorType], Oid.record,
    ([arr]) => (arr as PgArray).values.map((x, i) => [x, i + 1]),
    () => [{ name: 'x', type: sqlType(vectorType === Oid.int2vector ? Oid.int2 : Oid.oid) }, { name: 'n', type: sqlType(Oid.int4) }],
    { volatility: 'i' })),
];
