/**
 * compareJsonb: the jsonb btree order (jsonb_cmp) on normalized jsonb text.
 * Object > Array > Boolean > Number > String > Null; containers compare by size first, then objects
 * pair by pair in storage order (keys sorted by length, then bytes), arrays element by element.
 * A top-level empty array sorts below null, as in PostgreSQL.
 * @see https://www.postgresql.org/docs/15/datatype-json.html#JSON-INDEXING
 */
import { Numeric } from '../common/pgtypes/numeric.ts';

type J = null | boolean | string | Numeric | J[] | { readonly entries: Array<[string, J]> };

const NUMBER_TOKEN = /^-?\d+(\.\d+)?([eE][+-]?\d+)?/;

function parse(text: string): J {
  let i = 0;
  const ws = (): void => {
    while (i < text.length && /\s/.test(text[i]!)) i++;
  };
  const value = (): J => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      const entries: Array<[string, J]> = [];
      ws();
      if (text[i] === '}') {
        i++;
        return { entries };
      }
      for (;;) {
        ws();
        const k = value() as string;
        ws();
        i++; // :
        entries.push([k, value()]);
        ws();
        if (text[i++] === '}') return { entries };
      }
    }
    if (c === '[') {
      i++;
      const out: J[] = [];
      ws();
      if (text[i] === ']') {
        i++;
        return out;
      }
      for (;;) {
        out.push(value());
        ws();
        if (text[i++] === ']') return out;
      }
    }
    if (c === '"') {
      let j = i + 1;
      while (text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      const s = JSON.parse(text.slice(i, j + 1)) as string;
      i = j + 1;
      return s;
    }
    if (text.startsWith('true', i)) return (i += 4), true;
    if (text.startsWith('false', i)) return (i += 5), false;
    if (text.startsWith('null', i)) return (i += 4), null;
    const m = NUMBER_TOKEN.exec(text.slice(i));
    const tok = m?.[0] ?? '0';
    i += tok.length;
    return Numeric.parse(tok);
  };
  return value();
}

function rank(v: J): number {
  if (v === null) return 0;
  if (typeof v === 'string') return 1;
  if (Numeric.isNumeric(v)) return 2;
  if (typeof v === 'boolean') return 3;
  if (Array.isArray(v)) return 4;
  return 5;
}

function bytes(a: string, b: string): number {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return Buffer.compare(x, y);
}

function keyOrder(a: string, b: string): number {
  const x = Buffer.byteLength(a);
  const y = Buffer.byteLength(b);
  return x !== y ? x - y : bytes(a, b);
}

function cmp(a: J, b: J, top: boolean): number {
  // raw-scalar quirk: a top-level empty array sorts below everything
  if (top) {
    const ae = Array.isArray(a) && a.length === 0;
    const be = Array.isArray(b) && b.length === 0;
    if (ae !== be) return ae ? -1 : 1;
  }
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra - rb;
  if (a === null || b === null) return 0;
  if (typeof a === 'string') return bytes(a, b as string);
  if (Numeric.isNumeric(a)) return a.compare(b as Numeric);
  if (typeof a === 'boolean') return a === b ? 0 : a ? 1 : -1;
  if (Array.isArray(a)) {
    const bb = b as J[];
    if (a.length !== bb.length) return a.length - bb.length;
    for (let i = 0; i < a.length; i++) {
      const c = cmp(a[i]!, bb[i]!, false);
      if (c !== 0) return c;
    }
    return 0;
  }
  const ea = [...(a as { entries: Array<[string, J]> }).entries].sort((x, y) => keyOrder(x[0], y[0]));
  const eb = [...(b as { entries: Array<[string, J]> }).entries].sort((x, y) => keyOrder(x[0], y[0]));
  if (ea.length !== eb.length) return ea.length - eb.length;
  for (let i = 0; i < ea.length; i++) {
    const k = keyOrder(ea[i]![0], eb[i]![0]);
    if (k !== 0) return k;
    const c = cmp(ea[i]![1], eb[i]![1], false);
    if (c !== 0) return c;
  }
  return 0;
}

export function compareJsonb(a: string, b: string): number {
  if (a === b) return 0;
  const c = cmp(parse(a), parse(b), true);
  return c < 0 ? -1 : c > 0 ? 1 : 0;
}

function keyOf(v: J): string {
  if (v === null) return 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'string') return JSON.stringify(v);
  if (Numeric.isNumeric(v)) {
    if (!v.isFinite() || v.isZero()) return v.isZero() ? '0' : v.toString();
    let u = v.unscaled;
    let sc = v.scale;
    while (sc > 0 && u % 10n === 0n) {
      u /= 10n;
      sc--;
    }
    return Numeric.of(u, sc).toString();
  }
  if (Array.isArray(v)) return '[' + v.map(keyOf).join(',') + ']';
  const entries = [...v.entries].sort((x, y) => keyOrder(x[0], y[0]));
  return '{' + entries.map(([k, x]) => JSON.stringify(k) + ':' + keyOf(x)).join(',') + '}';
}

/** A hash key for jsonb equal exactly when jsonb_cmp says equal (1.0 and 1 are the same number). */
export function jsonbKey(text: string): string {
  return /\d[.eE]/.test(text) ? keyOf(parse(text)) : text;
}
