/**
 * The row loops of coded-product-sums.ts: per batch, rows counted (and a wide column summed) into cells of
 * group × dictionary codes, by group id (`gids`) or by the key cell a[i] · kb + b[i] of string keys' codes.
 * Each loop is a function of its own: a loop inside a longer function gets compiled on stack (OSR) with no
 * type feedback for the code after it, which then deoptimizes call after call.
 */

/** a cell's sum and a group's double part stay below this (GroupStates.mergeTyped's operand bound) */
export const PART_LIMIT = 2 ** 52;

/** per-row dictionary codes of a column (dictionary-scaled.ts) */
export type Codes = Uint8Array | Uint16Array | Int32Array;

/** cell[i] = gids[i] · k + codes[i] */
export function firstCodes(cell: Int32Array, gids: Int32Array, codes: Codes, k: number, n: number): void {
  for (let i = 0; i < n; i++) cell[i] = gids[i]! * k + codes[i]!;
}

/** cell[i] = cell[i] · k + codes[i] */
export function moreCodes(cell: Int32Array, codes: Codes, k: number, n: number): void {
  for (let i = 0; i < n; i++) cell[i] = cell[i]! * k + codes[i]!;
}

export function countCells(counts: Float64Array, at: Int32Array, n: number): boolean {
  for (let i = 0; i < n; i++) { const c = at[i]!; counts[c] = counts[c]! + 1; }
  return true;
}

export function countCells1(counts: Float64Array, gids: Int32Array, c0: Codes, k0: number, n: number): boolean {
  for (let i = 0; i < n; i++) { const c = gids[i]! * k0 + c0[i]!; counts[c] = counts[c]! + 1; }
  return true;
}

/** countCells1 of two code columns into two count tables, in one loop over the rows */
export function countCells1x2(ca: Float64Array, gids: Int32Array, c0: Codes, k0: number, cb: Float64Array, c1: Codes, k1: number, n: number): void {
  for (let i = 0; i < n; i++) {
    const g = gids[i]!, a = g * k0 + c0[i]!, b = g * k1 + c1[i]!;
    ca[a] = ca[a]! + 1;
    cb[b] = cb[b]! + 1;
  }
}

export function countCells2(counts: Float64Array, gids: Int32Array, c0: Codes, k0: number, c1: Codes, k1: number, n: number): boolean {
  for (let i = 0; i < n; i++) { const c = (gids[i]! * k0 + c0[i]!) * k1 + c1[i]!; counts[c] = counts[c]! + 1; }
  return true;
}

// the sums: exact, as integer operands whose sum stays below 2^52 add exactly; false when one would not

export function sumCells(sums: Float64Array, counts: Float64Array, at: Int32Array, f: Float64Array, n: number): boolean {
  for (let i = 0; i < n; i++) {
    const c = at[i]!, t = sums[c]! + f[i]!;
    if (t >= PART_LIMIT || t <= -PART_LIMIT) return false;
    sums[c] = t;
    counts[c] = counts[c]! + 1;
  }
  return true;
}

export function sumCells1(sums: Float64Array, counts: Float64Array, gids: Int32Array, c0: Codes, k0: number, f: Float64Array, n: number): boolean {
  for (let i = 0; i < n; i++) {
    const c = gids[i]! * k0 + c0[i]!, t = sums[c]! + f[i]!;
    if (t >= PART_LIMIT || t <= -PART_LIMIT) return false;
    sums[c] = t;
    counts[c] = counts[c]! + 1;
  }
  return true;
}

export function sumCells2(sums: Float64Array, counts: Float64Array, gids: Int32Array, c0: Codes, k0: number, c1: Codes, k1: number, f: Float64Array, n: number): boolean {
  for (let i = 0; i < n; i++) {
    const c = (gids[i]! * k0 + c0[i]!) * k1 + c1[i]!, t = sums[c]! + f[i]!;
    if (t >= PART_LIMIT || t <= -PART_LIMIT) return false;
    sums[c] = t;
    counts[c] = counts[c]! + 1;
  }
  return true;
}

// the same loops with the key cell a[i] · kb + b[i] of each row for its group (runByKeys)

export function countKeyCells1(counts: Float64Array, a: Int32Array, b: Int32Array, kb: number, c0: Codes, k0: number, n: number): void {
  for (let i = 0; i < n; i++) { const c = (a[i]! * kb + b[i]!) * k0 + c0[i]!; counts[c] = counts[c]! + 1; }
}

export function countKeyCells2(counts: Float64Array, a: Int32Array, b: Int32Array, kb: number, c0: Codes, k0: number, c1: Codes, k1: number, n: number): void {
  for (let i = 0; i < n; i++) { const c = ((a[i]! * kb + b[i]!) * k0 + c0[i]!) * k1 + c1[i]!; counts[c] = counts[c]! + 1; }
}

