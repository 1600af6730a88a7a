/**
 * Expression binding: libpg-query expression nodes → typed Expr (transformExpr in parse_expr.c).
 * SQL-syntax constructs (BETWEEN, IN lists, LIKE, IS DISTINCT FROM, CURRENT_DATE, ...) are mapped here.
 */
import { Oid, sqlType, type SqlType } from '../../common/pgtypes/oids.ts';
import { arrayTypeOf, elementTypeOf, isArrayType } from '../../common/pgtypes/registry.ts';
import { Numeric } from '../../common/pgtypes/numeric.ts';
import { formatType } from '../../common/pgtypes/format-type.ts';
import { notSupported, pgError, GatewayError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import type { Expr, OpExpr, SubqueryKind } from '../logical/expr.ts';
import type { LogicalPlan } from '../logical/plan.ts';
import { BOOL, coerce, coerceToBoolean, commonType, INT4, INT8, TEXT, tryCoerce, UNKNOWN } from './coerce.ts';
import type { Binder, ExprScope } from './binder.ts';
import { bindFuncCall } from './bind-func.ts';
import { resolveTypeName } from './type-name.ts';

type Node = Record<string, unknown>;

export function tagOf(node: unknown): [string, Node] {
  const e = Object.entries(node as Node)[0];
  if (e === undefined) throw pgError(SqlState.syntax_error, 'empty expression');
  return [e[0], e[1] as Node];
}

export function locOf(n: Node): number | undefined {
  return typeof n.location === 'number' && n.location >= 0 ? n.location + 1 : undefined;
}

export function strVal(n: unknown): string {
  return String(((n as Node).String as Node | undefined)?.sval ?? '');
}

export function withPosition<T>(position: number | undefined, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (GatewayError.is(e) && e.position === undefined && position !== undefined) e.position = position;
    throw e;
  }
}

export function lit(value: unknown, type: SqlType): Expr {
  return { kind: 'Literal', value, type };
}

export function bindExpr(b: Binder, node: unknown, es: ExprScope): Expr {
  const [tag, n] = tagOf(node);
  switch (tag) {
    case 'A_Const': { const c = bindConst(n); const l = locOf(n); return l === undefined || c.kind !== 'Literal' ? c : { ...c, location: l }; }
    case 'ColumnRef': return bindColumnRef(b, n, es);
    case 'ParamRef': return bindParam(b, n);
    case 'TypeCast': return bindTypeCast(b, n, es);
    case 'A_Expr': return bindAExpr(b, n, es);
    case 'BoolExpr': {
      const op = n.boolop === 'AND_EXPR' ? 'and' : n.boolop === 'OR_EXPR' ? 'or' : 'not';
      const args = (n.args as unknown[]).map((a) => coerceToBoolean(b.env, bindExpr(b, a, es), op.toUpperCase(), locOf(n)));
      return { kind: 'BoolOp', op, args, type: BOOL };
    }
    case 'NullTest': {
      const arg = bindExpr(b, n.arg, es);
      return { kind: 'NullTest', arg, negated: n.nulltesttype === 'IS_NOT_NULL', type: BOOL };
    }
    case 'BooleanTest': {
      const arg = coerceToBoolean(b.env, bindExpr(b, n.arg, es), String(n.booltesttype).replace(/_/g, ' '), locOf(n));
      const m: Record<string, 'true' | 'not_true' | 'false' | 'not_false' | 'unknown' | 'not_unknown'> = {
        IS_TRUE: 'true', IS_NOT_TRUE: 'not_true', IS_FALSE: 'false', IS_NOT_FALSE: 'not_false', IS_UNKNOWN: 'unknown', IS_NOT_UNKNOWN: 'not_unknown',
      };
      return { kind: 'BooleanTest', arg, test: m[String(n.booltesttype)]!, type: BOOL };
    }
    case 'CaseExpr': return bindCase(b, n, es);
    case 'CoalesceExpr': {
      const args = (n.args as unknown[]).map((a) => bindExpr(b, a, es));
      const t = commonType(b.env, args.map((a) => a.type), 'COALESCE', locOf(n));
      return { kind: 'Coalesce', args: args.map((a) => coerce(b.env, a, t, 'i', locOf(n))), type: t };
    }
    case 'MinMaxExpr': {
      const op = n.op === 'IS_GREATEST' ? 'greatest' : 'least';
      const args = (n.args as unknown[]).map((a) => bindExpr(b, a, es));
      const t = commonType(b.env, args.map((a) => a.type), op.toUpperCase(), locOf(n));
      return { kind: 'MinMax', op, args: args.map((a) => coerce(b.env, a, t, 'i', locOf(n))), type: t };
    }
    case 'FuncCall': return bindFuncCall(b, n, es);
    case 'SubLink': return bindSubLink(b, n, es);
    case 'A_ArrayExpr': return bindArray(b, n, es, null);
    case 'A_Indirection': return bindIndirection(b, n, es);
    case 'RowExpr': {
      const args = ((n.args as unknown[] | undefined) ?? []).map((a) => bindExpr(b, a, es));
      return { kind: 'Row', args: args.map((a) => (a.type.oid === Oid.unknown ? coerce(b.env, a, TEXT, 'i') : a)), type: sqlType(Oid.record) };
    }
    case 'SQLValueFunction': return bindSqlValueFunction(b, n, es);
    case 'CollateClause': return bindExpr(b, n.arg, es);
    case 'GroupingFunc': {
      if (!es.allowAgg) throw pgError(SqlState.grouping_error, `grouping operations are not allowed in ${es.clause}`, pos(locOf(n)));
      const args = (n.args as unknown[]).map((a) => bindExpr(b, a, es));
      return { kind: 'Grouping', args, type: INT4 };
    }
    case 'SetToDefault': throw pgError(SqlState.syntax_error, 'DEFAULT is not allowed in this context', pos(locOf(n)));
    default: throw notSupported(`expression ${tag}`, pos(locOf(n)));
  }
}

