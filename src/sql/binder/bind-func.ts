/**
 * Function calls: scalar functions, aggregates (with DISTINCT, FILTER, ORDER BY), window functions (OVER)
 * and set-returning functions, resolved through the function registry.
 */
import { Oid, sqlType, type SqlType } from '../../common/pgtypes/oids.ts';
import { GatewayError, notSupported, pgError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import type { Expr, FrameBound, RangeOffsetOps, SortKeyExpr, WindowFrame, WindowSpec } from '../logical/expr.ts';
import { formatType } from '../../common/pgtypes/format-type.ts';
import { coerce, coerceToBoolean, commonType, INT4, INT8 } from './coerce.ts';
import type { Binder, ExprScope } from './binder.ts';
import { bindExpr, locOf, strVal, withPosition } from './bind-expr.ts';
import { argValueNode, arrangeNamedArgs, namedArgNames, noSuchFunction } from './named-args.ts';

type Node = Record<string, unknown>;

const WINDOW_ONLY = new Set(['row_number', 'rank', 'dense_rank', 'percent_rank', 'cume_dist', 'ntile', 'lag', 'lead', 'first_value', 'last_value', 'nth_value']);

function pos(p: number | undefined): { position?: number } {
  return p === undefined ? {} : { position: p };
}

export function bindFuncCall(b: Binder, n: Node, es: ExprScope): Expr {
  const names = (n.funcname as Node[]).map(strVal);
  const name = names[names.length - 1]!;
  const position = locOf(n);
  const over = n.over as Node | undefined;
  const isAggLike = n.agg_star === true || n.agg_distinct === true || n.agg_filter !== undefined || n.agg_order !== undefined;
  if (n.agg_within_group === true) return bindOrderedSetCall(b, n, name, es, position);
  const argEs: ExprScope = isAggLike || over ? { ...es, allowAgg: over !== undefined && es.allowAgg, inAgg: over === undefined, allowWindow: false, allowSrf: false } : es;
  const rawArgs = ((n.args as unknown[] | undefined) ?? []);
  const argNames = namedArgNames(rawArgs);
  const bound = rawArgs.map((a) => bindExpr(b, argValueNode(a), argEs));
  const named = argNames.some((n) => n !== null);
  const arrangements = named ? arrangeNamedArgs(b.ctx.functions.routines(name), name, bound, argNames, position) : [bound];
  let args = arrangements[0]!;

  if (WINDOW_ONLY.has(name) && names.length <= 2) {
    if (over === undefined) throw pgError(SqlState.wrong_object_type, `window function ${name} requires an OVER clause`, pos(position));
    return bindWindowOnly(b, name, args, over, es, position);
  }
  // named notation: the first arrangement the usual resolution accepts (PostgreSQL resolves among them too)
  const resolved = withPosition(position, () => {
    for (let i = 0; i < arrangements.length - 1; i++) {
      try {
        const r = b.ctx.functions.resolveFunction(name, arrangements[i]!.map((a) => a.type));
        args = arrangements[i]!;
        return r;
      } catch {
        // try the next arrangement
      }
    }
    args = arrangements[arrangements.length - 1]!;
    try {
      return b.ctx.functions.resolveFunction(name, args.map((a) => a.type));
    } catch (e) {
      // a named call's 42883 names its arguments as written
      throw named && GatewayError.is(e) && e.code === SqlState.undefined_function ? noSuchFunction(name, bound, argNames, position) : e;
    }
  });
  if (named && resolved.def.argNames === undefined) {
    throw noSuchFunction(name, bound, argNames, position); // only routines with parameter names take named notation
  }
  const coerced = args.map((a, i) => coerce(b.env, a, resolved.argTypes[i] ?? a.type, 'i', position));
  const def = resolved.def;
  if (def.kind === 'scalar') {
    if (over !== undefined || isAggLike) {
      throw pgError(SqlState.wrong_object_type, `${over ? 'OVER' : 'DISTINCT'} specified, but ${name} is not an aggregate function`, pos(position));
    }
    return { kind: 'Call', name, def, args: coerced, argTypes: resolved.argTypes, type: resolved.returnType };
  }
  if (def.kind === 'set') {
    if (!es.allowSrf) throw pgError(SqlState.feature_not_supported, `set-returning functions are not allowed in ${es.clause}`, pos(position));
    return { kind: 'SetCall', name, def, args: coerced, argTypes: resolved.argTypes, type: resolved.returnType };
  }
  if (def.directArgs !== undefined) throw pgError(SqlState.wrong_object_type, `WITHIN GROUP is required for ordered-set aggregate ${name}`, pos(position));
  const filter = n.agg_filter === undefined ? null
    : coerceToBoolean(b.env, bindExpr(b, n.agg_filter, { ...argEs, allowAgg: false }), 'FILTER', position);
  if (over !== undefined) {
    if (!es.allowWindow) throw pgError(SqlState.windowing_error, `window functions are not allowed in ${es.clause}`, pos(position));
    if (n.agg_distinct) throw notSupported('DISTINCT is not implemented for window functions', pos(position));
    return { kind: 'WindowFunc', name, agg: def, args: coerced, argTypes: resolved.argTypes, filter, star: n.agg_star === true, spec: bindWindowSpec(b, over, es), type: resolved.returnType };
  }
  if (es.inAgg) throw pgError(SqlState.grouping_error, 'aggregate function calls cannot be nested', pos(position));
  if (!es.allowAgg) throw pgError(SqlState.grouping_error, `aggregate functions are not allowed in ${es.clause}`, pos(position));
  const orderBy = ((n.agg_order as Node[] | undefined) ?? []).map((s) => bindSortBy(b, s.SortBy as Node, argEs));
  return { kind: 'Aggregate', name, def, args: coerced, argTypes: resolved.argTypes, distinct: n.agg_distinct === true, star: n.agg_star === true, filter, orderBy, type: resolved.returnType };
}

/**
 * `f(direct...) WITHIN GROUP (ORDER BY x...)`: an ordered-set aggregate, resolved over the direct then the
 * aggregated argument types (as pg_proc lists them); the aggregated arguments are also the sort keys.
 */
function bindOrderedSetCall(b: Binder, n: Node, name: string, es: ExprScope, position: number | undefined): Expr {
  if (n.agg_distinct === true) throw pgError(SqlState.syntax_error, 'cannot use DISTINCT with WITHIN GROUP', pos(position));
  const argEs: ExprScope = { ...es, allowAgg: false, inAgg: true, allowWindow: false, allowSrf: false };
  const direct = ((n.args as unknown[] | undefined) ?? []).map((a) => bindExpr(b, a, argEs));
  const sorts = ((n.agg_order as Node[] | undefined) ?? []).map((s) => bindSortBy(b, s.SortBy as Node, argEs));
  const all = [...direct, ...sorts.map((s) => s.expr)];
  const resolved = withPosition(position, () => b.ctx.functions.resolveFunction(name, all.map((a) => a.type)));
  const def = resolved.def;
  if (def.kind !== 'aggregate' || def.directArgs === undefined) {
    throw pgError(SqlState.wrong_object_type, `${name} is not an ordered-set aggregate, so it cannot have WITHIN GROUP`, pos(position));
  }
  if (def.directArgs !== direct.length) {
    throw pgError(SqlState.undefined_function, `function ${name}(${all.map((a) => formatType(a.type.oid)).join(', ')}) does not exist`, pos(position));
  }
  if (n.over !== undefined) throw pgError(SqlState.feature_not_supported, `OVER is not supported for ordered-set aggregate ${name}`, pos(position));
  if (es.inAgg) throw pgError(SqlState.grouping_error, 'aggregate function calls cannot be nested', pos(position));
  if (!es.allowAgg) throw pgError(SqlState.grouping_error, `aggregate functions are not allowed in ${es.clause}`, pos(position));
  const args = all.map((a, i) => coerce(b.env, a, resolved.argTypes[i] ?? a.type, 'i', position));
  const orderBy = sorts.map((s, i) => ({ ...s, expr: args[direct.length + i]! }));
  const filter = n.agg_filter === undefined ? null
    : coerceToBoolean(b.env, bindExpr(b, n.agg_filter, argEs), 'FILTER', position);
  return { kind: 'Aggregate', name, def, args, argTypes: resolved.argTypes, distinct: false, star: false, filter, orderBy, type: resolved.returnType };
}

export function bindSortBy(b: Binder, s: Node, es: ExprScope): SortKeyExpr {
  if (s.sortby_dir === 'SORTBY_USING') throw notSupported('ORDER BY USING', pos(locOf(s)));
  const expr = bindExpr(b, s.node, es);
  return sortKey(expr, s);
}

export function sortKey(expr: Expr, s: Node): SortKeyExpr {
  const useOp = ((s.useOp as Node[] | undefined) ?? []).map(strVal).pop();
  if (s.sortby_dir === 'SORTBY_USING' && !['<', '<=', '>', '>='].includes(useOp ?? '')) throw notSupported(`ORDER BY USING ${useOp}`);
  const descending = s.sortby_dir === 'SORTBY_DESC' || (s.sortby_dir === 'SORTBY_USING' && (useOp === '>' || useOp === '>='));
  const nulls = s.sortby_nulls;
  return { expr, descending, nullsFirst: nulls === 'SORTBY_NULLS_FIRST' ? true : nulls === 'SORTBY_NULLS_LAST' ? false : descending };
}

function bindWindowOnly(b: Binder, name: string, args: Expr[], over: Node, es: ExprScope, position: number | undefined): Expr {
  if (!es.allowWindow) throw pgError(SqlState.windowing_error, `window functions are not allowed in ${es.clause}`, pos(position));
  let type: SqlType;
  let out = args;
  const arity = (ok: boolean): void => {
    if (!ok) throw pgError(SqlState.undefined_function, `function ${name}(${args.map((a) => a.type.oid).join(', ')}) does not exist`, pos(position));
  };
  switch (name) {
    case 'row_number': case 'rank': case 'dense_rank': arity(args.length === 0); type = INT8; break;
    case 'percent_rank': case 'cume_dist': arity(args.length === 0); type = sqlType(Oid.float8); break;
    case 'ntile': arity(args.length === 1); out = [coerce(b.env, args[0]!, INT4, 'i', position)]; type = INT4; break;
    case 'lag': case 'lead': {
      arity(args.length >= 1 && args.length <= 3);
      const t = args.length === 3 ? commonType(b.env, [args[0]!.type, args[2]!.type], name, position) : args[0]!.type.oid === Oid.unknown ? sqlType(Oid.text) : args[0]!.type;
      out = [coerce(b.env, args[0]!, t, 'i', position)];
      if (args.length >= 2) out.push(coerce(b.env, args[1]!, INT4, 'i', position));
      if (args.length === 3) out.push(coerce(b.env, args[2]!, t, 'i', position));
      type = t;
      break;
    }
    case 'first_value': case 'last_value': arity(args.length === 1); type = args[0]!.type; break;
    default: arity(args.length === 2); out = [args[0]!, coerce(b.env, args[1]!, INT4, 'i', position)]; type = args[0]!.type;
  }
  return { kind: 'WindowFunc', name, agg: null, args: out, argTypes: out.map((a) => a.type), filter: null, star: false, spec: bindWindowSpec(b, over, es), type };
}

const F = {
  RANGE: 0x2, ROWS: 0x4, GROUPS: 0x8,
  START_UNBOUNDED_PRECEDING: 0x20, END_UNBOUNDED_PRECEDING: 0x40, START_UNBOUNDED_FOLLOWING: 0x80, END_UNBOUNDED_FOLLOWING: 0x100,
  START_CURRENT_ROW: 0x200, END_CURRENT_ROW: 0x400, START_OFFSET_PRECEDING: 0x800, END_OFFSET_PRECEDING: 0x1000,
  START_OFFSET_FOLLOWING: 0x2000, END_OFFSET_FOLLOWING: 0x4000, EXCLUSION: 0x8000 | 0x10000 | 0x20000,
} as const;

/** in_range support: key + offset / key - offset, and how to compare the key with the result */
function rangeOps(b: Binder, keyType: SqlType, offset: Expr, position: number | undefined): RangeOffsetOps {
  const fail = (): never => {
    throw pgError(SqlState.feature_not_supported, `RANGE with offset PRECEDING/FOLLOWING is not supported for column type ${formatType(keyType.oid)} and offset type ${formatType(offset.type.oid)}`, pos(position));
  };
  let plus;
  let minus;
  try {
    plus = b.ctx.functions.resolveOperator('+', keyType, offset.type);
    minus = b.ctx.functions.resolveOperator('-', keyType, offset.type);
  } catch {
    return fail();
  }
  const resultType = plus.returnType;
  let keyCast = null;
  if (resultType.oid !== keyType.oid) {
    const c = b.ctx.functions.findCoercion(keyType.oid, resultType.oid, 'i');
    if (c === undefined) return fail();
    keyCast = c.impl;
  }
  return { plus: plus.def, minus: minus.def, keyType: plus.leftType ?? keyType, offsetType: plus.rightType, resultType, keyCast };
}

export function bindWindowSpec(b: Binder, over: Node, es: ExprScope): WindowSpec {
  let def = over;
  const refName = (over.name ?? over.refname) as string | undefined;
  let base: Node | undefined;
  if (refName !== undefined) {
    base = es.windows?.get(refName);
    if (base === undefined) throw pgError(SqlState.undefined_object, `window "${refName}" does not exist`, pos(locOf(over)));
    if (over.name !== undefined) def = base;
  }
  const wes: ExprScope = { ...es, allowWindow: false, allowSrf: false };
  const partition = ((base?.partitionClause ?? def.partitionClause) as unknown[] | undefined) ?? [];
  const order = ((def.orderClause ?? base?.orderClause) as Node[] | undefined) ?? [];
  const frameDef = (def.frameOptions as number | undefined) !== undefined && ((def.frameOptions as number) & 1) ? def : base ?? def;
  const opts = (frameDef.frameOptions as number | undefined) ?? 0x422;
  if (opts & F.EXCLUSION) throw notSupported('frame EXCLUDE', pos(locOf(over)));
  const offset = (e: unknown, mode: string): Expr => {
    const x = bindExpr(b, e, wes);
    return mode === 'range' ? x : coerce(b.env, x, INT8, 'i');
  };
  const mode = opts & F.ROWS ? 'rows' : opts & F.GROUPS ? 'groups' : 'range';
  const bound = (start: boolean): FrameBound => {
    if (opts & (start ? F.START_UNBOUNDED_PRECEDING : F.END_UNBOUNDED_PRECEDING)) return { kind: 'unboundedPreceding' };
    if (opts & (start ? F.START_UNBOUNDED_FOLLOWING : F.END_UNBOUNDED_FOLLOWING)) return { kind: 'unboundedFollowing' };
    if (opts & (start ? F.START_CURRENT_ROW : F.END_CURRENT_ROW)) return { kind: 'currentRow' };
    if (opts & (start ? F.START_OFFSET_PRECEDING : F.END_OFFSET_PRECEDING)) return { kind: 'preceding', offset: offset(start ? frameDef.startOffset : frameDef.endOffset, mode) };
    if (opts & (start ? F.START_OFFSET_FOLLOWING : F.END_OFFSET_FOLLOWING)) return { kind: 'following', offset: offset(start ? frameDef.startOffset : frameDef.endOffset, mode) };
    return start ? { kind: 'unboundedPreceding' } : { kind: 'currentRow' };
  };
  let frame: WindowFrame = { mode, start: bound(true), end: bound(false) };
  const orderBy = order.map((s) => bindSortBy(b, s.SortBy as Node, wes));
  const isOffset = (x: FrameBound): x is Extract<FrameBound, { offset: Expr }> => x.kind === 'preceding' || x.kind === 'following';
  if (mode === 'range' && (isOffset(frame.start) || isOffset(frame.end))) {
    if (orderBy.length !== 1) {
      throw pgError(SqlState.windowing_error, 'RANGE with offset PRECEDING/FOLLOWING requires exactly one ORDER BY column', pos(locOf(over)));
    }
    const withOps = (x: FrameBound): FrameBound => (isOffset(x) ? { ...x, range: rangeOps(b, orderBy[0]!.expr.type, x.offset, locOf(over)) } : x);
    frame = { mode, start: withOps(frame.start), end: withOps(frame.end) };
  }
  return { partitionBy: partition.map((p) => bindExpr(b, p, wes)), orderBy, frame };
}
