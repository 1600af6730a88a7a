/**
 * Iceberg type strings as users write them in CREATE TABLE … WITH (iceberg_types = …): Iceberg's own type
 * names (§ Schemas and Data Types), nested with angle brackets as Iceberg Java prints them:
 *
 *   struct<a: int, b: string not null, c: struct<d: decimal(10, 2)>>
 *   list<string>            list<struct<x: double> not null>   (element required)
 *   map<string, long>       map<int, list<date>>               (keys are always required)
 *
 * A struct field, list element or map value is optional unless followed by `not null` (or, as Java prints
 * fields, preceded by `required`; `optional` is accepted too). Field names may be double-quoted (or
 * back-quoted) to hold spaces, commas or `:`. Field ids are left 0; assignFreshIds numbers them the way
 * Iceberg does (a struct's fields first, then their children, depth first).
 */
import { pgError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import { parsePrimitive, type IcebergType, type NestedField } from '../spec/schema.ts';

class TypeTextParser {
  i = 0;
  constructor(readonly s: string) {}

  fail(what: string): never {
    const at = this.i >= this.s.length ? 'at end of input' : `at "${this.s.slice(this.i, this.i + 20)}"`;
    throw pgError(SqlState.invalid_parameter_value, `invalid Iceberg type "${this.s}": ${what} ${at}`, {
      hint: 'Use Iceberg type names: struct<name: type, …>, list<type>, map<key type, value type>, boolean, int, long, float, double, decimal(p, s), date, time, timestamp, timestamptz, string, uuid, binary; add "not null" after a nested type to make it required.',
    });
  }

  ws(): void {
    while (this.i < this.s.length && /\s/.test(this.s[this.i]!)) this.i++;
  }

  peek(c: string): boolean {
    this.ws();
    return this.s.startsWith(c, this.i);
  }

  expect(c: string): void {
    if (!this.peek(c)) this.fail(`expected "${c}"`);
    this.i += c.length;
  }

  /** a bare word (letters, digits, _), case-folded */
  word(): string {
    this.ws();
    const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(this.s.slice(this.i));
    if (m === null) this.fail('expected a type name');
    this.i += m[0].length;
    return m[0].toLowerCase();
  }

  /** the next word without consuming it, or '' */
  lookWord(): string {
    this.ws();
    return /^[A-Za-z_][A-Za-z0-9_]*/.exec(this.s.slice(this.i))?.[0].toLowerCase() ?? '';
  }

  /** `not null` after a type → required */
  notNull(): boolean {
    if (this.lookWord() !== 'not') return false;
    this.word();
    if (this.word() !== 'null') this.fail('expected "null" after "not"');
    return true;
  }

  /** `required` / `optional` before a type; undefined when neither */
  requirement(): boolean | undefined {
    const w = this.lookWord();
    if (w !== 'required' && w !== 'optional') return undefined;
    const save = this.i;
    this.word();
    // a field type called like the keyword (none exists) would end here: keep the word as the type then
    if (this.peek(',') || this.peek('>') || this.i >= this.s.length) {
      this.i = save;
      return undefined;
    }
    return w === 'required';
  }

  /** [required|optional] type [not null] */
  element(): { type: IcebergType; required: boolean } {
    const before = this.requirement();
    const type = this.type();
    const after = this.notNull();
    return { type, required: after || before === true };
  }

  fieldName(): string {
    this.ws();
    const q = this.s[this.i];
    if (q === '"' || q === '`') {
      let name = '';
      this.i++;
      for (;;) {
        if (this.i >= this.s.length) this.fail('unterminated quoted field name');
        const c = this.s[this.i++]!;
        if (c === q) {
          if (this.s[this.i] === q) { name += q; this.i++; continue; }
          return name;
        }
        name += c;
      }
    }
    const m = /^[^\s:,<>]+/.exec(this.s.slice(this.i));
    if (m === null) this.fail('expected a field name');
    this.i += m[0].length;
    return m[0];
  }

  type(): IcebergType {
    const start = this.i;
    const w = this.word();
    if (w === 'struct') {
      this.expect('<');
      const fields: NestedField[] = [];
      const names = new Set<string>();
      do {
        const name = this.fieldName();
        if (names.has(name)) this.fail(`duplicate field name "${name}"`);
        names.add(name);
        this.expect(':');
        const { type, required } = this.element();
        fields.push({ id: 0, name, required, type });
      } while (this.peek(',') && (this.i++, true));
      this.expect('>');
      return { kind: 'struct', fields };
    }
    if (w === 'list') {
      this.expect('<');
      const { type, required } = this.element();
      this.expect('>');
      return { kind: 'list', elementId: 0, elementRequired: required, element: type };
    }
    if (w === 'map') {
      this.expect('<');
      const key = this.type();
      if (this.notNull()) { /* keys are always required */ }
      this.expect(',');
      const { type, required } = this.element();
      this.expect('>');
      return { kind: 'map', keyId: 0, key, valueId: 0, valueRequired: required, value: type };
    }
    // primitive, with its parameters: decimal(p, s), fixed[n]
    this.ws();
    if (this.s[this.i] === '(' || this.s[this.i] === '[') {
      const close = this.s[this.i] === '(' ? ')' : ']';
      const end = this.s.indexOf(close, this.i);
      if (end < 0) this.fail(`expected "${close}"`);
      this.i = end + 1;
    }
    const raw = this.s.slice(start, this.i).trim().replace(/\s+/g, ' ');
    // the name is case-folded, not a geometry / geography CRS in the parentheses
    const text = /^geo(?:metry|graphy)\s*\(/i.test(raw) ? raw.replace(/^\w+/, (n) => n.toLowerCase()) : raw.toLowerCase();
    try {
      return parsePrimitive(text.replace(/\(\s*(\d+)\s*,\s*(\d+)\s*\)/, '($1, $2)'));
    } catch {
      this.i = start;
      return this.fail(`unknown type "${text}"`);
    }
  }
}

/** one Iceberg type string → the type, with every field id 0 (see assignFreshIds) */
export function parseIcebergTypeText(text: string): IcebergType {
  const p = new TypeTextParser(text);
  const t = p.type();
  p.ws();
  if (p.i < text.length) p.fail('unexpected text');
  return t;
}

/** numbers every nested id with `nextId`, as Iceberg's TypeUtil.assignFreshIds: a struct's fields first, then each field's type */
export function assignFreshIds(t: IcebergType, nextId: () => number): IcebergType {
  switch (t.kind) {
    case 'primitive': return t;
    case 'list': {
      const elementId = nextId();
      return { ...t, elementId, element: assignFreshIds(t.element, nextId) };
    }
    case 'map': {
      const keyId = nextId();
      const valueId = nextId();
      return { ...t, keyId, valueId, key: assignFreshIds(t.key, nextId), value: assignFreshIds(t.value, nextId) };
    }
    case 'struct': {
      const ids = t.fields.map(() => nextId());
      return { kind: 'struct', fields: t.fields.map((f, i) => ({ ...f, id: ids[i]!, type: assignFreshIds(f.type, nextId) })) };
    }
  }
}
