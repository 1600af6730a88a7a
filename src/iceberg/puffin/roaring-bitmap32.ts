/**
 * A 32-bit Roaring bitmap in the "portable" serialization (RoaringFormatSpec § General layout), the inner
 * bitmap of an Iceberg deletion vector. Values are kept as a sorted array of distinct unsigned 32-bit ints;
 * serialization groups them by their high 16 bits into containers:
 *   array  (cardinality <= 4096): cardinality × uint16 LE
 *   bitmap (cardinality >  4096): 1024 × uint64 LE (8192 bytes)
 *   run:   uint16 LE run count, then (start, length - 1) uint16 LE pairs
 * Header: cookie 12346 + uint32 container count (no run containers; always followed by offsets), or cookie
 * 12347 | (count - 1) << 16 + a run-flag bitset (offsets only when count >= 4); then per container
 * (key, cardinality - 1) uint16 LE pairs, then the optional uint32 LE offsets, then the containers.
 * The writer picks container kinds as Java's RoaringBitmap.runOptimize() does (what Iceberg Java serializes:
 * a run container only when strictly smaller), so the bytes match; the reader accepts every kind.
 * @see https://github.com/RoaringBitmap/RoaringFormatSpec
 */

export const SERIAL_COOKIE_NO_RUNCONTAINER = 12346;
export const SERIAL_COOKIE = 12347;
const NO_OFFSET_THRESHOLD = 4;
const ARRAY_MAX_CARDINALITY = 4096;
const BITMAP_BYTES = 8192;

type ContainerKind = 'array' | 'bitmap' | 'run';

interface Container {
  readonly key: number;
  /** low 16 bits, ascending */
  readonly lows: readonly number[];
  readonly kind: ContainerKind;
  readonly runs: number;
}

const runCount = (lows: readonly number[]): number => {
  let runs = 0;
  for (let i = 0; i < lows.length; i++) if (i === 0 || lows[i] !== lows[i - 1]! + 1) runs++;
  return runs;
};

const containerBytes = (c: Container): number =>
  c.kind === 'array' ? 2 * c.lows.length : c.kind === 'bitmap' ? BITMAP_BYTES : 2 + 4 * c.runs;

function containersOf(values: readonly number[], runOptimize: boolean): Container[] {
  const out: Container[] = [];
  let i = 0;
  while (i < values.length) {
    const key = values[i]! >>> 16;
    const lows: number[] = [];
    while (i < values.length && values[i]! >>> 16 === key) lows.push(values[i++]! & 0xffff);
    const runs = runCount(lows);
    const plain: ContainerKind = lows.length <= ARRAY_MAX_CARDINALITY ? 'array' : 'bitmap';
    const plainBytes = plain === 'array' ? 2 * lows.length : BITMAP_BYTES;
    out.push({ key, lows, runs, kind: runOptimize && plainBytes > 2 + 4 * runs ? 'run' : plain });
  }
  return out;
}

/**
 * The portable serialization of `values` (sorted ascending, distinct, each in [0, 2^32)). `runOptimize`
 * (Java's runOptimize(), as Iceberg applies before writing a deletion vector) allows run containers.
 */
export function serializeRoaring32(values: readonly number[], runOptimize = true): Uint8Array {
  const cs = containersOf(values, runOptimize);
  const hasRun = cs.some((c) => c.kind === 'run');
  const size = cs.length;
  const withOffsets = !hasRun || size >= NO_OFFSET_THRESHOLD;
  const header = hasRun ? 4 + Math.ceil(size / 8) : 8;
  let total = header + 4 * size + (withOffsets ? 4 * size : 0);
  const start = total;
  for (const c of cs) total += containerBytes(c);
  const buf = new Uint8Array(total);
  const dv = new DataView(buf.buffer);
  let p = 0;
  if (hasRun) {
    dv.setUint32(p, (SERIAL_COOKIE | ((size - 1) << 16)) >>> 0, true); p += 4;
    for (let i = 0; i < size; i += 8) {
      let marker = 0;
      for (let j = 0; j < 8 && i + j < size; j++) if (cs[i + j]!.kind === 'run') marker |= 1 << j;
      buf[p++] = marker;
    }
  } else {
    dv.setUint32(p, SERIAL_COOKIE_NO_RUNCONTAINER, true); p += 4;
    dv.setUint32(p, size, true); p += 4;
  }
  for (const c of cs) {
    dv.setUint16(p, c.key, true); dv.setUint16(p + 2, c.lows.length - 1, true); p += 4;
  }
  if (withOffsets) {
    let off = start;
    for (const c of cs) { dv.setUint32(p, off, true); p += 4; off += containerBytes(c); }
  }
  for (const c of cs) {
    if (c.kind === 'array') {
      for (const v of c.lows) { dv.setUint16(p, v, true); p += 2; }
    } else if (c.kind === 'bitmap') {
      for (const v of c.lows) buf[p + (v >>> 3)]! |= 1 << (v & 7);
      p += BITMAP_BYTES;
    } else {
      dv.setUint16(p, c.runs, true); p += 2;
      for (let i = 0; i < c.lows.length;) {
        let j = i;
        while (j + 1 < c.lows.length && c.lows[j + 1] === c.lows[j]! + 1) j++;
        dv.setUint16(p, c.lows[i]!, true); dv.setUint16(p + 2, j - i, true); p += 4;
        i = j + 1;
      }
    }
  }
  return buf;
}

