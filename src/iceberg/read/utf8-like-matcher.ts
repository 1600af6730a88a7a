/**
 * A LIKE pattern (default escape `\`, case-sensitive) judged on a string's UTF-8 bytes, so that the scan's Arrow
 * pass (arrow-string-filter.ts) decides `o_comment NOT LIKE '%special%requests%'` (TPC-H q13) without making a JS
 * string per row — that string and the matcher over it were about half of q13's scan-worker CPU.
 *
 * The answer is the JS-value LIKE's (functions/like.ts) on the string TextDecoder makes of the bytes:
 * - `%` and literal text compare bytes: a valid UTF-8 needle occurs in the bytes exactly where its text occurs
 *   in the decoded string, even around invalid sequences (the decoder restarts at every byte that is not a
 *   continuation byte, and the needle starts with such a byte); so do anchored starts and ends;
 * - `_` is one character, i.e. one code point. On ASCII-only values that is one byte; a value with other bytes
 *   is decoded and matched on its code points instead (invalid UTF-8 becomes U+FFFDs, which no byte count
 *   reproduces) — correct always, and rare for the patterns where speed matters;
 * - a segment between `%`s has a fixed length in characters, so placing each one leftmost after the previous
 *   one finds a match whenever there is one (PostgreSQL's MatchText answers the same).
 * Not compiled (null): a pattern ending in the escape character (LIKE raises 22025 for some values, which the
 * Filter must do) and patterns holding U+FFFD or a lone surrogate (no byte sequence decodes to them alone).
 * @see https://www.postgresql.org/docs/15/functions-matching.html#FUNCTIONS-LIKE
 */
import { BoundedMemo } from '../../common/bounded-memo.ts';

/**
 * whether bytes [a, b) — a value without its BOM — match; `selectRows`, when present, judges the rows
 * rows[0..n) of a utf8 chunk at once (bytes, offsets; `bm`/`off` its validity: NULL never kept) and compacts
 * the matching ones to the front, returning how many
 */
export type Utf8LikeMatcher = ((bytes: Uint8Array, a: number, b: number) => boolean) & {
  selectRows?: (bytes: Uint8Array, offs: Int32Array, rows: Int32Array, n: number, bm: Uint8Array | null, off: number) => number;
};

/** a pattern piece between `%`s: units (bytes or code points), ANY where the pattern has `_` */
type Segment = Int32Array;
const ANY = -1;

/** U+FFFD or a lone surrogate */
const UNSAFE = /\uFFFD|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const encoder = new TextEncoder();
/** the caller has dropped the one BOM the scan's decoder drops: a second one is text */
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

interface Parsed {
  /** the pieces between `%`s, as code points (ANY for `_`) */
  readonly pieces: readonly (readonly number[])[];
  readonly hasAny: boolean;
}

/** the pattern split at its unescaped `%`s, or null when it ends in the escape character */
function parse(pattern: string): Parsed | null {
  const pieces: number[][] = [[]];
  let hasAny = false;
  const chars = [...pattern];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (c === '\\') {
      const n = chars[++i];
      if (n === undefined) return null;
      pieces[pieces.length - 1]!.push(n.codePointAt(0)!);
    } else if (c === '%') pieces.push([]);
    else if (c === '_') {
      pieces[pieces.length - 1]!.push(ANY);
      hasAny = true;
    } else pieces[pieces.length - 1]!.push(c.codePointAt(0)!);
  }
  return { pieces, hasAny };
}

/** a piece's code points as UTF-8 bytes (ANY stays one unit: only used on ASCII-only values) */
function bytesOf(piece: readonly number[]): Segment {
  const out: number[] = [];
  for (const u of piece) {
    if (u === ANY) out.push(ANY);
    else for (const b of encoder.encode(String.fromCodePoint(u))) out.push(b);
  }
  return Int32Array.from(out);
}

/** whether `seg` matches units [p, p + seg.length) */
function segmentAt(units: ArrayLike<number>, p: number, seg: Segment): boolean {
  for (let k = 0; k < seg.length; k++) {
    const s = seg[k]!;
    if (s !== ANY && units[p + k] !== s) return false;
  }
  return true;
}

/** leftmost p in [from, to - seg.length] where `seg` matches, or -1 (a first-unit scan, then the rest) */
function indexOfSegment(units: ArrayLike<number>, from: number, to: number, seg: Segment): number {
  const last = to - seg.length;
  const first = seg[0]!;
  if (first === ANY) {
    for (let p = from; p <= last; p++) if (segmentAt(units, p, seg)) return p;
    return -1;
  }
  for (let p = from; p <= last; p++) if (units[p] === first && segmentAt(units, p, seg)) return p;
  return -1;
}

/**
 * the pattern over units [a, b): with no `%`, `head` is the whole pattern; else `head` anchors the start,
 * `tail` the end, and each of `middle` is placed leftmost in between
 */
interface Shape {
  readonly wildcard: boolean;
  readonly head: Segment;
  readonly middle: readonly Segment[];
  readonly tail: Segment;
}

function shapeOf(pieces: readonly (readonly number[])[], unitsOf: (p: readonly number[]) => Segment): Shape {
  const segs = pieces.map(unitsOf);
  if (segs.length === 1) return { wildcard: false, head: segs[0]!, middle: [], tail: new Int32Array(0) };
  return { wildcard: true, head: segs[0]!, middle: segs.slice(1, -1).filter((s) => s.length > 0), tail: segs[segs.length - 1]! };
}