export function countKeyCells1x2(ca: Float64Array, a: Int32Array, b: Int32Array, kb: number, c0: Codes, k0: number, cb: Float64Array, c1: Codes, k1: number, n: number): void {
  for (let i = 0; i < n; i++) {
    const g = a[i]! * kb + b[i]!, x = g * k0 + c0[i]!, y = g * k1 + c1[i]!;
    ca[x] = ca[x]! + 1;
    cb[y] = cb[y]! + 1;
  }
}

export function sumKeyCells1(sums: Float64Array, counts: Float64Array, a: Int32Array, b: Int32Array, kb: number, c0: Codes, k0: number, f: Float64Array, n: number): boolean {
  for (let i = 0; i < n; i++) {
    const c = (a[i]! * kb + b[i]!) * k0 + c0[i]!, t = sums[c]! + f[i]!;
    if (t >= PART_LIMIT || t <= -PART_LIMIT) return false;
    sums[c] = t;
    counts[c] = counts[c]! + 1;
  }
  return true;
}

export function sumKeyCells2(sums: Float64Array, counts: Float64Array, a: Int32Array, b: Int32Array, kb: number, c0: Codes, k0: number, c1: Codes, k1: number, f: Float64Array, n: number): boolean {
  for (let i = 0; i < n; i++) {
    const c = ((a[i]! * kb + b[i]!) * k0 + c0[i]!) * k1 + c1[i]!, t = sums[c]! + f[i]!;
    if (t >= PART_LIMIT || t <= -PART_LIMIT) return false;
    sums[c] = t;
    counts[c] = counts[c]! + 1;
  }
  return true;
}

// a wide pass's sums together with a one-code count pass's counts, in one loop over the rows (TPC-H Q1: the sums of
// l_extendedprice by l_discount × l_tax and the counts of l_quantity's codes read each row's key codes once); false
// when a sum would pass PART_LIMIT — `qc` then holds only some rows' counts

export function sumKeyCells2Count1(sums: Float64Array, counts: Float64Array, a: Int32Array, b: Int32Array, kb: number, c0: Codes, k0: number, c1: Codes, k1: number, f: Float64Array, qc: Float64Array, q: Codes, kq: number, n: number): boolean {
  for (let i = 0; i < n; i++) {
    const g = a[i]! * kb + b[i]!, c = (g * k0 + c0[i]!) * k1 + c1[i]!, t = sums[c]! + f[i]!;
    if (t >= PART_LIMIT || t <= -PART_LIMIT) return false;
    sums[c] = t;
    counts[c] = counts[c]! + 1;
    const x = g * kq + q[i]!;
    qc[x] = qc[x]! + 1;
  }
  return true;
}

export function sumKeyCells1Count1(sums: Float64Array, counts: Float64Array, a: Int32Array, b: Int32Array, kb: number, c0: Codes, k0: number, f: Float64Array, qc: Float64Array, q: Codes, kq: number, n: number): boolean {
  for (let i = 0; i < n; i++) {
    const g = a[i]! * kb + b[i]!, c = g * k0 + c0[i]!, t = sums[c]! + f[i]!;
    if (t >= PART_LIMIT || t <= -PART_LIMIT) return false;
    sums[c] = t;
    counts[c] = counts[c]! + 1;
    const x = g * kq + q[i]!;
    qc[x] = qc[x]! + 1;
  }
  return true;
}

// the same for a batch of one key cell (every key code 0: a month of TPC-H lineitem after mid-1995 holds only
// N / O): the cells are the codes alone, no key code read per row

export function sumCodes2Count1(sums: Float64Array, counts: Float64Array, c0: Codes, c1: Codes, k1: number, f: Float64Array, qc: Float64Array, q: Codes, n: number): boolean {
  for (let i = 0; i < n; i++) {
    const c = c0[i]! * k1 + c1[i]!, t = sums[c]! + f[i]!;
    if (t >= PART_LIMIT || t <= -PART_LIMIT) return false;
    sums[c] = t;
    counts[c] = counts[c]! + 1;
    const x = q[i]!;
    qc[x] = qc[x]! + 1;
  }
  return true;
}

export function sumCodes1Count1(sums: Float64Array, counts: Float64Array, c0: Codes, f: Float64Array, qc: Float64Array, q: Codes, n: number): boolean {
  for (let i = 0; i < n; i++) {
    const c = c0[i]!, t = sums[c]! + f[i]!;
    if (t >= PART_LIMIT || t <= -PART_LIMIT) return false;
    sums[c] = t;
    counts[c] = counts[c]! + 1;
    const x = q[i]!;
    qc[x] = qc[x]! + 1;
  }
  return true;
}
