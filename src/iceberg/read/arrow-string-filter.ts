/**
 * String conjuncts judged on Arrow Utf8 bytes and on dictionary<utf8> entries, without making JS strings:
 * `col = 'c'`, `col <> 'c'`, `col IN ('a', …)`, `col LIKE 'prefix%'` (startsWith) and whole LIKE / NOT LIKE
 * patterns (startsWith with `like`: utf8-like-matcher.ts). TPC-H Q19's
 * `l_shipmode IN ('AIR', 'AIR REG') AND l_shipinstruct = 'DELIVER IN PERSON'` decided 600k rows by turning
 * each value into a string first.
 *
 * Exactly the JS-value test (parallel/row-filter.ts) on the strings arrow-fast-columns.ts would make:
 * - those come from TextDecoder('utf-8'), which drops one leading BOM: skipped here too;
 * - invalid UTF-8 decodes to U+FFFD, which no byte comparison reproduces: a constant holding U+FFFD or a lone
 *   surrogate (which the encoder would turn into U+FFFD's bytes) is not judged here;
 * - char(n) (`padded`, scan/bound-predicate.ts): trailing blanks are insignificant, as in PostgreSQL's bpchar
 *   comparison — stored values may carry the padding (lakegate writes it) or not (other writers), so the
 *   value's trailing spaces are dropped before comparing with the constant (bound without its own).
 * Dictionary chunks judge each entry once, then rows by their index.
 */
import { Type, type Data } from 'apache-arrow';
import type { BoundPredicate } from '../scan/bound-predicate.ts';
import { EXACT, NOTHING, allRows, isNullAt, validity, type ArrowNode, type Selection } from './arrow-leaf.ts';
import { utf8LikeMatcher, type Utf8LikeMatcher } from './utf8-like-matcher.ts';

/** whether the bytes [a, b) of `bytes` (a value without its BOM, and trailing blanks when padded) match */
type Matcher = (bytes: Uint8Array, a: number, b: number) => boolean;

const encoder = new TextEncoder();
/** U+FFFD or a lone surrogate: a byte comparison would not agree with the decoded string's */
const UNSAFE = /\uFFFD|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function equalAt(bytes: Uint8Array, a: number, b: number, c: Uint8Array): boolean {
  if (b - a !== c.length) return false;
  for (let k = 0; k < c.length; k++) if (bytes[a + k] !== c[k]) return false;
  return true;
}

/** FNV-1a over bytes [a, b) */
function hashAt(bytes: Uint8Array, a: number, b: number): number {
  let h = 0x811c9dc5;
  for (let p = a; p < b; p++) h = Math.imul(h ^ bytes[p]!, 0x01000193);
  return h >>> 0;
}

/** up to this many IN values are compared one by one; more go through a hash of the bytes */
const LINEAR_IN = 8;

function inMatcher(values: readonly Uint8Array[]): Matcher {
  if (values.length <= LINEAR_IN) return (bytes, a, b) => values.some((c) => equalAt(bytes, a, b, c));
  const byHash = new Map<number, Uint8Array[]>();
  for (const c of values) {
    const h = hashAt(c, 0, c.length);
    const list = byHash.get(h);
    if (list === undefined) byHash.set(h, [c]);
    else list.push(c);
  }
  return (bytes, a, b) => {
    const list = byHash.get(hashAt(bytes, a, b));
    return list !== undefined && list.some((c) => equalAt(bytes, a, b, c));
  };
}

function matcherOf(p: BoundPredicate): Matcher | null {
  const safe = (s: unknown): s is string => typeof s === 'string' && !UNSAFE.test(s);
  switch (p.kind) {
    case 'compare': {
      if ((p.op !== '=' && p.op !== '<>') || !safe(p.value)) return null;
      const c = encoder.encode(p.value);
      return p.op === '=' ? (bytes, a, b) => equalAt(bytes, a, b, c) : (bytes, a, b) => !equalAt(bytes, a, b, c);
    }
    case 'in': {
      if (!p.values.every(safe)) return null;
      return inMatcher((p.values as readonly string[]).map((v) => encoder.encode(v)));
    }
    case 'startsWith': {
      // a whole LIKE / NOT LIKE pattern: judged whole or not at all (its prefix alone would keep a superset)
      if (p.like !== undefined) return utf8LikeMatcher(p.like.pattern, p.like.negated);
      if (!safe(p.prefix)) return null;
      const c = encoder.encode(p.prefix);
      return (bytes, a, b) => b - a >= c.length && equalAt(bytes, a, a + c.length, c);
    }
    default: return null;
  }
}

/** the value's bytes without a leading BOM (and trailing blanks when padded) → match */
function judgeAt(m: Matcher, padded: boolean, bytes: Uint8Array, a: number, b: number): boolean {
  if (b - a >= 3 && bytes[a] === 0xef && bytes[a + 1] === 0xbb && bytes[a + 2] === 0xbf) a += 3;
  if (padded) while (b > a && bytes[b - 1] === 0x20) b--;
  return m(bytes, a, b);
}

function applyUtf8(d: Data, sel: Selection, m: Matcher, padded: boolean): void {
  const bytes = d.values as Uint8Array, offs = d.valueOffsets as Int32Array;
  const bm = validity(d), off = d.offset, rows = sel.rows;
  // a LIKE pattern that searches the whole chunk at once (utf8-like-matcher.ts; never padded)
  const chunk = (m as Utf8LikeMatcher).selectRows;
  if (chunk !== undefined && !padded) {
    sel.n = chunk(bytes, offs, rows, sel.n, bm, off);
    return;
  }
  let kept = 0;
  for (let k = 0; k < sel.n; k++) {
    const i = rows[k]!;
    if ((bm === null || !isNullAt(bm, off + i)) && judgeAt(m, padded, bytes, offs[i]!, offs[i + 1]!)) rows[kept++] = i;
  }
  sel.n = kept;
}