function pos(p: number | undefined): { position?: number } {
  return p === undefined ? {} : { position: p };
}

function bindConst(n: Node): Expr {
  if (n.isnull) return lit(null, UNKNOWN);
  if (n.ival !== undefined) return lit(Number((n.ival as Node).ival ?? 0), INT4);
  if (n.boolval !== undefined) return lit((n.boolval as Node).boolval === true, BOOL);
  if (n.sval !== undefined) return lit(String((n.sval as Node).sval ?? ''), UNKNOWN);
  if (n.fval !== undefined) {
    const s = String((n.fval as Node).fval);
    if (/^-?\d+$/.test(s)) {
      const v = BigInt(s);
      if (v >= -9223372036854775808n && v <= 9223372036854775807n) return lit(v, INT8);
    }
    if (/^-?0[xob]/i.test(s)) return lit(BigInt(s.replace(/_/g, '')), INT8);
    return lit(Numeric.parse(s.replace(/_/g, '')), sqlType(Oid.numeric));
  }
  if (n.bsval !== undefined) {
    const s = String((n.bsval as Node).bsval);
    if (s[0] === 'x' || s[0] === 'X') return lit([...s.slice(1)].map((h) => parseInt(h, 16).toString(2).padStart(4, '0')).join(''), sqlType(Oid.bit));
    return lit(s.slice(1), sqlType(Oid.bit));
  }
  return lit(null, UNKNOWN);
}

function bindColumnRef(b: Binder, n: Node, es: ExprScope): Expr {
  const fields = (n.fields as Node[]).map((f) => (f.A_Star !== undefined ? '*' : strVal(f)));
  const position = locOf(n);
  if (fields[fields.length - 1] === '*') {
    const whole = fields.length >= 2 ? wholeRow(es, fields[fields.length - 2]!, position) : undefined;
    if (whole === undefined) throw notSupported('whole-row references (*) inside expressions', pos(position));
    return whole;
  }
  const r = es.scope.resolve(fields, position);
  if (r === undefined) {
    const sys = es.scope.systemColumn(fields, position);
    if (sys !== undefined) return { kind: 'Literal', value: sys.relationOid, type: sqlType(Oid.oid) };
    if (fields.length >= 2 && !es.scope.hasItemNamed(fields[fields.length - 2]!)) {
      throw pgError(SqlState.undefined_table, `missing FROM-clause entry for table "${fields[fields.length - 2]}"`, pos(position));
    }
    const whole = fields.length === 1 ? wholeRow(es, fields[0]!, position) : undefined;
    if (whole !== undefined) return whole;
    const shown = fields.length === 1 ? `"${fields[0]}"` : fields.join('.');
    throw pgError(SqlState.undefined_column, `column ${shown} does not exist`, pos(position));
  }
  const name = r.item.alias === null ? r.column.name : `${r.item.alias}.${r.column.name}`;
  return { kind: 'ColumnRef', index: r.column.index, levelsUp: r.levelsUp, type: r.column.type, name, ...(position === undefined ? {} : { location: position }) };
}

