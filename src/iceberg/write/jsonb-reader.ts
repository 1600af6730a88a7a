/**
 * readJsonb: jsonb text as lakegate holds it (values.ts: already normalized by jsonb_in, so valid, keys
 * sorted and unique, numbers in numeric form) → JsonbValue, without parseJsonb's validation and key
 * sorting, which cost most of a nested column's write time (measured: 100k small structs, 0.65 s of
 * parsing, most of it re-sorting keys). Numbers keep their exact text.
 * Anything unexpected falls back to parseJsonb, so a malformed string still gets its 22P02.
 */
import { parseJsonb, type JsonbObject, type JsonbValue } from '../../common/pgtypes/json-text.ts';

class Malformed extends Error {}

class Reader {
  i = 0;
  constructor(readonly s: string) {}

  ws(): void {
    const s = this.s;
    for (;;) {
      const c = s.charCodeAt(this.i);
      if (c === 32 || c === 10 || c === 9 || c === 13) this.i++;
      else return;
    }
  }

  value(): JsonbValue {
    this.ws();
    const s = this.s;
    const c = s.charCodeAt(this.i);
    if (c === 123) { // {
      this.i++;
      const keys: string[] = [];
      const values: JsonbValue[] = [];
      this.ws();
      if (s.charCodeAt(this.i) === 125) { this.i++; return { keys, values } satisfies JsonbObject; }
      for (;;) {
        this.ws();
        if (s.charCodeAt(this.i) !== 34) throw new Malformed();
        keys.push(this.string());
        this.ws();
        if (s.charCodeAt(this.i++) !== 58) throw new Malformed();
        values.push(this.value());
        this.ws();
        const d = s.charCodeAt(this.i++);
        if (d === 125) return { keys, values };
        if (d !== 44) throw new Malformed();
      }
    }
    if (c === 91) { // [
      this.i++;
      const out: JsonbValue[] = [];
      this.ws();
      if (s.charCodeAt(this.i) === 93) { this.i++; return out; }
      for (;;) {
        out.push(this.value());
        this.ws();
        const d = s.charCodeAt(this.i++);
        if (d === 93) return out;
        if (d !== 44) throw new Malformed();
      }
    }
    if (c === 34) return this.string();
    if (s.startsWith('null', this.i)) { this.i += 4; return null; }
    if (s.startsWith('true', this.i)) { this.i += 4; return true; }
    if (s.startsWith('false', this.i)) { this.i += 5; return false; }
    const start = this.i;
    let i = start;
    for (;;) {
      const d = s.charCodeAt(i);
      if ((d >= 48 && d <= 57) || d === 45 || d === 43 || d === 46 || d === 101 || d === 69) i++;
      else break;
    }
    if (i === start) throw new Malformed();
    this.i = i;
    return { num: s.slice(start, i) };
  }

  string(): string {
    const s = this.s;
    const start = this.i + 1;
    let i = start;
    let escaped = false;
    for (;;) {
      const c = s.charCodeAt(i);
      if (Number.isNaN(c)) throw new Malformed();
      if (c === 34) break;
      if (c === 92) { escaped = true; i += 2; } else i++;
    }
    this.i = i + 1;
    return escaped ? (JSON.parse(s.slice(start - 1, i + 1)) as string) : s.slice(start, i);
  }
}

export function readJsonb(text: string): JsonbValue {
  try {
    const r = new Reader(text);
    const v = r.value();
    r.ws();
    if (r.i !== text.length) throw new Malformed();
    return v;
  } catch (e) {
    if (!(e instanceof Malformed) && !(e instanceof SyntaxError)) throw e;
    return parseJsonb(text);
  }
}
