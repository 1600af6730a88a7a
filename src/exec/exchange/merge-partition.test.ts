import { describe, expect, it } from 'vitest';
import { Numeric } from '../../common/pgtypes/numeric.ts';
import { Oid, sqlType, type SqlType } from '../../common/pgtypes/oids.ts';
import { getDefaultRegistry } from '../../functions/index.ts';
import type { AggregateDef, AggregateState, EvalContext } from '../../functions/registry-types.ts';
import { keyOfBuiltin } from '../partial/expr-wire.ts';
import type { WireEvalContext } from '../partial/worker-eval-context.ts';
import { mergePartition, type MergeAggregate } from './merge-partition.ts';
import { buffersOfGroups, partitionGroups, type PartitionedPartial } from './partition-groups.ts';
import { unpackColumn } from './wire-column.ts';

const ctx = {} as EvalContext;
const evalCtx: WireEvalContext = {
  settings: [], user: 'u', database: 'd', backendPid: 1, serverStartTime: 0n, localAddress: '', localPort: 0,
  searchPath: [], transactionTimestamp: 0n, statementTimestamp: 0n, params: [],
};

function agg(name: string, arg: number): { def: AggregateDef; argTypes: SqlType[]; type: SqlType } {
  const def = getDefaultRegistry().routines(name).find((r) => r.kind === 'aggregate' && (r.args[0] === arg || r.args[0] === Oid.any));
  if (def === undefined || def.kind !== 'aggregate') throw new Error(`no ${name}(${arg})`);
  const argTypes = [sqlType(arg)];
  const type = typeof def.returns === 'function' ? def.returns(argTypes) : sqlType(def.returns === Oid.anyelement ? arg : def.returns);
  return { def, argTypes, type };
}

const AGGS = [agg('sum', Oid.numeric), agg('count', Oid.int4), agg('avg', Oid.int4), agg('max', Oid.text), agg('min', Oid.numeric)];
const KEY_OIDS = [Oid.int8, Oid.text];
type Row = readonly [bigint | null, string | null, Numeric | null, number | null, string | null];

/** `n` rows with keys repeating across tasks, NULLs in keys and arguments */
function rowsOf(task: number, n: number): Row[] {
  return Array.from({ length: n }, (_x, i): Row => {
    const j = task * 7 + i;
    return [j % 11 === 0 ? null : BigInt(j % 300), j % 13 === 0 ? null : `t${j % 4}`, j % 5 === 0 ? null : Numeric.parse(`${j}.${j % 100}`), j % 3 === 0 ? null : j, `s${j % 17}`];
  });
}

const argsOf = (r: Row): unknown[][] => [[r[2]], [r[3]], [r[3]], [r[4]], [r[2]]];

/** one task's groups as run-fragment.ts builds them */
function groupsOf(rows: readonly Row[]): { keys: unknown[]; states: AggregateState[] }[] {
  const byKey = new Map<string, { keys: unknown[]; states: AggregateState[] }>();
  for (const r of rows) {
    const k = `${r[0]}|${r[1]}`;
    let g = byKey.get(k);
    if (g === undefined) byKey.set(k, (g = { keys: [r[0], r[1]], states: AGGS.map((a) => a.def.create(ctx, a.argTypes, a.type)) }));
    argsOf(r).forEach((v, a) => { if (v[0] !== null) g.states[a]!.step(v); });
  }
  return [...byKey.values()];
}

const text = (v: unknown): string => (v === null ? 'NULL' : Numeric.isNumeric(v) ? v.toString() : String(v));

describe('hash-partitioned final aggregate (worker side)', () => {
  it('partitions, moves, merges and finalises to the serial answer', () => {
    const tasks = [0, 1, 2, 3].map((t) => rowsOf(t, 900));
    const serial = groupsOf(tasks.flat());
    const expected = serial.map((g) => [...g.keys, ...g.states.map((s) => s.final())].map(text).join('|')).sort();
    const parts = 3;
    // scan tasks: partitioned sets, moved to "the main thread"
    const partials = tasks.map((rows) => {
      const transfer: ArrayBufferLike[] = [];
      const p = partitionGroups(groupsOf(rows), KEY_OIDS, AGGS.length, parts, transfer);
      expect(transfer.length).toBeGreaterThan(0);
      return structuredClone(p, { transfer: transfer as ArrayBuffer[] }) as PartitionedPartial;
    });
    const aggregates: MergeAggregate[] = AGGS.map((a) => ({ def: keyOfBuiltin(a.def), argTypes: a.argTypes, type: a.type }));
    const got: string[] = [];
    const seen = new Set<string>();
    for (let p = 0; p < parts; p++) {
      const sets = partials.map((x) => x.parts[p]!).filter((s) => s.count > 0);
      const moved = structuredClone(sets, { transfer: buffersOfGroups(sets) as ArrayBuffer[] });
      const transfer: ArrayBufferLike[] = [];
      const m = mergePartition({ keyOids: KEY_OIDS, aggregates, eval: evalCtx, sets: moved }, () => false, transfer)!;
      const cols = m.columns.map(unpackColumn);
      for (let g = 0; g < m.count; g++) {
        const key = `${text(cols[0]![g])}|${text(cols[1]![g])}`;
        expect(seen.has(key)).toBe(false); // a key lives in one partition only
        seen.add(key);
        got.push(cols.map((c) => text(c[g])).join('|'));
      }
      expect(m.count).toBeGreaterThan(0);
    }
    expect(got.sort()).toEqual(expected);
  });

  it('stops when canceled', () => {
    const transfer: ArrayBufferLike[] = [];
    const p = partitionGroups(groupsOf(rowsOf(0, 40_000)), KEY_OIDS, AGGS.length, 1, transfer);
    const aggregates = AGGS.map((a) => ({ def: keyOfBuiltin(a.def), argTypes: a.argTypes, type: a.type }));
    expect(mergePartition({ keyOids: KEY_OIDS, aggregates, eval: evalCtx, sets: p.parts }, () => true, [])).toBeNull();
  });
});