/** `t` or `t.*` as a value: a ROW() of the item's columns (type record) */
function wholeRow(es: ExprScope, name: string, position: number | undefined): Expr | undefined {
  let levelsUp = 0;
  for (let s: ExprScope['scope'] | null = es.scope; s !== null; s = s.parent) {
    const item = s.items.find((it) => it.alias === name && !it.qualifiedHidden);
    if (item !== undefined) {
      if (levelsUp > 0) es.scope.resolve([name, item.columns[0]?.name ?? ''], position);
      const args: Expr[] = item.columns.map((c) => ({ kind: 'ColumnRef', index: c.index, levelsUp, type: c.type, name: `${name}.${c.name}` }));
      return { kind: 'Row', args, type: sqlType(Oid.record), fieldNames: item.columns.map((c) => c.name) };
    }
    if (!s.transparent) levelsUp++;
  }
  return undefined;
}

/** field names/types of a record-valued expression, when known (multi-column SRFs, ROW(), whole rows) */
export function recordFieldsOf(e: Expr, es: ExprScope): readonly { name: string; type: SqlType }[] | undefined {
  if (e.kind === 'SetCall' && e.def.outColumns) return e.def.outColumns(e.argTypes);
  if (e.kind === 'Row') return e.args.map((a, i) => ({ name: a.kind === 'ColumnRef' ? a.name.slice(a.name.lastIndexOf('.') + 1) : `f${i + 1}`, type: a.type }));
  if (e.kind === 'ColumnRef' && e.levelsUp >= 0) {
    let s: ExprScope['scope'] | null = es.scope;
    for (let l = e.levelsUp; l > 0 && s !== null; ) { if (!s.transparent) l--; s = s.parent; }
    while (s !== null && s.transparent) s = s.parent;
    const col = s?.items.flatMap((it) => it.columns).find((c) => c.index === e.index);
    return col?.recordFields;
  }
  return undefined;
}

function bindParam(b: Binder, n: Node): Expr {
  const number = Number(n.number ?? 0);
  const idx = number - 1;
  const types = b.ctx.paramTypes;
  while (types.length <= idx) types.push(sqlType(0));
  const t = types[idx]!;
  return { kind: 'Param', index: idx, type: t.oid === 0 ? UNKNOWN : t };
}

function bindTypeCast(b: Binder, n: Node, es: ExprScope): Expr {
  const target = resolveTypeName(n.typeName as Node);
  const position = locOf(n) ?? locOf(n.typeName as Node);
  const [argTag, argNode] = tagOf(n.arg);
  if (argTag === 'A_ArrayExpr' && isArrayType(target.oid)) return bindArray(b, argNode, es, target);
  const arg = bindExpr(b, n.arg, es);
  if (arg.kind === 'Literal' && arg.type.oid === Oid.unknown) {
    // a typed literal keeps the cast's type directly (DATE '2024-01-01', '1'::int)
    return coerce(b.env, arg, target, 'e', position);
  }
  return withPosition(position, () => coerce(b.env, arg, target, 'e', position));
}

/** Binds `left op right` with PostgreSQL's operator resolution; both sides coerced to the operator's types. */
export function makeOp(b: Binder, name: string, left: Expr | null, right: Expr, position: number | undefined): OpExpr {
  const r = withPosition(position, () => b.ctx.functions.resolveOperator(name, left === null ? null : left.type, right.type));
  const l = left === null || r.leftType === null ? null : coerce(b.env, left, r.leftType, 'i', position);
  const rr = coerce(b.env, right, r.rightType, 'i', position);
  return { kind: 'Op', name, def: r.def, left: l, right: rr, leftType: r.leftType, rightType: r.rightType, type: r.returnType };
}

function opName(n: Node): string {
  const names = (n.name as Node[]).map(strVal);
  return names[names.length - 1]!;
}

