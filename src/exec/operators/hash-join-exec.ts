/**
 * HashJoinExec: equi-joins. Builds a hash table on one input (pipeline breaker), streams the other, then
 * checks the residual condition. NULL keys never match. Inner/left/right/full/semi/anti.
 *
 * By default the right input is built and the left streams. With `buildSide: 'left'` (the optimizer's
 * choose_build_side, when the left input is expected to be much smaller) the left input is built and the
 * right streams: a semi/anti join then marks the built rows that found a match and emits the marked
 * (unmarked) ones at the end — PostgreSQL's Hash Right Semi/Anti Join — so a small EXISTS outer side no longer
 * builds a hash table of the big subquery side (TPC-H Q4, Q21, Q22). When the right side aggregates by the
 * join key, the left's few keys also filter its input first (runtime-key-filter.ts; TPC-H Q17).
 */
import { nullColumn, type Batch } from '../../common/batch.ts';
import { someExpr, transformExpr, type Expr, type Join, type OpExpr } from '../../sql/index.ts';
import { checkAbort, queryMemory, type Env } from '../context.ts';
import { compileAll, type RowFn } from '../expr/compile-expr.ts';
import { concatBatches, joinBlock, unmatchedRight, type JoinCandidates } from '../join-core.ts';
import { IndexBuffer, take } from '../join-gather.ts';
import { buildJoinHashTable, type JoinHashTable } from '../join-hash-table.ts';
import { JoinResidual } from '../join-residual.ts';
import type { ExecOperator } from '../operator.ts';
import { explainKb, noteMemoryDetail } from '../memory/memory-explain.ts';
import type { MemoryReservation } from '../memory/memory-reservation.ts';
import { estimateBatchBytes } from '../memory/size-estimate.ts';
import { MAX_KEY_FILTER_KEYS, keyFilterFits, probeSideFilterable, runKeyFiltered, withKeyFilter } from '../runtime-key-filter.ts';
import { deadJoinColumns } from '../optimizer/prune-join-columns.ts';
import { KeyOnlyBuild, keyOnlyBuildColumn, keyOnlyValue, markKeyOnlyScan } from '../join-key-only.ts';
import { chunkAt, chunkedRows, chunksOf, isChunked, mapChunks, type BuiltRows, type ChunkedRows } from '../join-chunked-rows.ts';
import { builtKeyList } from '../join-key-list.ts';
import { hashedOnlyColumns, NO_HASHED_ONLY, type HashedOnlyColumns } from '../join-hashed-only.ts';
import { BuildOrderJoin } from '../join-build-order.ts';

export interface EquiKeys {
  /** over the left row */
  readonly left: readonly Expr[];
  /** over the right row (indexes rebased to the right input) */
  readonly right: readonly Expr[];
  /** the `=` of each key, as written in the condition */
  readonly ops: readonly OpExpr[];
  /** what is left of the condition, over the combined row */
  readonly residual: Expr | null;
}

/** true when a join can build on its left input (the residual is re-based onto the swapped row; subqueries in it may read the row) */
export function canBuildLeft(keys: EquiKeys, plan: Join): boolean {
  return !plan.lateral && (keys.residual === null || !someExpr(keys.residual, (x) => x.kind === 'Subquery'));
}

export class HashJoinExec implements ExecOperator {
  readonly name = 'HashJoinExec';
  constructor(
    private readonly plan: Join,
    private readonly keys: EquiKeys,
    private readonly left: ExecOperator,
    private readonly right: ExecOperator,
    private readonly env: Env,
  ) {}
  get children(): readonly ExecOperator[] { return [this.left, this.right]; }
  /** EXPLAIN ANALYZE: the runtime key filter handed to the right side, if any */
  #runtimeFilter: string | null = null;
  /** input columns nothing above the join reads (prune_join_columns): passed on as shared NULL columns */
  #deadLeft: readonly number[] = [];
  #deadRight: readonly number[] = [];
  /** the built input's column that arrived key-only (exact doubles, no BigInts: join-key-only.ts), or -1 */
  #keyOnly = -1;
  /** whether that column came key-only from the scan itself (markKeyOnlyScan) */
  #keyOnlyFromScan = false;
  /** input columns only the equi keys read: once hashed / looked up, passed on as shared NULL columns */
  #hashedOnly: HashedOnlyColumns = NO_HASHED_ONLY;
  /** whether the output went out in built order (join-build-order.ts) */
  #builtOrder = false;

