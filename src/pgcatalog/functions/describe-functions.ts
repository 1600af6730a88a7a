/**
 * Catalog description functions clients call beside pg_catalog queries: format_type, pg_get_expr,
 * pg_get_userbyid, pg_*_is_visible, pg_get_indexdef/constraintdef/viewdef/triggerdef/functiondef,
 * pg_get_function_arguments/result, obj/col/shobj_description, to_reg*, pg_typeof.
 * @see https://www.postgresql.org/docs/15/functions-info.html#FUNCTIONS-INFO-CATALOG-TABLE
 */
import { GatewayError } from '../../common/errors.ts';
import { Oid, allTypes, formatType, typeInfo } from '../../common/pgtypes/index.ts';
import { SqlState } from '../../common/sqlstate.ts';
import type { EvalContext, RoutineDef } from '../../functions/registry-types.ts';
import type { CatalogSnapshot } from '../catalog-snapshot.ts';
import { quoteIdent } from '../catalog-snapshot.ts';
import { snapshotFor } from '../eval-snapshot.ts';
import { formatOtherType, otherType } from '../other-types.ts';
import { functionArguments, functionDefinition, functionResult, procSignature, type ProcSignature } from '../function-signatures.ts';
import { regclassIn, regclassOut, regnamespaceIn, regprocedureIn, regprocIn, regroleIn, regtypeIn, regtypeOut } from '../reg-names.ts';
import { findDescription, pgShdescriptionRows } from '../tables/pg-description.ts';
import { constraintIndexes, indexDefinition, primaryKeyDefinition, relationIndexes } from '../tables/relation-indexes.ts';
import { foreignKeyConstraints, foreignKeyDefinition } from '../tables/foreign-key-constraints.ts';
import { domainConstraintDefinition } from '../tables/information-schema-domains.ts';
import { viewDefinitionOf, viewDefinitionText } from '../tables/pg-views.ts';
import { ClassOid, rowTypeArrayOid } from '../well-known-oids.ts';
import { scalar } from './define.ts';

/** format_type for any OID: built-in types via the type registry, relation row types by (visible) name. */
export function formatTypeIn(snap: CatalogSnapshot, oid: number, typmod: number | null): string {
  if (typeInfo(oid) !== undefined) return formatType(oid, typmod ?? undefined);
  const other = formatOtherType(oid);
  if (other !== undefined) return other;
  const out = regtypeOut(oid, snap);
  return out === String(oid) ? '???' : out;
}

/** format_type for printing a function's arguments and result */
const typeFormatter = (snap: CatalogSnapshot) => (oid: number): string => formatTypeIn(snap, oid, null);

/** pg_get_function_arguments & co. of function `oid` (any pg_proc row), null for an unknown OID as in PostgreSQL */
function printed(ctx: EvalContext, oid: unknown, print: (sig: ProcSignature, s: CatalogSnapshot) => string | null): string | null {
  const s = snap(ctx);
  const sig = procSignature(s, oidArg(oid));
  return sig === undefined ? null : print(sig, s);
}

/** pg_get_function_arg_default: the default of argument `n` (1-based over all arguments) if it is a defaulted input */
function argDefault(sig: ProcSignature, n: number): string | null {
  const isInput = (i: number): boolean => { const m = sig.modes?.[i] ?? 'i'; return m === 'i' || m === 'b' || m === 'v'; };
  if (n < 1 || n > sig.argTypes.length || !isInput(n - 1)) return null;
  let inputNo = 0;
  for (let i = 0; i < n; i++) if (isInput(i)) inputNo++;
  return sig.defaults[inputNo - 1 - (sig.inputCount - sig.defaults.length)] ?? null;
}

/**
 * pg_get_viewdef: `pretty` as PostgreSQL's flag (parentheses only where needed); with a wrap column (the int4 form)
 * PostgreSQL packs targets onto lines up to that width, which lakegate does not: the stored text's shape then.
 */
function viewDef(snap: CatalogSnapshot, oid: number, pretty: boolean | 'wrap' = false): string | null {
  const rel = snap.relationByOid(oid);
  if (rel === undefined || (rel.kind !== 'v' && rel.kind !== 'm')) return null;
  return pretty === 'wrap' ? viewDefinitionText(rel.viewDefinition) : viewDefinitionOf(rel, snap, pretty);
}

function indexDef(ctx: EvalContext, oid: number, column: number, pretty: boolean): string | null {
  const snap = snapshotFor(ctx);
  const pk = relationIndexes(snap).find((p) => p.oid === oid);
  if (pk === undefined) return null;
  if (column === 0) return indexDefinition(pk, quoteIdent, pretty ? regclassOut(pk.rel.oid, snap) : undefined);
  const attnum = pk.attnums[column - 1];
  const name = attnum === undefined ? undefined : snap.columnsOf(pk.rel)[attnum - 1]?.name;
  return name === undefined ? '' : quoteIdent(name);
}