function bindAExpr(b: Binder, n: Node, es: ExprScope): Expr {
  const position = locOf(n);
  const kind = String(n.kind);
  switch (kind) {
    case 'AEXPR_OP': case 'AEXPR_LIKE': case 'AEXPR_ILIKE': case 'AEXPR_SIMILAR': {
      const name = opName(n);
      if (n.lexpr !== undefined && tagOf(n.lexpr)[0] === 'RowExpr' && n.rexpr !== undefined && tagOf(n.rexpr)[0] === 'RowExpr') {
        return bindRowCompare(b, name, n, es);
      }
      const left = n.lexpr === undefined ? null : bindExpr(b, n.lexpr, es);
      const right = bindExpr(b, n.rexpr, es);
      return makeOp(b, name, left, right, position);
    }
    case 'AEXPR_OP_ANY': case 'AEXPR_OP_ALL': {
      const left = bindExpr(b, n.lexpr, es);
      let right = bindExpr(b, n.rexpr, es);
      if (right.type.oid === Oid.unknown) {
        const at = arrayTypeOf(left.type.oid === Oid.unknown ? Oid.text : left.type.oid);
        right = coerce(b.env, right, sqlType(at), 'i', position);
      }
      const elem = right.type.oid === Oid.int2vector ? Oid.int2 : right.type.oid === Oid.oidvector ? Oid.oid : elementTypeOf(right.type.oid);
      if (elem === 0) throw pgError(SqlState.wrong_object_type, `op ANY/ALL (array) requires array on right side`, pos(position));
      const slot: Expr = { kind: 'ColumnRef', index: 0, levelsUp: -1, type: sqlType(elem), name: 'elem' };
      const op = makeOp(b, opName(n), left, slot, position);
      const vector = right.type.oid === Oid.int2vector || right.type.oid === Oid.oidvector;
      const arrType = sqlType(arrayTypeOf(op.rightType.oid) || right.type.oid);
      const arr = vector || arrType.oid === right.type.oid ? right : coerce(b.env, right, arrType, 'i', position);
      return { kind: 'ScalarArrayOp', op: { ...op, right: arr }, useOr: kind === 'AEXPR_OP_ANY', type: BOOL };
    }
    case 'AEXPR_DISTINCT': case 'AEXPR_NOT_DISTINCT': {
      const eq = makeOp(b, '=', bindExpr(b, n.lexpr, es), bindExpr(b, n.rexpr, es), position);
      return { kind: 'DistinctFrom', eq, negated: kind === 'AEXPR_NOT_DISTINCT', type: BOOL };
    }
    case 'AEXPR_NULLIF': {
      const eq = makeOp(b, '=', bindExpr(b, n.lexpr, es), bindExpr(b, n.rexpr, es), position);
      return { kind: 'NullIf', left: eq.left!, eq, type: eq.left!.type };
    }
    case 'AEXPR_IN': {
      const name = opName(n);
      const left = bindExpr(b, n.lexpr, es);
      const items = listItems(n.rexpr).map((x) => makeOp(b, name, left, bindExpr(b, x, es), position));
      if (items.length === 1) return items[0]!;
      return { kind: 'BoolOp', op: name === '<>' ? 'and' : 'or', args: items, type: BOOL };
    }
    case 'AEXPR_BETWEEN': case 'AEXPR_NOT_BETWEEN': case 'AEXPR_BETWEEN_SYM': case 'AEXPR_NOT_BETWEEN_SYM': {
      const [lo, hi] = listItems(n.rexpr);
      const x = bindExpr(b, n.lexpr, es);
      const a = bindExpr(b, lo, es);
      const c = bindExpr(b, hi, es);
      const not = kind.includes('NOT');
      const range = (l: Expr, h: Expr): Expr => not
        ? { kind: 'BoolOp', op: 'or', args: [makeOp(b, '<', x, l, position), makeOp(b, '>', x, h, position)], type: BOOL }
        : { kind: 'BoolOp', op: 'and', args: [makeOp(b, '>=', x, l, position), makeOp(b, '<=', x, h, position)], type: BOOL };
      if (!kind.includes('SYM')) return range(a, c);
      return { kind: 'BoolOp', op: not ? 'and' : 'or', args: [range(a, c), range(c, a)], type: BOOL };
    }
    default: throw notSupported(`operator form ${kind}`, pos(position));
  }
}

/** `x IN (a, b)` / BETWEEN operands arrive as a List node (or a bare array in older ASTs) */
function listItems(v: unknown): unknown[] {
  if (Array.isArray(v)) return v;
  const list = (v as Node).List as Node | undefined;
  return (list?.items as unknown[] | undefined) ?? [v];
}

