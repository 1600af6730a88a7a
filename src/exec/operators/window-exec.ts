/**
 * WindowExec (pipeline breaker): materializes the input, then for each window function partitions the rows,
 * sorts each partition and computes the function per row, appending one column per function.
 * Frames: ROWS/GROUPS/RANGE with UNBOUNDED/CURRENT ROW (and ROWS/GROUPS offsets); PostgreSQL's default frame
 * (RANGE UNBOUNDED PRECEDING .. CURRENT ROW, i.e. up to the last peer) is computed incrementally.
 */
import type { Batch } from '../../common/batch.ts';
import { pgError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import type { FrameBound, RangeOffsetOps, Window, WindowFuncExpr } from '../../sql/index.ts';
import { compareValues } from '../../functions/index.ts';
import { BATCH_SIZE, checkAbort, queryMemory, type Env } from '../context.ts';
import { compileAll, compileExpr } from '../expr/compile-expr.ts';
import { compareKeys, type KeySpec } from '../expr/sort-compare.ts';
import { concatBatches } from '../join-core.ts';
import { rowKey, ONE_ROW } from '../batch-util.ts';
import type { ExecOperator } from '../operator.ts';
import type { MemoryReservation } from '../memory/memory-reservation.ts';
import { estimateBatchBytes, OBJECT_BYTES, SLOT_BYTES } from '../memory/size-estimate.ts';

export class WindowExec implements ExecOperator {
  readonly name = 'WindowExec';
  constructor(private readonly plan: Window, private readonly input: ExecOperator, private readonly env: Env) {}
  get children(): readonly ExecOperator[] { return [this.input]; }

  async *execute(): AsyncIterable<Batch> {
    // the input rows and each function's sort state are held in the query's memory budget (53200 past it)
    const mem = queryMemory(this.env).reserve('WindowAgg');
    try {
      yield* this.#run(mem);
    } finally {
      mem.release();
    }
  }

  async *#run(mem: MemoryReservation): AsyncIterable<Batch> {
    const inWidth = this.plan.input.columns.length;
    const bs: Batch[] = [];
    for await (const b of this.input.execute()) { checkAbort(this.env); mem.grow(estimateBatchBytes(b)); bs.push(b); }
    const all = concatBatches(bs, inWidth);
    const extra: unknown[][] = [];
    for (const f of this.plan.functions) {
      // per row while computing: partition key, order key array, sort index, peer bounds, frame; kept: the result column
      const working = all.length * (OBJECT_BYTES * 3 + (f.spec.orderBy.length + 8) * SLOT_BYTES);
      mem.grow(working);
      extra.push(await this.#compute(f, all));
      mem.shrink(working);
      mem.grow(all.length * SLOT_BYTES * 2);
    }
    const cols = [...all.columns, ...extra];
    for (let s = 0; s < all.length; s += BATCH_SIZE) {
      const e = Math.min(all.length, s + BATCH_SIZE);
      yield { columns: cols.map((c) => c.slice(s, e)), length: e - s };
    }
  }

  async #compute(f: WindowFuncExpr, all: Batch): Promise<unknown[]> {
    const env = this.env;
    const part = compileAll(f.spec.partitionBy, env);
    const ord = compileAll(f.spec.orderBy.map((o) => o.expr), env);
    const args = compileAll(f.args, env);
    const filter = f.filter ? compileExpr(f.filter, env) : null;
    await part.prepare(all);
    await ord.prepare(all);
    await args.prepare(all);
    if (filter?.prepare) await filter.prepare(all);
    const specs: KeySpec[] = f.spec.orderBy.map((o) => ({ oid: o.expr.type.oid, descending: o.descending, nullsFirst: o.nullsFirst }));
    const partOids = f.spec.partitionBy.map((p) => p.type.oid);
    const partitions = new Map<string, number[]>();
    for (let i = 0; i < all.length; i++) {
      const k = rowKey(part.fns.map((fn) => fn(all.columns, i)), partOids);
      const l = partitions.get(k);
      if (l) l.push(i); else partitions.set(k, [i]);
    }
    const orderKey = (i: number): unknown[] => ord.fns.map((fn) => fn(all.columns, i));
    const argv = (i: number): unknown[] => args.fns.map((fn) => fn(all.columns, i));
    const rawOffset = async (b: FrameBound, which: string): Promise<unknown> => {
      if (b.kind !== 'preceding' && b.kind !== 'following') return 0;
      const c = compileExpr(b.offset, env);
      if (c.prepare) await c.prepare(ONE_ROW);
      const v = c.fn([], 0);
      if (v === null) throw pgError(SqlState.null_value_not_allowed, `frame ${which} offset must not be null`);
      return v;
    };
    const offsets = async (b: FrameBound, which: string): Promise<number> => {
      const v = await rawOffset(b, which);
      if (b.kind !== 'preceding' && b.kind !== 'following') return 0;
      if (b.range !== undefined) return 0;
      const n = Number(v as bigint);
      if (n < 0) throw pgError('22013', `frame ${which} offset must not be negative`);
      return n;
    };
    const startOff = await offsets(f.spec.frame.start, 'starting');
    const endOff = await offsets(f.spec.frame.end, 'ending');
    const startRaw = f.spec.frame.start.kind === 'preceding' || f.spec.frame.start.kind === 'following' ? await rawOffset(f.spec.frame.start, 'starting') : null;
    const endRaw = f.spec.frame.end.kind === 'preceding' || f.spec.frame.end.kind === 'following' ? await rawOffset(f.spec.frame.end, 'ending') : null;
    const descending = f.spec.orderBy[0]?.descending ?? false;
    const ctx = env.ctx;
    const out = new Array<unknown>(all.length).fill(null);
    for (const rows of partitions.values()) {
      const keys = rows.map(orderKey);
      const idx = rows.map((_, k) => k).sort((a, b) => compareKeys(specs, keys[a]!, keys[b]!));
      const sorted = idx.map((k) => rows[k]!);
      const sk = idx.map((k) => keys[k]!);
      const n = sorted.length;
      // peer groups: peerStart[k]..peerEnd[k] (exclusive) share the ORDER BY values
      const peerStart = new Array<number>(n);
      const peerEnd = new Array<number>(n);
      const groupNo = new Array<number>(n);
      for (let k = 0, g = 0; k < n; g++) {
        let e = k + 1;
        while (e < n && compareKeys(specs, sk[k]!, sk[e]!) === 0) e++;
        for (let j = k; j < e; j++) { peerStart[j] = k; peerEnd[j] = e; groupNo[j] = g; }
        k = e;
      }
      const groupStarts: number[] = [];
      for (let k = 0; k < n; k++) if (peerStart[k] === k) groupStarts.push(k);
      const frame = (k: number): [number, number] => {
        const { mode, start, end } = f.spec.frame;
        const bound = (b: FrameBound, isStart: boolean, off: number): number => {
          switch (b.kind) {
            case 'unboundedPreceding': return 0;
            case 'unboundedFollowing': return n;
            case 'currentRow': return mode === 'rows' ? (isStart ? k : k + 1) : isStart ? peerStart[k]! : peerEnd[k]!;
            case 'preceding': case 'following': {
              if (b.range !== undefined) return rangeBound(b.range, b.kind, isStart ? startRaw : endRaw, isStart, k);
              const d = b.kind === 'preceding' ? -off : off;
              if (mode === 'rows') return Math.min(n, Math.max(0, isStart ? k + d : k + d + 1));
              const g = groupNo[k]! + d;
              if (g < 0) return isStart ? 0 : 0;
              if (g >= groupStarts.length) return n;
              return isStart ? groupStarts[g]! : peerEnd[groupStarts[g]!]!;
            }
          }
        };
        return [bound(start, true, startOff), bound(end, false, endOff)];
      };
      /** RANGE offset: first row whose key is within the bound (start) / one past the last (end); NULL keys frame their peers */
      const rangeBound = (ops: RangeOffsetOps, kind: 'preceding' | 'following', off: unknown, isStart: boolean, k: number): number => {
        const v = sk[k]![0] ?? null;
        if (v === null) return isStart ? peerStart[k]! : peerEnd[k]!;
        // in sort order, "preceding" is towards smaller values for ASC and larger ones for DESC
        const towardsSmaller = (kind === 'preceding') !== descending;
        const limit = (towardsSmaller ? ops.minus : ops.plus).impl(v, off, ctx, ops.keyType, ops.offsetType);
        const keyAt = (j: number): unknown => {
          const x = sk[j]![0] ?? null;
          return x === null || ops.keyCast === null ? x : ops.keyCast(x, -1, ctx);
        };
        const oid = ops.resultType.oid;
        // inside(j): key j lies on the allowed side of the limit, in sort order
        const inside = (j: number): boolean => {
          const x = keyAt(j);
          if (x === null) return false;
          const c = compareValues(oid, x, limit);
          const afterLimit = descending ? c <= 0 : c >= 0;
          const beforeLimit = descending ? c >= 0 : c <= 0;
          return isStart ? afterLimit : beforeLimit;
        };
        if (isStart) {
          let j = 0;
          while (j < n && (sk[j]![0] === null || sk[j]![0] === undefined || !inside(j))) j++;
          return j;
        }
        let j = n - 1;
        while (j >= 0 && (sk[j]![0] === null || sk[j]![0] === undefined || !inside(j))) j--;
        return j + 1;
      };
      this.#fill(f, sorted, n, peerStart, peerEnd, groupNo, groupStarts.length, frame, argv, filter === null ? null : (i) => filter.fn(all.columns, i) === true, out);
    }
    return out;
  }

  #fill(
    f: WindowFuncExpr, sorted: number[], n: number, peerStart: number[], peerEnd: number[], groupNo: number[], groups: number,
    frame: (k: number) => [number, number], argv: (i: number) => unknown[], filterOk: ((i: number) => boolean) | null, out: unknown[],
  ): void {
    const ctx = this.env.ctx;
    switch (f.name) {
      case 'row_number': if (f.agg === null) { sorted.forEach((r, k) => { out[r] = BigInt(k + 1); }); return; } break;
      case 'rank': if (f.agg === null) { sorted.forEach((r, k) => { out[r] = BigInt(peerStart[k]! + 1); }); return; } break;
      case 'dense_rank': if (f.agg === null) { sorted.forEach((r, k) => { out[r] = BigInt(groupNo[k]! + 1); }); return; } break;
      case 'percent_rank': if (f.agg === null) { sorted.forEach((r, k) => { out[r] = n > 1 ? peerStart[k]! / (n - 1) : 0; }); return; } break;
      case 'cume_dist': if (f.agg === null) { sorted.forEach((r, k) => { out[r] = peerEnd[k]! / n; }); return; } break;
      case 'ntile': if (f.agg === null) {
        sorted.forEach((r, k) => {
          const buckets = argv(r)[0] as number | null;
          if (buckets === null) { out[r] = null; return; }
          if (buckets <= 0) throw pgError('22014', 'argument of ntile must be greater than zero');
          const per = Math.floor(n / buckets);
          const extra = n % buckets;
          const big = extra * (per + 1);
          out[r] = k < big ? Math.floor(k / (per + 1)) + 1 : extra + Math.floor((k - big) / Math.max(per, 1)) + 1;
        });
        return;
      } break;
      case 'lag': case 'lead': if (f.agg === null) {
        sorted.forEach((r, k) => {
          const a = argv(r);
          const off = a.length > 1 ? (a[1] as number | null) : 1;
          if (off === null) { out[r] = null; return; }
          const t = k + (f.name === 'lag' ? -off : off);
          out[r] = t >= 0 && t < n ? argv(sorted[t]!)[0] ?? null : a.length > 2 ? a[2] ?? null : null;
        });
        return;
      } break;
      case 'first_value': case 'last_value': case 'nth_value': if (f.agg === null) {
        sorted.forEach((r, k) => {
          const [s, e] = frame(k);
          if (e <= s) { out[r] = null; return; }
          if (f.name === 'first_value') out[r] = argv(sorted[s]!)[0] ?? null;
          else if (f.name === 'last_value') out[r] = argv(sorted[e - 1]!)[0] ?? null;
          else {
            const nth = argv(r)[1] as number | null;
            if (nth !== null && nth <= 0) throw pgError('22016', 'argument of nth_value must be greater than zero');
            out[r] = nth === null || s + nth - 1 >= e ? null : argv(sorted[s + nth - 1]!)[0] ?? null;
          }
        });
        return;
      } break;
      default: break;
    }
    void groups;
    const def = f.agg!;
    const strict = def.strict !== false;
    const stepRow = (st: ReturnType<typeof def.create>, i: number): void => {
      if (filterOk && !filterOk(i)) return;
      const a = argv(i);
      if (strict && a.some((v) => v === null)) return;
      st.step(a);
    };
    // incremental when every frame starts at 0 and ends never move backwards (the default frame)
    const frames = sorted.map((_, k) => frame(k));
    const incremental = frames.every(([s], k) => s === 0 && (k === 0 || frames[k]![1] >= frames[k - 1]![1]));
    if (incremental) {
      const st = def.create(ctx, f.argTypes, f.type);
      let upto = 0;
      let last: unknown = null;
      let lastEnd = -1;
      for (let k = 0; k < n; k++) {
        const e = frames[k]![1];
        while (upto < e) stepRow(st, sorted[upto++]!);
        if (e !== lastEnd) { last = st.final() ?? null; lastEnd = e; }
        out[sorted[k]!] = last;
      }
      return;
    }
    for (let k = 0; k < n; k++) {
      const [s, e] = frames[k]!;
      const st = def.create(ctx, f.argTypes, f.type);
      for (let j = s; j < e; j++) stepRow(st, sorted[j]!);
      out[sorted[k]!] = st.final() ?? null;
    }
  }
}
