/**
 * Small helpers over libpg-query's JSON parse tree (PostgreSQL's raw parse nodes): node kind, string
 * lists, constants. The engine's utility statements read the tree directly; queries go to the binder.
 */
export type AstNode = Record<string, unknown>;

/** the node's tag, e.g. 'SelectStmt' for {SelectStmt: {...}} */
export function nodeKind(node: unknown): string {
  if (typeof node !== 'object' || node === null) return '';
  const keys = Object.keys(node);
  return keys.length === 1 ? keys[0]! : '';
}

export function nodeBody(node: unknown): AstNode {
  const kind = nodeKind(node);
  return ((node as AstNode)[kind] ?? {}) as AstNode;
}

/** [{String:{sval:'a'}}, ...] → ['a', ...] */
export function stringList(list: unknown): string[] {
  if (!Array.isArray(list)) return [];
  return list.map((n) => {
    const b = nodeBody(n);
    return typeof b.sval === 'string' ? b.sval : '';
  });
}

/** the value of an A_Const / String / Integer node as text (SET arguments, options) */
export function constText(node: unknown): string | null {
  const kind = nodeKind(node);
  const body = nodeBody(node);
  if (kind === 'A_Const') {
    if (body.isnull === true) return null;
    if (body.sval !== undefined) return String((body.sval as AstNode).sval ?? '');
    if (body.ival !== undefined) return String((body.ival as AstNode).ival ?? 0);
    if (body.fval !== undefined) return String((body.fval as AstNode).fval ?? '0');
    if (body.boolval !== undefined) return (body.boolval as AstNode).boolval === true ? 'true' : 'false';
    return null;
  }
  if (kind === 'String') return String(body.sval ?? '');
  if (kind === 'Integer') return String(body.ival ?? 0);
  if (kind === 'Float') return String(body.fval ?? '0');
  if (kind === 'TypeCast') return constText(body.arg);
  if (kind === 'ColumnRef') return stringList(body.fields).join('.');
  return null;
}

export interface QualifiedName {
  readonly schema: string | undefined;
  readonly name: string;
  readonly location: number;
}

/** RangeVar → schema-qualified name */
export function rangeVarName(rv: unknown): QualifiedName {
  const b = nodeKind(rv) === 'RangeVar' ? nodeBody(rv) : (rv as AstNode);
  return {
    schema: typeof b.schemaname === 'string' ? b.schemaname : undefined,
    name: String(b.relname ?? ''),
    location: typeof b.location === 'number' ? b.location : -1,
  };
}

/** PostgreSQL's quote_ident (also quotes keywords): the catalog's implementation, shared */
export { quoteIdent } from '../pgcatalog/index.ts';