function bindRowCompare(b: Binder, name: string, n: Node, es: ExprScope): Expr {
  const l = (tagOf(n.lexpr)[1].args as unknown[]).map((x) => bindExpr(b, x, es));
  const r = (tagOf(n.rexpr)[1].args as unknown[]).map((x) => bindExpr(b, x, es));
  if (l.length !== r.length) throw pgError(SqlState.syntax_error, 'unequal number of entries in row expressions', pos(locOf(n)));
  if (name === '=' || name === '<>') {
    const parts = l.map((x, i) => makeOp(b, name, x, r[i]!, locOf(n)));
    return { kind: 'BoolOp', op: name === '=' ? 'and' : 'or', args: parts, type: BOOL };
  }
  if (!['<', '<=', '>', '>='].includes(name)) throw notSupported(`row comparison with ${name}`, pos(locOf(n)));
  // lexicographic: (a, b) < (c, d)  ≡  a < c OR (a = c AND b < d)
  const strict = name[0]!;
  const build = (i: number): Expr => {
    if (i === l.length - 1) return makeOp(b, name, l[i]!, r[i]!, locOf(n));
    return { kind: 'BoolOp', op: 'or', type: BOOL, args: [
      makeOp(b, strict, l[i]!, r[i]!, locOf(n)),
      { kind: 'BoolOp', op: 'and', type: BOOL, args: [makeOp(b, '=', l[i]!, r[i]!, locOf(n)), build(i + 1)] },
    ] };
  };
  return build(0);
}

function bindCase(b: Binder, n: Node, es: ExprScope): Expr {
  const position = locOf(n);
  const operand = n.arg === undefined ? null : bindExpr(b, n.arg, es);
  const whens = (n.args as Node[]).map((w) => {
    const cw = w.CaseWhen as Node;
    const raw = bindExpr(b, cw.expr, es);
    const cond = operand === null ? coerceToBoolean(b.env, raw, 'CASE/WHEN', locOf(cw)) : makeOp(b, '=', operand, raw, locOf(cw));
    return { cond, result: bindExpr(b, cw.result, es) };
  });
  const elseRaw = n.defresult === undefined ? lit(null, UNKNOWN) : bindExpr(b, n.defresult, es);
  const t = commonType(b.env, [...whens.map((w) => w.result.type), elseRaw.type], 'CASE', position);
  return {
    kind: 'Case',
    whens: whens.map((w) => ({ cond: w.cond, result: coerce(b.env, w.result, t, 'i', position) })),
    elseExpr: coerce(b.env, elseRaw, t, 'i', position),
    type: t,
  };
}

function bindArray(b: Binder, n: Node, es: ExprScope, target: SqlType | null): Expr {
  const position = locOf(n);
  const rawElems = ((n.elements as unknown[] | undefined) ?? []);
  const nested = rawElems.length > 0 && rawElems.every((e) => tagOf(e)[0] === 'A_ArrayExpr');
  if (nested) {
    const subs = rawElems.map((e) => bindArray(b, tagOf(e)[1], es, target));
    const t = target ?? commonType(b.env, subs.map((s) => s.type), 'ARRAY', position);
    return { kind: 'Array', elements: subs.map((s) => coerce(b.env, s, t, 'i', position)), elementType: t, type: t };
  }
  const elems = rawElems.map((e) => bindExpr(b, e, es));
  let elemType: SqlType;
  if (target !== null) elemType = sqlType(elementTypeOf(target.oid), target.typmod);
  else {
    if (elems.length === 0) throw pgError(SqlState.indeterminate_datatype, 'cannot determine type of empty array', { ...pos(position), hint: 'Explicitly cast to the desired type, for example ARRAY[]::integer[].' });
    elemType = commonType(b.env, elems.map((e) => e.type), 'ARRAY', position);
  }
  const at = arrayTypeOf(elemType.oid);
  if (at === 0) throw pgError(SqlState.undefined_object, `could not find array type for data type ${formatType(elemType.oid)}`, pos(position));
  return { kind: 'Array', elements: elems.map((e) => coerce(b.env, e, elemType, target ? 'e' : 'i', position)), elementType: elemType, type: sqlType(at) };
}

