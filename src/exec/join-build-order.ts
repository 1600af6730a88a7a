/**
 * An inner hash join's output in the order of its built rows, when each built row meets at most one probe row
 * (issue #4, TPC-H Q9 at SF 1: the 327,716 lineitem ⋈ partsupp ⋈ part ⋈ supplier ⋈ nation rows are built and probed
 * by the 294,053 orders their keys select — every built row meets its one order). Gathered in probe order, every live
 * built column is copied row by row out of ~80 chunks in random order (join-chunked-rows.ts takeChunkedColumn: about
 * a tenth of Q9's main thread). Emitted per built chunk instead, a chunk whose every row met its probe row goes out
 * as it is — its column arrays, no copy — beside the probe side's columns gathered for its rows; only the probe side
 * (Q9: o_orderdate) is copied.
 *
 * Whether each built row meets at most one probe row is seen only while probing (a probe side unique on the key, as
 * orders on o_orderkey, guarantees it): the probe batches are kept with their candidates until the end, and at the
 * first built row met twice — or when more probe rows are kept than KEPT_ROWS_PER_BUILT_ROW allows — the caller
 * joins the kept batches as usual (`kept()`) and goes on as usual. Inner joins without a residual only: the output
 * is the same multiset of rows, in another order (a join promises none).
 */
import { nullColumn, type Batch } from '../common/batch.ts';
import type { JoinType } from '../sql/index.ts';
import { chunkedRows, chunksOf, type BuiltRows } from './join-chunked-rows.ts';
import { take } from './join-gather.ts';
import type { JoinResidual } from './join-residual.ts';

/** smaller built sides are gathered as usual: little to save, and their output keeps the probe order */
const MIN_BUILT_ROWS = 32_768;
/** probe rows kept (matched or not, in the batches that matched) per built row before giving up: bounds the memory */
const KEPT_ROWS_PER_BUILT_ROW = 2;

/** a probe batch kept with its first candidates (the prober's array is reused by its next call) */
export interface KeptProbe {
  readonly batch: Batch;
  readonly firsts: Int32Array;
}

export class BuildOrderJoin {
  /** per built row: 1 + its probe row's number among the kept batches' rows, 0 while none met it */
  readonly #probeOf: Int32Array;
  readonly #kept: KeptProbe[] = [];
  #keptRows = 0;

  private constructor(private readonly built: BuiltRows) {
    this.#probeOf = new Int32Array(built.length);
  }

  /** the helper for a join of this type over `built`, or null when it is joined as usual */
  static of(joinType: JoinType | 'mark', cond: JoinResidual | null, built: BuiltRows): BuildOrderJoin | null {
    return joinType === 'inner' && cond === null && built.length >= MIN_BUILT_ROWS ? new BuildOrderJoin(built) : null;
  }

  /**
   * records the pairs of probe batch `probe` (`firsts[i]`: the first built row with row i's key, then `next`); false
   * when a built row meets a second probe row or too many probe rows are kept: the caller then joins `kept()` and this
   * batch as usual, and every later one (the pairs of this batch recorded before the second meeting are left behind,
   * unread: finish() is never called after a false)
   */
  add(probe: Batch, firsts: Int32Array, next: Int32Array): boolean {
    const n = probe.length;
    if (this.#keptRows + n > KEPT_ROWS_PER_BUILT_ROW * this.built.length) return false;
    const met = recordPairs(this.#probeOf, firsts, next, n, this.#keptRows);
    if (met < 0) return false;
    if (met > 0) {
      this.#kept.push({ batch: probe, firsts: firsts.slice(0, n) });
      this.#keptRows += n;
    }
    return true;
  }

  /** the probe batches recorded so far (to be joined as usual after add() said false) */
  kept(): readonly KeptProbe[] {
    return this.#kept;
  }

  /** the join's output, [probe columns, built columns], a batch per built chunk that met probe rows */
  finish(probeWidth: number, builtWidth: number): Batch[] {
    const out: Batch[] = [];
    if (this.#kept.length === 0) return out;
    const probes = chunkedRows(this.#kept.map((k) => k.batch));
    const { chunks, starts } = chunksOf(this.built);
    for (let c = 0; c < chunks.length; c++) {
      const chunk = chunks[c]!;
      const local = new Int32Array(chunk.length), probeRows = new Int32Array(chunk.length);
      const m = metRows(this.#probeOf, starts[c]!, chunk.length, local, probeRows);
      if (m === 0) continue;
      const builtCols = m === chunk.length ? widthOf(chunk, builtWidth) : take(chunk, local, m, builtWidth, false);
      out.push({ columns: [...take(probes, probeRows, m, probeWidth, false), ...builtCols], length: m });
    }
    return out;
  }
}

/**
 * probeOf[j] = at + i + 1 for each built row j on probe row i's chain; -1 at the first row met twice, else how many
 * pairs (a loop of its own: see TEAM-NOTES on OSR)
 */
function recordPairs(probeOf: Int32Array, firsts: Int32Array, next: Int32Array, n: number, at: number): number {
  let met = 0;
  for (let i = 0; i < n; i++) {
    for (let j = firsts[i]!; j >= 0; j = next[j]!) {
      if (probeOf[j] !== 0) return -1;
      probeOf[j] = at + i + 1;
      met++;
    }
  }
  return met;
}

/** the rows of built chunk [start, start + len) that met a probe row: their local numbers and probe rows; how many */
function metRows(probeOf: Int32Array, start: number, len: number, local: Int32Array, probeRows: Int32Array): number {
  let m = 0;
  for (let r = 0; r < len; r++) {
    const p = probeOf[start + r]!;
    if (p === 0) continue;
    local[m] = r;
    probeRows[m++] = p - 1;
  }
  return m;
}

/** the first `width` columns of `b` as they are (missing ones NULL) */
function widthOf(b: Batch, width: number): (readonly unknown[])[] {
  const out = new Array<readonly unknown[]>(width);
  for (let c = 0; c < width; c++) out[c] = b.columns[c] ?? nullColumn(b.length);
  return out;
}