  async *execute(): AsyncIterable<Batch> {
    // the build side and its hash table are held in the query's memory budget (53200 past it)
    const mem = queryMemory(this.env).reserve('Hash Join');
    const dead = deadJoinColumns(this.plan);
    if (dead !== null) {
      const lw = this.plan.left.columns.length;
      this.#deadLeft = dead.filter((i) => i < lw);
      this.#deadRight = dead.filter((i) => i >= lw).map((i) => i - lw);
    }
    this.#hashedOnly = hashedOnlyColumns(this.plan, this.keys.residual);
    this.#builtOrder = false;
    try {
      yield* this.plan.buildSide === 'left' && canBuildLeft(this.keys, this.plan) ? this.#runBuildLeft(mem) : this.#run(mem);
    } finally {
      const keyOnly = this.#keyOnly < 0 ? '' : this.#keyOnlyFromScan ? '  Build Key: exact doubles from the scan' : '  Build Key: exact doubles';
      const { names } = this.#hashedOnly;
      const hashedOnly = names.length === 0 ? '' : `  Keys Not Carried: ${names.join(', ')}`;
      const builtOrder = this.#builtOrder ? '  Output: built order' : '';
      noteMemoryDetail(this.env, this.plan, `Memory Usage: ${explainKb(mem.peak)}${this.#runtimeFilter ?? ''}${keyOnly}${hashedOnly}${builtOrder}`);
      mem.release();
    }
  }