function constraintDef(ctx: EvalContext, oid: number, pretty = false): string | null {
  const domainCheck = domainConstraintDefinition(oid, pretty);
  if (domainCheck !== undefined) return domainCheck;
  const snap = snapshotFor(ctx);
  const pk = constraintIndexes(snap).find((p) => p.constraintOid === oid);
  if (pk !== undefined) return primaryKeyDefinition(pk, quoteIdent);
  const fk = foreignKeyConstraints(snap).find((c) => c.fk.oid === oid);
  return fk === undefined ? null : foreignKeyDefinition(fk, snap, quoteIdent);
}

/** obj_description's catalog name → its pg_class OID (any pg_catalog relation) */
function classOidByName(snap: CatalogSnapshot, name: string): number | undefined {
  return (ClassOid as Record<string, number>)[name] ?? snap.findRelation('pg_catalog', name)?.oid;
}

const snap = (ctx: EvalContext): CatalogSnapshot => snapshotFor(ctx);
const oidArg = (v: unknown): number => v as number;

export const describeFunctions: readonly RoutineDef[] = [
  scalar('format_type', [Oid.oid, Oid.int4], Oid.text,
    ([oid, typmod], ctx) => (oid === null ? null : formatTypeIn(snap(ctx), oidArg(oid), typmod as number | null)), { strict: false }),
  scalar('pg_get_expr', [Oid.pg_node_tree, Oid.oid], Oid.text, ([expr]) => expr),
  scalar('pg_get_expr', [Oid.pg_node_tree, Oid.oid, Oid.bool], Oid.text, ([expr]) => expr),
  scalar('pg_get_userbyid', [Oid.oid], Oid.name, ([oid], ctx) => snap(ctx).roleName(oidArg(oid))),
  scalar('pg_table_is_visible', [Oid.oid], Oid.bool, ([oid], ctx) => {
    const s = snap(ctx);
    const rel = s.relationByOid(oidArg(oid));
    if (rel !== undefined) return s.isRelationVisible(rel);
    const pk = relationIndexes(s).find((p) => p.oid === oid);
    return pk === undefined ? null : s.isSchemaOnPath(pk.rel.schemaOid);
  }),
  scalar('pg_type_is_visible', [Oid.oid], Oid.bool, ([oid], ctx) => {
    const o = oidArg(oid);
    // built-in types and the arrays pg_type adds for them (regconfig[]) live in pg_catalog, always searched
    if (typeInfo(o) !== undefined || allTypes().some((t) => t.typarray === o)) return true;
    const other = otherType(o);
    if (other !== undefined) return other['typnamespace'] === 11;
    const s = snap(ctx);
    const rel = s.relations.find((r) => r.rowTypeOid === o || rowTypeArrayOid(r) === o);
    return rel === undefined ? null : s.isRelationVisible(rel);
  }),
  ...['pg_function_is_visible', 'pg_operator_is_visible', 'pg_opclass_is_visible', 'pg_collation_is_visible', 'pg_conversion_is_visible',
    'pg_ts_config_is_visible', 'pg_ts_dict_is_visible', 'pg_ts_parser_is_visible', 'pg_ts_template_is_visible', 'pg_opfamily_is_visible']
    .map((name) => scalar(name, [Oid.oid], Oid.bool, () => true)),
  scalar('pg_get_indexdef', [Oid.oid], Oid.text, ([oid], ctx) => indexDef(ctx, oidArg(oid), 0, false)),
  scalar('pg_get_indexdef', [Oid.oid, Oid.int4, Oid.bool], Oid.text, ([oid, col, pretty], ctx) => indexDef(ctx, oidArg(oid), col as number, pretty === true)),
  scalar('pg_get_constraintdef', [Oid.oid], Oid.text, ([oid], ctx) => constraintDef(ctx, oidArg(oid))),
  scalar('pg_get_constraintdef', [Oid.oid, Oid.bool], Oid.text, ([oid, pretty], ctx) => constraintDef(ctx, oidArg(oid), pretty === true)),
  scalar('pg_get_viewdef', [Oid.oid], Oid.text, ([oid], ctx) => viewDef(snap(ctx), oidArg(oid))),
  scalar('pg_get_viewdef', [Oid.oid, Oid.bool], Oid.text, ([oid, pretty], ctx) => viewDef(snap(ctx), oidArg(oid), pretty === true)),
  scalar('pg_get_viewdef', [Oid.oid, Oid.int4], Oid.text, ([oid], ctx) => viewDef(snap(ctx), oidArg(oid), 'wrap')),
  scalar('pg_get_viewdef', [Oid.text], Oid.text, ([name], ctx) => viewDef(snap(ctx), regclassIn(name as string, snap(ctx))!)),
  scalar('pg_get_viewdef', [Oid.text, Oid.bool], Oid.text, ([name, pretty], ctx) => viewDef(snap(ctx), regclassIn(name as string, snap(ctx))!, pretty === true)),
  scalar('pg_get_ruledef', [Oid.oid], Oid.text, () => null),
  scalar('pg_get_ruledef', [Oid.oid, Oid.bool], Oid.text, () => null),
  scalar('pg_get_triggerdef', [Oid.oid], Oid.text, () => null),
  scalar('pg_get_triggerdef', [Oid.oid, Oid.bool], Oid.text, () => null),
  scalar('pg_get_statisticsobjdef_columns', [Oid.oid], Oid.text, () => null),
  scalar('pg_get_partkeydef', [Oid.oid], Oid.text, () => null),
  scalar('pg_tablespace_location', [Oid.oid], Oid.text, () => ''),
  scalar('pg_get_functiondef', [Oid.oid], Oid.text, ([oid], ctx) => printed(ctx, oid, (sig, s) => {
    if (sig.row['prokind'] === 'a') throw new GatewayError(SqlState.wrong_object_type, `"${sig.name}" is an aggregate function`);
    return functionDefinition(sig, typeFormatter(s), (support) => quoteIdent(procSignature(s, support)?.name ?? String(support)));
  })),
  scalar('pg_get_function_arguments', [Oid.oid], Oid.text, ([oid], ctx) => printed(ctx, oid, (sig, s) => functionArguments(sig, typeFormatter(s), true).text)),
  // PostgreSQL's identity arguments are the arguments without DEFAULT clauses (OUT ones included)
  scalar('pg_get_function_identity_arguments', [Oid.oid], Oid.text, ([oid], ctx) => printed(ctx, oid, (sig, s) => functionArguments(sig, typeFormatter(s), false).text)),
  // PostgreSQL 15's OID for it (data/pg-proc-oids.ts lists only the functions pgcatalog had when it was generated)
  { ...scalar('pg_get_function_arg_default', [Oid.oid, Oid.int4], Oid.text, ([oid, n], ctx) => printed(ctx, oid, (sig) => argDefault(sig, n as number))), oid: 3808 },
  scalar('pg_get_function_result', [Oid.oid], Oid.text, ([oid], ctx) => printed(ctx, oid, (sig, s) => (sig.row['prokind'] === 'p' ? null : functionResult(sig, typeFormatter(s))))),
  scalar('obj_description', [Oid.oid, Oid.name], Oid.text, ([oid, cls], ctx) => {
    const classoid = classOidByName(snap(ctx), cls as string);
    return classoid === undefined ? null : findDescription(snap(ctx), oidArg(oid), classoid, 0);
  }),
  scalar('obj_description', [Oid.oid], Oid.text, ([oid], ctx) => findDescription(snap(ctx), oidArg(oid), undefined, 0)),
  scalar('col_description', [Oid.oid, Oid.int4], Oid.text, ([oid, n], ctx) => findDescription(snap(ctx), oidArg(oid), ClassOid.pg_class, n as number)),
  scalar('shobj_description', [Oid.oid, Oid.name], Oid.text, ([oid, cls], ctx) => {
    if (cls !== 'pg_database') return null;
    for (const row of pgShdescriptionRows(snap(ctx))) if (row['objoid'] === oid) return row['description'] as string;
    return null;
  }),
  scalar('to_regclass', [Oid.text], Oid.regclass, ([t], ctx) => regclassIn(t as string, snap(ctx), true)),
  scalar('to_regtype', [Oid.text], Oid.regtype, ([t], ctx) => regtypeIn(t as string, snap(ctx), true)),
  scalar('to_regproc', [Oid.text], Oid.regproc, ([t], ctx) => regprocIn(t as string, snap(ctx), true)),
  scalar('to_regprocedure', [Oid.text], Oid.regprocedure, ([t], ctx) => regprocedureIn(t as string, snap(ctx), true)),
  scalar('to_regnamespace', [Oid.text], Oid.regnamespace, ([t], ctx) => regnamespaceIn(t as string, snap(ctx), true)),
  scalar('to_regrole', [Oid.text], Oid.regrole, ([t], ctx) => regroleIn(t as string, snap(ctx), true)),
  scalar('pg_typeof', [Oid.any], Oid.regtype, (_a, _ctx, argTypes) => argTypes[0]?.oid ?? Oid.unknown, { strict: false }),
];