function bindIndirection(b: Binder, n: Node, es: ExprScope): Expr {
  let arg = bindExpr(b, n.arg, es);
  const inds = n.indirection as Node[];
  const firstField = inds.findIndex((i) => i.String !== undefined);
  if (firstField >= 0) {
    if (firstField > 0) throw notSupported('field selection after a subscript', pos(locOf(n)));
    for (const ind of inds) {
      if (ind.String === undefined) throw notSupported('subscripts after a field selection', pos(locOf(n)));
      const name = strVal(ind);
      const fields = recordFieldsOf(arg, es);
      if (fields === undefined) throw notSupported('field selection from a composite value of unknown shape', pos(locOf(n)));
      const f = fields.findIndex((x) => x.name === name);
      if (f < 0) throw pgError(SqlState.undefined_column, `column "${name}" not found in data type record`, pos(locOf(n)));
      arg = { kind: 'FieldSelect', arg, field: f, type: fields[f]!.type };
    }
    return arg;
  }
  const idx: { lower: Expr | null; upper: Expr | null; slice: boolean }[] = [];
  for (const ind of inds) {
    const [tag, x] = tagOf(ind);
    if (tag !== 'A_Indices') throw notSupported('field selection from a composite value', pos(locOf(n)));
    const bindIdx = (e: unknown): Expr | null => (e === undefined ? null : coerce(b.env, bindExpr(b, e, es), INT4, 'i'));
    idx.push({ lower: bindIdx(x.lidx), upper: bindIdx(x.uidx), slice: x.is_slice === true });
  }
  if (arg.type.oid === Oid.unknown) arg = coerce(b.env, arg, sqlType(Oid._text), 'i');
  const elem = elementTypeOf(arg.type.oid);
  if (elem === 0 && arg.type.oid !== Oid.int2vector && arg.type.oid !== Oid.oidvector) {
    throw pgError(SqlState.datatype_mismatch, `cannot subscript type ${formatType(arg.type.oid)} because it does not support subscripting`, pos(locOf(n)));
  }
  const elemOid = arg.type.oid === Oid.int2vector ? Oid.int2 : arg.type.oid === Oid.oidvector ? Oid.oid : elem;
  const slice = idx.some((i) => i.slice);
  return { kind: 'Subscript', arg, indexes: idx, type: slice ? sqlType(arrayTypeOf(elemOid)) : sqlType(elemOid) };
}

function bindSqlValueFunction(b: Binder, n: Node, es: ExprScope): Expr {
  const op = String(n.op);
  const call = (name: string): Expr => bindFuncCall(b, { funcname: [{ String: { sval: name } }], location: n.location }, es);
  const castTo = (e: Expr, oid: number): Expr => coerce(b.env, e, sqlType(oid, typeof n.typmod === 'number' ? n.typmod : -1), 'e', locOf(n));
  switch (op) {
    case 'SVFOP_CURRENT_DATE': return castTo(call('now'), Oid.date);
    case 'SVFOP_CURRENT_TIME': case 'SVFOP_CURRENT_TIME_N': return castTo(call('now'), Oid.timetz);
    case 'SVFOP_CURRENT_TIMESTAMP': return call('now');
    case 'SVFOP_CURRENT_TIMESTAMP_N': return castTo(call('now'), Oid.timestamptz);
    case 'SVFOP_LOCALTIME': case 'SVFOP_LOCALTIME_N': return castTo(call('now'), Oid.time);
    case 'SVFOP_LOCALTIMESTAMP': case 'SVFOP_LOCALTIMESTAMP_N': return castTo(call('now'), Oid.timestamp);
    case 'SVFOP_CURRENT_ROLE': case 'SVFOP_CURRENT_USER': case 'SVFOP_USER': return call('current_user');
    case 'SVFOP_SESSION_USER': return call('session_user');
    case 'SVFOP_CURRENT_CATALOG': return call('current_database');
    case 'SVFOP_CURRENT_SCHEMA': return call('current_schema');
    default: throw notSupported(op, pos(locOf(n)));
  }
}

