/**
 * json_agg / jsonb_agg / json_object_agg / jsonb_object_agg. They are not strict: NULL inputs become
 * JSON null (a NULL key is an error); no rows gives NULL. Layouts follow PostgreSQL: json_agg `[1, 2]`,
 * json_object_agg `{ "k" : v, ... }`, the jsonb forms normalized.
 */
import { pgError } from '../common/errors.ts';
import { SqlState } from '../common/sqlstate.ts';
import { Oid } from '../common/pgtypes/oids.ts';
import type { AggregateDef, AggregateState, EvalContext } from './registry-types.ts';
import { sessionZoneOf } from './datetime-support.ts';
import { escapeJson, jsonbText, normalize, type JsonValue } from './json-value.ts';
import { toJsonText, toJsonValue } from './json-convert.ts';
import type { SqlType } from '../common/pgtypes/oids.ts';

const { json: JSON_, jsonb: JSONB, anyelement: ANYELEMENT, any: ANY, text: TEXT } = Oid;

/** Collects items; `render` turns them into the result. */
class ListState<T> implements AggregateState {
  items: T[] = [];
  constructor(private readonly add: (args: readonly unknown[]) => T, private readonly render: (items: T[]) => string) {}
  step(args: readonly unknown[]): void { this.items.push(this.add(args)); }
  final(): unknown { return this.items.length === 0 ? null : this.render(this.items); }
  combine(other: AggregateState): void { this.items.push(...(other as ListState<T>).items); }
}

function keyText(oid: number, v: unknown, ctx: EvalContext): string {
  if (v === null || v === undefined) throw pgError(SqlState.invalid_parameter_value, 'field name must not be null');
  if (typeof v === 'string') return v;
  const j = toJsonText(oid, v, sessionZoneOf(ctx));
  return j.startsWith('"') ? (JSON.parse(j) as string) : j;
}

const agg = (name: string, args: number[], returns: number, oid: number, create: (ctx: EvalContext, t: readonly SqlType[]) => AggregateState): AggregateDef =>
  ({ kind: 'aggregate', name, args, returns, oid, strict: false, volatility: 's', create: (ctx, t) => create(ctx, t) });

export const jsonAggregates: readonly AggregateDef[] = [
  agg('json_agg', [ANYELEMENT], JSON_, 3175, (ctx, t) => new ListState<string>(
    (a) => toJsonText(t[0]?.oid ?? TEXT, a[0] ?? null, sessionZoneOf(ctx)),
    (items) => '[' + items.join(', ') + ']')),
  agg('jsonb_agg', [ANYELEMENT], JSONB, 3267, (ctx, t) => new ListState<JsonValue>(
    (a) => toJsonValue(t[0]?.oid ?? TEXT, a[0] ?? null, sessionZoneOf(ctx)),
    (items) => jsonbText({ t: 'arr', items }))),
  agg('json_object_agg', [ANY, ANY], JSON_, 3197, (ctx, t) => new ListState<string>(
    (a) => `${escapeJson(keyText(t[0]?.oid ?? TEXT, a[0], ctx))} : ${toJsonText(t[1]?.oid ?? TEXT, a[1] ?? null, sessionZoneOf(ctx))}`,
    (items) => '{ ' + items.join(', ') + ' }')),
  agg('jsonb_object_agg', [ANY, ANY], JSONB, 3270, (ctx, t) => new ListState<[string, JsonValue]>(
    (a) => [keyText(t[0]?.oid ?? TEXT, a[0], ctx), toJsonValue(t[1]?.oid ?? TEXT, a[1] ?? null, sessionZoneOf(ctx))],
    (items) => jsonbText(normalize({ t: 'obj', entries: items })))),
];
