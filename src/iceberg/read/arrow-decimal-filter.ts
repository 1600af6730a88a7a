/**
 * `decimal_col op constant` judged on Decimal128 words, without making Numerics: TPC-H Q6's
 * `l_discount BETWEEN 0.05 AND 0.07 AND l_quantity < 24` and Q19's quantity ranges built one Numeric per row
 * to compare it. The constant becomes an integer bound at the column's scale: exact when its scale is at most
 * the column's, else the unscaled value lies strictly between q and q + 1 (q = floor(constant · 10^s)) and
 * never equals it. Unscaled values within ±2^53 compare as doubles (most decimals), the rest as bigints.
 */
import { Type, type Data, type DataType } from 'apache-arrow';
import { Numeric, pow10 } from '../../common/pgtypes/numeric.ts';
import { compareOpTest, type BoundPredicate } from '../scan/bound-predicate.ts';
import { decimalWordsToBigInt } from './arrow-fast-columns.ts';
import { EXACT, NOTHING, isNullAt, validity, type ArrowNode } from './arrow-leaf.ts';
import { exactDoublesOf } from './exact-doubles.ts';

const TWO32 = 4294967296;
/** high word bounds of values in [-2^53, 2^53) (see arrow-fast-columns.ts) */
const HI53 = 0x200000;
const NEG_HI53 = 0xffe00000;
const SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** floor(a / b) for b > 0 */
function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n ? q - 1n : q;
}

/** the constant against unscaled values of scale `scale`: bound q, and whether it is the value itself */
function boundAt(c: Numeric, scale: number): { q: bigint; exact: boolean } {
  if (c.scale <= scale) return { q: c.unscaled * pow10(scale - c.scale), exact: true };
  const f = pow10(c.scale - scale);
  return { q: floorDiv(c.unscaled, f), exact: c.unscaled % f === 0n };
}

export function decimalLeaf(p: BoundPredicate, c: number): ArrowNode | null {
  if (p.kind !== 'compare' || p.type.name !== 'decimal' || !Numeric.isNumeric(p.value) || !p.value.isFinite() || p.value.scale < 0) return null;
  // the scale the JS values take (arrow-fast-columns.ts converts with the Iceberg type's)
  const scale = p.type.scale ?? 0;
  const { q, exact } = boundAt(p.value, scale);
  const qn = q >= -SAFE && q <= SAFE ? Number(q) : null;
  const test = compareOpTest(p.op);
  return (data, _length, sel) => {
    const d = data[c];
    const type = d?.type as (DataType & { bitWidth?: number; scale?: number }) | undefined;
    if (d === undefined || d.typeId !== Type.Decimal || type?.bitWidth !== 128 || (type.scale ?? 0) !== scale) return NOTHING;
    const bm = validity(d), off = d.offset, rows = sel.rows;
    let m = 0;
    // the decoder's exact doubles (exact-doubles.ts): no words read or built
    const doubles = qn === null ? undefined : exactDoublesOf(d);
    if (doubles !== undefined) {
      for (let k = 0; k < sel.n; k++) {
        const i = rows[k]!;
        if (bm !== null && isNullAt(bm, off + i)) continue;
        const u = doubles[i]!;
        let cmp = u < qn! ? -1 : u > qn! ? 1 : 0;
        if (!exact) cmp = cmp <= 0 ? -1 : 1;
        if (test(cmp)) rows[m++] = i;
      }
      sel.n = m;
      return EXACT;
    }
    if (!(d.values instanceof Uint32Array)) return NOTHING;
    const vals = d.values;
    for (let k = 0; k < sel.n; k++) {
      const i = rows[k]!;
      if (bm !== null && isNullAt(bm, off + i)) continue;
      const at = i * 4;
      const w1 = vals[at + 1]!, w2 = vals[at + 2]!, w3 = vals[at + 3]!;
      let cmp: number;
      if (qn !== null && w3 === 0 && w2 === 0 && w1 < HI53) {
        const u = w1 * TWO32 + vals[at]!;
        cmp = u < qn ? -1 : u > qn ? 1 : 0;
      } else if (qn !== null && w3 === 0xffffffff && w2 === 0xffffffff && w1 >= NEG_HI53) {
        const u = (w1 - TWO32) * TWO32 + vals[at]!;
        cmp = u < qn ? -1 : u > qn ? 1 : 0;
      } else {
        const u = decimalWordsToBigInt(vals, at, 4);
        cmp = u < q ? -1 : u > q ? 1 : 0;
      }
      // not exact: the constant lies strictly between q and q + 1
      if (!exact) cmp = cmp <= 0 ? -1 : 1;
      if (test(cmp)) rows[m++] = i;
    }
    sel.n = m;
    return EXACT;
  };
}