  async #build(input: AsyncIterable<Batch>, width: number, keys: readonly Expr[], probeKeys: readonly Expr[], mem: MemoryReservation, dead: readonly number[], side: 'left' | 'right'): Promise<JoinHashTable> {
    let rbs: Batch[] = [];
    const keyOnlyColumn = keyOnlyBuildColumn(this.plan, this.keys, side);
    const keyOnly = keyOnlyColumn >= 0 ? new KeyOnlyBuild(keyOnlyColumn) : null;
    // a bare scan below makes the key column key-only itself, no BigInt per row (before its first batch is asked for)
    if (keyOnlyColumn >= 0) markKeyOnlyScan(side === 'left' ? this.plan.left : this.plan.right, keyOnlyColumn);
    for await (const raw of input) {
      checkAbort(this.env);
      let b = withNullColumns(raw, dead);
      if (keyOnly !== null) b = keyOnly.add(b);
      mem.grow(estimateBatchBytes(b));
      rbs.push(b);
    }
    if (keyOnly !== null) rbs = keyOnly.finish(rbs);
    this.#keyOnly = keyOnly?.keyOnly === true ? keyOnlyColumn : -1;
    this.#keyOnlyFromScan = keyOnly?.fromScan === true;
    // several batches are hashed where they arrived, not glued first (join-chunked-rows.ts); keys reading a
    // subquery prepare their runners over one batch
    const chunked = rbs.length > 1 && !keys.some((e) => someExpr(e, (x) => x.kind === 'Subquery'));
    const rows: BuiltRows = chunked ? chunkedRows(rbs) : concatBatches(rbs, width);
    const k = compileAll(keys, this.env);
    if (!isChunked(rows)) await k.prepare(rows);
    // the key types of the left side, as joinKeyReader always took them (int4 = int8 keys meet as numbers)
    const table = buildJoinHashTable(rows, k.fns, this.keys.left.map((e) => e.type.oid), probeKeys.map((e) => e.type.oid), plainColumns(keys));
    mem.grow(table.bytes);
    return table;
  }

  async *#run(mem: MemoryReservation): AsyncIterable<Batch> {
    const table = await this.#build(this.right.execute(), this.plan.right.columns.length, this.keys.right, this.keys.left, mem, this.#deadRight, 'right');
    try {
      yield* this.#probeBuiltRight(table);
    } finally {
      // the join is over (or abandoned: LIMIT, an error): its typed arrays go back for the next table
      table.release();
    }
  }

  async *#probeBuiltRight(table: JoinHashTable): AsyncIterable<Batch> {
    const lw = this.plan.left.columns.length;
    const rw = this.plan.right.columns.length;
    const jt = this.plan.joinType;
    const { next } = table;
    const lk = compileAll(this.keys.left, this.env);
    const probe = table.batchProber(lk.fns, plainColumns(this.keys.left));
    const cond = JoinResidual.of(this.keys.residual, this.env);
    const probeInput = await this.#probeInput(table, 'left');
    // a key-only column, and any column only the keys read, is read by nothing past the hash table: NULLs go out
    const rb = withNullRows(table.rows, this.#keyOnly >= 0 ? [this.#keyOnly, ...this.#hashedOnly.right] : this.#hashedOnly.right);
    const matched = jt === 'right' || jt === 'full' ? new Uint8Array(rb.length) : null;
    // output in built order while each built row meets one probe row (join-build-order.ts)
    let order = BuildOrderJoin.of(jt, cond, rb);
    for await (const raw of probeInput) {
      checkAbort(this.env);
      const lb = withNullColumns(raw, this.#deadLeft);
      await lk.prepare(lb);
      const firsts = probe(lb.columns, lb.length);
      // the probe keys are looked up: columns only they read go on as NULLs
      const pb = withNullColumns(lb, this.#hashedOnly.left);
      if (order !== null) {
        if (order.add(pb, firsts, next)) continue;
        for (const k of order.kept()) for (const b of await joinBlock(jt, k.batch, rb, lw, rw, candidatesOf(k.firsts, next), cond, matched)) yield b;
        order = null;
      }
      for (const b of await joinBlock(jt, pb, rb, lw, rw, candidatesOf(firsts, next), cond, matched)) yield b;
    }
    if (order !== null) {
      this.#builtOrder = true;
      yield* order.finish(lw, rw);
    }
    if (matched) { const u = unmatchedRight(rb, matched, lw, rw); if (u) yield u; }
  }

  /** builds the left input, streams the right; joinBlock sees the right batch as its probe ("left") side */
  async *#runBuildLeft(mem: MemoryReservation): AsyncIterable<Batch> {
    const table = await this.#build(this.left.execute(), this.plan.left.columns.length, this.keys.left, this.keys.right, mem, this.#deadLeft, 'left');
    try {
      yield* this.#probeBuiltLeft(table);
    } finally {
      table.release();
    }
  }

  async *#probeBuiltLeft(table: JoinHashTable): AsyncIterable<Batch> {
    const lw = this.plan.left.columns.length;
    const rw = this.plan.right.columns.length;
    const jt = this.plan.joinType;
    const { next } = table;
    // the combined row joinBlock forms is [right, left]: re-base the residual, and put emitted columns back
    const swapped = this.keys.residual && transformExpr(this.keys.residual, (x) => (x.kind === 'ColumnRef' && x.levelsUp === 0 ? { ...x, index: x.index < lw ? x.index + rw : x.index - lw } : undefined));
    const cond = JoinResidual.of(swapped, this.env);
    const back = (b: Batch): Batch => ({ columns: [...b.columns.slice(rw), ...b.columns.slice(0, rw)], length: b.length });
    const probeType = jt === 'semi' || jt === 'anti' ? 'mark' : jt === 'right' || jt === 'full' ? 'left' : 'inner';
    const matched = jt === 'inner' || jt === 'right' ? null : new Uint8Array(table.rows.length);
    const rk = compileAll(this.keys.right, this.env);
    const probe = table.batchProber(rk.fns, plainColumns(this.keys.right));
    const probeInput = await this.#probeInput(table, 'right');
    // a key-only column, and any column only the keys read, is read by nothing past the hash table: NULLs go out
    const lb = withNullRows(table.rows, this.#keyOnly >= 0 ? [this.#keyOnly, ...this.#hashedOnly.left] : this.#hashedOnly.left);
    // output in built order while each built row meets one probe row (join-build-order.ts; TPC-H Q9's orders join)
    let order = BuildOrderJoin.of(probeType, cond, lb);
    for await (const raw of probeInput) {
      checkAbort(this.env);
      const rb = withNullColumns(raw, this.#deadRight);
      await rk.prepare(rb);
      const firsts = probe(rb.columns, rb.length);
      // the probe keys are looked up: columns only they read go on as NULLs
      const pb = withNullColumns(rb, this.#hashedOnly.right);
      if (order !== null) {
        if (order.add(pb, firsts, next)) continue;
        for (const k of order.kept()) for (const b of await joinBlock(probeType, k.batch, lb, rw, lw, candidatesOf(k.firsts, next), cond, matched)) yield back(b);
        order = null;
      }
      for (const b of await joinBlock(probeType, pb, lb, rw, lw, candidatesOf(firsts, next), cond, matched)) yield back(b);
    }
    if (order !== null) {
      this.#builtOrder = true;
      for (const b of order.finish(rw, lw)) yield back(b);
    }
    if (matched === null) return;
    if (jt === 'left' || jt === 'full') {
      const u = unmatchedRight(lb, matched, rw, lw);
      if (u) yield back(u);
      return;
    }
    const want = jt === 'semi' ? 1 : 0;
    const idx = new IndexBuffer(1024);
    for (let i = 0; i < lb.length; i++) if (matched[i] === want) idx.push(i);
    if (idx.length > 0) yield { columns: take(lb, idx.view(), idx.length, lw, false), length: idx.length };
  }

  /**
   * the probe input (`side`), filtered by the built keys (runtime-key-filter.ts): the right input of a join
   * built left, or the left input of an inner / right / semi join built right from a filtered input
   */
  async #probeInput(table: JoinHashTable, side: 'left' | 'right'): Promise<AsyncIterable<Batch>> {
    const jt = this.plan.joinType;
    const input = side === 'right' ? this.right : this.left;
    const [probeKeys, buildKeys] = side === 'right' ? [this.keys.right, this.keys.left] : [this.keys.left, this.keys.right];
    if (table.size > MAX_KEY_FILTER_KEYS) return input.execute();
    if (side === 'right' ? jt === 'right' || jt === 'full' : !probeSideFilterable(this.plan)) return input.execute();
    const k = probeKeys.findIndex((e, i) => e.kind === 'ColumnRef' && e.levelsUp === 0 && sameTypeEq(this.keys.ops[i]!));
    if (k < 0) return input.execute();
    const target = side === 'right' ? this.plan.right : this.plan.left;
    const key = probeKeys[k] as { index: number; name: string };
    // one key column: exactly table.size distinct keys — a filter refused for their number costs no pass over the table
    if (buildKeys.length === 1 && !keyFilterFits(target, key.index, this.keys.ops[k]!, table.size)) return input.execute();
    // one integer key column: the table's distinct keys as one marked key list, no row read (join-key-list.ts)
    const values = (buildKeys.length === 1 ? builtKeyList(table, buildKeys[0]!.type.oid) : null) ?? await this.#builtValues(table, buildKeys[k]!, buildKeys.length === 1);
    const filtered = withKeyFilter(target, key.index, this.keys.ops[k]!, values);
    if (filtered === null) return input.execute();
    this.#runtimeFilter = `  Runtime Filter: ${key.name} (${values.length} value${values.length === 1 ? '' : 's'})`;
    return runKeyFiltered(filtered, this.env);
  }

  /** the distinct values of `buildKey` among the built rows (distinct per whole key is enough: duplicates only repeat) */
  async #builtValues(table: JoinHashTable, buildKey: Expr, onlyKey: boolean): Promise<unknown[]> {
    const lk = compileAll([buildKey], this.env);
    const rows = table.rows;
    if (!isChunked(rows)) await lk.prepare(rows);
    // one key column: the heads are one row per distinct key already, no set needed
    const seen = onlyKey ? null : new Set<unknown>();
    // a key-only build column (join-key-only.ts) holds placeholders: its values are made from the doubles
    const keyOnly = this.#keyOnly >= 0 && onlyKey ? this.#keyOnly : -1;
    return headValues(table.heads(), chunksOf(rows), lk.fns[0]!, keyOnly, seen);
  }
}