/** per dictionary entry: 1 when it matches (null entries never do); null when an entry chunk is not utf8 */
function dictionaryMatches(d: Data, m: Matcher, padded: boolean): Uint8Array | null {
  const dict = (d as Data & { dictionary?: { data: readonly Data[] } }).dictionary;
  if (dict === undefined || !dict.data.every((c) => c.typeId === Type.Utf8 && c.valueOffsets instanceof Int32Array)) return null;
  let total = 0;
  for (const c of dict.data) total += c.length;
  const out = new Uint8Array(total);
  let e = 0;
  for (const c of dict.data) {
    const all = allRows(c.length);
    applyUtf8(c, all, m, padded);
    for (let k = 0; k < all.n; k++) out[e + all.rows[k]!] = 1;
    e += c.length;
  }
  return out;
}

function applyDictionary(d: Data, sel: Selection, matches: Uint8Array): void {
  const idx = d.values as ArrayLike<number | bigint>;
  const bm = validity(d), off = d.offset, rows = sel.rows;
  let kept = 0;
  for (let k = 0; k < sel.n; k++) {
    const i = rows[k]!;
    if (bm !== null && isNullAt(bm, off + i)) continue;
    if (matches[Number(idx[i]!)] === 1) rows[kept++] = i;
  }
  sel.n = kept;
}

/** the node of a string conjunct on request `c`, or null when it is not one this file judges */
export function stringLeaf(p: BoundPredicate, c: number): ArrowNode | null {
  if ((p.kind !== 'compare' && p.kind !== 'in' && p.kind !== 'startsWith') || p.type.name !== 'string') return null;
  const m = matcherOf(p);
  return m === null ? null : leafOf(m, p.padded === true, c);
}

/**
 * An OR of `col LIKE 'p%'` arms on one column (pushed-prefix-of.ts: TPC-H Q22's seven phone country codes) as one
 * leaf: each value's first bytes looked up among the prefixes in one pass — a table of 65,536 flags for prefixes of
 * up to two bytes — instead of one pass per arm and a union of their row lists. Null when the arms are not all
 * prefixes of one string column with the same padding, or a prefix is not safe to compare as bytes.
 */
export function prefixSetLeaf(arms: readonly BoundPredicate[], c: number): ArrowNode | null {
  const first = arms[0];
  if (arms.length < 2 || first === undefined || first.kind !== 'startsWith' || first.type.name !== 'string') return null;
  const prefixes: Uint8Array[] = [];
  for (const a of arms) {
    if (a.kind !== 'startsWith' || a.like !== undefined || a.fieldId !== first.fieldId || a.type.name !== 'string' || a.padded !== first.padded || UNSAFE.test(a.prefix)) return null;
    prefixes.push(encoder.encode(a.prefix));
  }
  if (prefixes.some((x) => x.length === 0)) return null;
  return leafOf(prefixMatcher(prefixes), first.padded === true, c);
}

/** whether the value starts with one of `prefixes` (each one byte long at least: bound-predicate.ts drops empty ones) */
function prefixMatcher(prefixes: readonly Uint8Array[]): Matcher {
  const byLength = new Map<number, Uint8Array[]>();
  for (const p of prefixes) byLength.set(p.length, [...(byLength.get(p.length) ?? []), p]);
  const tests = [...byLength].map(([len, list]): Matcher => {
    if (len > 2) {
      const m = inMatcher(list);
      return (bytes, a, b) => b - a >= len && m(bytes, a, a + len);
    }
    const flags = new Uint8Array(len === 1 ? 256 : 65536);
    for (const p of list) flags[len === 1 ? p[0]! : (p[0]! << 8) | p[1]!] = 1;
    return len === 1 ? (bytes, a, b) => b > a && flags[bytes[a]!] === 1 : (bytes, a, b) => b - a >= 2 && flags[(bytes[a]! << 8) | bytes[a + 1]!] === 1;
  });
  return tests.length === 1 ? tests[0]! : (bytes, a, b) => tests.some((t) => t(bytes, a, b));
}

/** the node judging matcher `m` on request `c`'s utf8 or dictionary<utf8> chunks */
function leafOf(m: Matcher, padded: boolean, c: number): ArrowNode {
  // the entries' verdicts per dictionary (the batches of one column chunk share it): judged once
  const verdicts = new WeakMap<object, Uint8Array | null>();
  return (data, _length, sel) => {
    const d = data[c];
    if (d === undefined) return NOTHING;
    if (d.typeId === Type.Utf8 && d.valueOffsets instanceof Int32Array) {
      applyUtf8(d, sel, m, padded);
      return EXACT;
    }
    if (d.typeId !== Type.Dictionary) return NOTHING;
    if (sel.n === 0) return EXACT;
    const dict = (d as Data & { dictionary?: object }).dictionary;
    let matches = dict === undefined ? undefined : verdicts.get(dict);
    if (matches === undefined) {
      matches = dictionaryMatches(d, m, padded);
      if (dict !== undefined) verdicts.set(dict, matches);
    }
    if (matches === null) return NOTHING;
    applyDictionary(d, sel, matches);
    return EXACT;
  };
}