function matchShape(units: ArrayLike<number>, a: number, b: number, s: Shape): boolean {
  const n = b - a;
  if (!s.wildcard) return n === s.head.length && segmentAt(units, a, s.head);
  if (n < s.head.length + s.tail.length) return false;
  if (!segmentAt(units, a, s.head) || !segmentAt(units, b - s.tail.length, s.tail)) return false;
  let at = a + s.head.length;
  const end = b - s.tail.length;
  for (let k = 0; k < s.middle.length; k++) {
    const seg = s.middle[k]!;
    const p = indexOfSegment(units, at, end, seg);
    if (p < 0) return false;
    at = p + seg.length;
  }
  return true;
}

function isAscii(bytes: Uint8Array, a: number, b: number): boolean {
  for (let p = a; p < b; p++) if (bytes[p]! >= 0x80) return false;
  return true;
}

/** the code points of the string the bytes [a, b) decode to */
function codePointsOf(bytes: Uint8Array, a: number, b: number): number[] {
  const s = decoder.decode(bytes.subarray(a, b));
  const out: number[] = [];
  for (const ch of s) out.push(ch.codePointAt(0)!);
  return out;
}

/**
 * compiled matchers by pattern and negation: every scan task compiles its pushed filter again (TPC-H q13: 80
 * files a run, 10–100 µs per compile of '%special%requests%'), and matchers hold no state between calls
 */
/** past this many patterns the memo starts over (ad-hoc patterns must not grow it without bound) */
export const MAX_COMPILED_PATTERNS = 256;
const compiled = new BoundedMemo<string, Utf8LikeMatcher | null>(MAX_COMPILED_PATTERNS);
/** the memo's key: negation first, then the pattern */
const compileKeyed = (key: string): Utf8LikeMatcher | null => compileMatcher(key.slice(1), key.charCodeAt(0) === 33);

/**
 * The matcher of `pattern` (negated for NOT LIKE; NULLs are the caller's), or null when bytes cannot judge it;
 * the same object for the same pattern and negation (callers must not change it).
 */
export function utf8LikeMatcher(pattern: string, negated: boolean): Utf8LikeMatcher | null {
  return compiled.get((negated ? '!' : '=') + pattern, compileKeyed);
}

function compileMatcher(pattern: string, negated: boolean): Utf8LikeMatcher | null {
  if (UNSAFE.test(pattern)) return null;
  const parsed = parse(pattern);
  if (parsed === null) return null;
  const onBytes = shapeOf(parsed.pieces, bytesOf);
  let m: Utf8LikeMatcher;
  if (!parsed.hasAny) m = (bytes, a, b) => matchShape(bytes, a, b, onBytes);
  else {
    const onCodePoints = shapeOf(parsed.pieces, (p) => Int32Array.from(p));
    m = (bytes, a, b) => {
      if (isAscii(bytes, a, b)) return matchShape(bytes, a, b, onBytes);
      const cps = codePointsOf(bytes, a, b);
      return matchShape(cps, 0, cps.length, onCodePoints);
    };
  }
  // '%' (or '%%'): every value
  if (onBytes.wildcard && onBytes.head.length === 0 && onBytes.tail.length === 0 && onBytes.middle.length === 0) m = () => true;
  if (!negated) {
    if (!parsed.hasAny && !pattern.includes('\uFEFF')) m.selectRows = chunkSearch(onBytes, false);
    return m;
  }
  const inner = m;
  const not: Utf8LikeMatcher = (bytes, a, b) => !inner(bytes, a, b);
  if (!parsed.hasAny && !pattern.includes('\uFEFF')) not.selectRows = chunkSearch(onBytes, true);
  return not;
}

/**
 * `%piece%…` (no anchored start, no `_`) over a whole chunk: the first piece found by Buffer.indexOf (native)
 * across the chunk's bytes from the row in question on, each hit serving every row up to it — one search
 * per hit, not one per row (q13's 'special' occurs in a few percent of o_comments). A hit is the row's
 * leftmost when it lies inside the row; the later pieces and an anchored end are then checked in the row.
 * A hit never starts inside a value's dropped BOM: the pattern has no U+FEFF and a piece starts with a
 * character's first byte. Undefined for other shapes (the per-row matcher judges them).
 */
function chunkSearch(s: Shape, negated: boolean): Utf8LikeMatcher['selectRows'] {
  const first = s.middle[0];
  if (!s.wildcard || s.head.length !== 0 || first === undefined) return undefined;
  const needle = Buffer.from(Uint8Array.from(first));
  const rest = s.middle.slice(1);
  const tail = s.tail;
  return (bytes, offs, rows, n, bm, off) => {
    const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let hit = -2; // the first hit at or after the last search's start; -1: none left in the chunk
    let kept = 0;
    for (let k = 0; k < n; k++) {
      const i = rows[k]!;
      if (bm !== null && (bm[(off + i) >> 3]! & (1 << ((off + i) & 7))) === 0) continue;
      const a = offs[i]!, b = offs[i + 1]!;
      if (hit !== -1 && hit < a) hit = buf.indexOf(needle, a);
      const end = b - tail.length;
      let match = hit >= 0 && hit + needle.length <= end && segmentAt(bytes, end, tail);
      if (match) {
        let at = hit + needle.length;
        for (let r = 0; r < rest.length && match; r++) {
          const seg = rest[r]!;
          const p = indexOfSegment(bytes, at, end, seg);
          if (p < 0) match = false;
          else at = p + seg.length;
        }
      }
      if (match !== negated) rows[kept++] = i;
    }
    return kept;
  };
}