/**
 * #builtValues' loop (its own function: see TEAM-NOTES on OSR): the key of each head row `r` of the built chunks —
 * row r − starts[c] of chunk c —, read by `fn` or, for a key-only column, made from its doubles; NULLs skipped, and
 * repeats when `seen` is given
 */
function headValues(heads: Int32Array, rows: ChunkedRows, fn: RowFn, keyOnly: number, seen: Set<unknown> | null): unknown[] {
  const { chunks, starts } = rows;
  const values: unknown[] = [];
  for (let q = 0; q < heads.length; q++) {
    const r = heads[q]!;
    const c = chunks.length === 1 ? 0 : chunkAt(starts, r);
    const chunk = chunks[c]!, j = r - starts[c]!;
    const v = keyOnly >= 0 ? keyOnlyValue(chunk.columns[keyOnly]!, chunk.length, j) : fn(chunk.columns, j);
    if (v === null || v === undefined) continue;
    if (seen !== null) {
      const key = typeof v === 'object' ? String(v) : v;
      if (seen.has(key)) continue;
      seen.add(key);
    }
    values.push(v);
  }
  return values;
}

/** joinBlock's candidates from a prober's first rows and the table's chains */
function candidatesOf(firsts: Int32Array, next: Int32Array): JoinCandidates {
  return { first: (i: number): number => firsts[i]!, next };
}

/** `b` with the columns `dead` as shared NULL columns (join-gather.ts and batch-concat.ts copy none of them) */
function withNullColumns(b: Batch, dead: readonly number[]): Batch {
  if (dead.length === 0) return b;
  const columns = b.columns.slice();
  const nulls = nullColumn(b.length);
  for (const c of dead) if (c < columns.length) columns[c] = nulls;
  return { columns, length: b.length };
}

/** withNullColumns for every batch of a build side */
function withNullRows(rows: BuiltRows, dead: readonly number[]): BuiltRows {
  if (dead.length === 0) return rows;
  return isChunked(rows) ? mapChunks(rows, (b) => withNullColumns(b, dead)) : withNullColumns(rows, dead);
}

/** per key: the input column it reads as is, or -1 (computed) */
function plainColumns(keys: readonly Expr[]): number[] {
  return keys.map((e) => (e.kind === 'ColumnRef' && e.levelsUp === 0 ? e.index : -1));
}

function sameTypeEq(op: OpExpr): boolean {
  return op.leftType !== null && op.leftType.oid === op.rightType.oid;
}