/** thrown for bytes that are not a valid portable bitmap; callers name the file (XX001) */
export class RoaringFormatError extends Error {
  override readonly name = 'RoaringFormatError';
}

/**
 * Reads one portable 32-bit bitmap at `offset`: its values (ascending) and the bytes it took.
 * `add(low32)` receives each value in ascending order.
 */
export function deserializeRoaring32(bytes: Uint8Array, offset: number, add: (value: number) => void): number {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const need = (at: number, n: number): void => {
    if (at + n > bytes.byteLength) throw new RoaringFormatError(`roaring bitmap truncated at byte ${at} (needs ${n} more)`);
  };
  let p = offset;
  need(p, 4);
  const cookie = dv.getUint32(p, true); p += 4;
  let size: number;
  let runFlags: Uint8Array | null = null;
  if ((cookie & 0xffff) === SERIAL_COOKIE) {
    size = (cookie >>> 16) + 1;
    const n = Math.ceil(size / 8);
    need(p, n);
    runFlags = bytes.subarray(p, p + n); p += n;
  } else if (cookie === SERIAL_COOKIE_NO_RUNCONTAINER) {
    need(p, 4);
    size = dv.getUint32(p, true); p += 4;
    if (size > 65536) throw new RoaringFormatError(`roaring bitmap has ${size} containers (at most 65536)`);
  } else {
    throw new RoaringFormatError(`bad roaring cookie ${cookie}`);
  }
  need(p, 4 * size);
  const keys: number[] = [];
  const cards: number[] = [];
  for (let i = 0; i < size; i++) {
    keys.push(dv.getUint16(p, true)); cards.push(dv.getUint16(p + 2, true) + 1); p += 4;
    if (i > 0 && keys[i]! <= keys[i - 1]!) throw new RoaringFormatError('roaring container keys are not ascending');
  }
  // offsets are redundant with sequential reading; skip them
  if (runFlags === null || size >= NO_OFFSET_THRESHOLD) { need(p, 4 * size); p += 4 * size; }
  for (let i = 0; i < size; i++) {
    const high = keys[i]! * 65536;
    const isRun = runFlags !== null && (runFlags[i >>> 3]! & (1 << (i & 7))) !== 0;
    if (isRun) {
      need(p, 2);
      const runs = dv.getUint16(p, true); p += 2;
      need(p, 4 * runs);
      let last = -1;
      for (let r = 0; r < runs; r++) {
        const s = dv.getUint16(p, true); const len = dv.getUint16(p + 2, true); p += 4;
        if (s <= last || s + len > 0xffff) throw new RoaringFormatError('roaring run container runs overlap or overflow');
        for (let v = s; v <= s + len; v++) add(high + v);
        last = s + len;
      }
    } else if (cards[i]! > ARRAY_MAX_CARDINALITY) {
      need(p, BITMAP_BYTES);
      let n = 0;
      for (let b = 0; b < BITMAP_BYTES; b++) {
        const byte = bytes[p + b]!;
        if (byte === 0) continue;
        for (let bit = 0; bit < 8; bit++) if (byte & (1 << bit)) { add(high + b * 8 + bit); n++; }
      }
      if (n !== cards[i]) throw new RoaringFormatError(`roaring bitmap container holds ${n} values, header says ${cards[i]}`);
      p += BITMAP_BYTES;
    } else {
      need(p, 2 * cards[i]!);
      let last = -1;
      for (let k = 0; k < cards[i]!; k++) {
        const v = dv.getUint16(p, true); p += 2;
        if (v <= last) throw new RoaringFormatError('roaring array container values are not ascending');
        add(high + v);
        last = v;
      }
    }
  }
  return p - offset;
}