function bindSubLink(b: Binder, n: Node, es: ExprScope): Expr {
  const position = locOf(n);
  const type = String(n.subLinkType);
  const sub = b.bindSelect(n.subselect as Node, es.scope);
  const col0 = sub.columns[0];
  const kindMap: Record<string, SubqueryKind> = { EXISTS_SUBLINK: 'exists', EXPR_SUBLINK: 'scalar', ARRAY_SUBLINK: 'array', ANY_SUBLINK: 'any', ALL_SUBLINK: 'all' };
  const subKind = kindMap[type];
  if (subKind === undefined) throw notSupported(`subquery form ${type}`, pos(position));
  if ((subKind === 'any' || subKind === 'all') && tagOf(n.testexpr as unknown)[0] === 'RowExpr') {
    return bindRowSubLink(b, n, es, sub.plan, sub.columns.map((c) => c.type), subKind, sub.correlated, position);
  }
  if ((subKind === 'any' || subKind === 'all') && sub.columns.length > 1) {
    throw pgError(SqlState.syntax_error, 'subquery has too many columns', pos(position));
  }
  if (subKind !== 'exists' && sub.columns.length !== 1) {
    throw pgError(SqlState.syntax_error, sub.columns.length > 1 ? 'subquery must return only one column' : 'subquery must return a column', pos(position));
  }
  if (subKind === 'exists') return { kind: 'Subquery', subKind, plan: sub.plan, test: null, correlated: sub.correlated, type: BOOL };
  let colType = col0!.type;
  if (colType.oid === Oid.unknown) colType = TEXT;
  if (subKind === 'scalar') return { kind: 'Subquery', subKind, plan: sub.plan, test: null, correlated: sub.correlated, type: colType };
  if (subKind === 'array') {
    const at = arrayTypeOf(colType.oid);
    if (at === 0) throw pgError(SqlState.undefined_object, `could not find array type for data type ${formatType(colType.oid)}`, pos(position));
    return { kind: 'Subquery', subKind, plan: sub.plan, test: null, correlated: sub.correlated, type: sqlType(at) };
  }
  const left = bindExpr(b, n.testexpr as unknown, es);
  const names = ((n.operName as Node[] | undefined) ?? [{ String: { sval: '=' } }]).map(strVal);
  const slot: Expr = { kind: 'ColumnRef', index: 0, levelsUp: -1, type: colType, name: 'subquery' };
  const test = makeOp(b, names[names.length - 1]!, left, slot, position);
  if (test.type.oid !== Oid.bool) throw pgError(SqlState.datatype_mismatch, 'operator must return type boolean', pos(position));
  return { kind: 'Subquery', subKind, plan: sub.plan, test, correlated: sub.correlated, type: BOOL };
}

/**
 * `(a, b) IN (SELECT x, y …)` / `(a, b) <> ALL (…)`: PostgreSQL's row comparison of each subquery row, `=` as the AND
 * of the column equalities and `<>` as their OR (three-valued, so NULLs give NULL as in PostgreSQL). The subquery's
 * row is read through slot ColumnRefs (levelsUp -1, one index per column). Ordering operators compare rows
 * lexicographically in PostgreSQL and are not supported here.
 */
function bindRowSubLink(
  b: Binder, n: Node, es: ExprScope, plan: LogicalPlan, colTypes: readonly SqlType[], subKind: 'any' | 'all', correlated: boolean, position: number | undefined,
): Expr {
  const items = ((n.testexpr as Node).RowExpr as Node).args as unknown[] | undefined ?? [];
  if (items.length > colTypes.length) throw pgError(SqlState.syntax_error, 'subquery has too few columns', pos(position));
  if (items.length < colTypes.length) throw pgError(SqlState.syntax_error, 'subquery has too many columns', pos(position));
  const names = ((n.operName as Node[] | undefined) ?? [{ String: { sval: '=' } }]).map(strVal);
  const op = names[names.length - 1]!;
  if (op !== '=' && op !== '<>') throw notSupported(`row comparison with operator ${op} against a subquery`, pos(position));
  const tests = items.map((item, c) => {
    const colType = colTypes[c]!.oid === Oid.unknown ? TEXT : colTypes[c]!;
    const slot: Expr = { kind: 'ColumnRef', index: c, levelsUp: -1, type: colType, name: 'subquery' };
    const t = makeOp(b, op, bindExpr(b, item, es), slot, position);
    if (t.type.oid !== Oid.bool) throw pgError(SqlState.datatype_mismatch, 'operator must return type boolean', pos(position));
    return t;
  });
  const test: Expr = { kind: 'BoolOp', op: op === '=' ? 'and' : 'or', args: tests, type: BOOL };
  return { kind: 'Subquery', subKind, plan, test, correlated, type: BOOL };
}

/** unknown-typed outputs (bare string literals, untyped params) become text, as PG's resolveTargetListUnknowns */
export function resolveUnknownOutput(b: Binder, e: Expr): Expr {
  return e.type.oid === Oid.unknown ? (tryCoerce(b.env, e, TEXT, 'i') ?? e) : e;
}
