/**
 * Test harness for the function library: evaluates tiny SQL expressions — `f(a, b)`, `a OP b`, `OP a`,
 * literals with `::type` casts — through the real registry (type resolution, coercions, impls) and renders
 * the result as psql prints it, so test tables can hold expressions and PostgreSQL's answers verbatim.
 * Used by the *.test.ts files in this folder only.
 */
import { Oid, sqlType, type SqlType } from '../common/pgtypes/oids.ts';
import { arrayTypeOf, elementTypeOf, typeByName } from '../common/pgtypes/registry.ts';
import { formatType } from '../common/pgtypes/format-type.ts';
import { Numeric } from '../common/pgtypes/numeric.ts';
import { isPgArray } from '../common/pgtypes/values.ts';
import { GatewayError } from '../common/errors.ts';
import type { SessionView } from '../catalog/session-view.ts';
import type { CatalogView } from '../catalog/catalog-view.ts';
import type { EvalContext } from './registry-types.ts';
import { getDefaultRegistry } from './index.ts';
import { applyCoercion } from './coercions.ts';
import { textOutput } from './text-io.ts';

export function harnessContext(timeZone = 'UTC'): EvalContext {
  const settings = new Map<string, string>([['TimeZone', timeZone]]);
  const session = {
    user: 'test', database: 'test', backendPid: 1, serverStartTime: 0n, localAddress: '', localPort: 0,
    searchPath: () => ['public'], getSetting: (name: string) => settings.get(name) ?? null,
    setSetting: (name: string, value: string) => (settings.set(name, value), value),
    settings: () => [], sessions: () => [], cancelBackend: () => false, terminateBackend: () => false,
    currentTransactionId: () => 1n,
  } as unknown as SessionView;
  return { session, catalog: {} as CatalogView, transactionTimestamp: 0n, statementTimestamp: 0n, signal: new AbortController().signal };
}

interface Typed {
  readonly type: SqlType;
  readonly value: unknown;
}

const OPS = ['#>>', '->>', '#>', '->', '@>', '<@', '&&', '?|', '?&', '||/', '|/', '!~~*', '!~~', '~~*', '~~', '!~*', '!~', '~*', '<<', '>>', '<=', '>=', '<>', '!=', '||', '^@', '+', '-', '*', '/', '%', '^', '&', '|', '#', '=', '<', '>', '~', '@'];

class Parser {
  i = 0;
  constructor(readonly s: string, readonly ctx: EvalContext) {}

  ws(): void {
    while (this.s[this.i] === ' ') this.i++;
  }

  expr(): Typed {
    this.ws();
    const pre = this.peekOp();
    if (pre !== undefined && !(pre.op === '-' && /\d/.test(this.s[this.i + 1] ?? ''))) {
      this.i += pre.len;
      return callOperator(pre.op, null, this.atom(), this.ctx);
    }
    let left = this.atom();
    for (;;) {
      this.ws();
      const bop = this.peekOp();
      if (bop === undefined || this.i >= this.s.length) return left;
      this.i += bop.len;
      const right = this.atom();
      left = callOperator(bop.op === '!=' ? '<>' : bop.op, left, right, this.ctx);
    }
  }

  /** the operator at the cursor; LIKE / ILIKE / NOT LIKE spellings map to ~~ ~~* !~~ !~~* */
  peekOp(): { op: string; len: number } | undefined {
    const m = /^(not )?(like|ilike) /i.exec(this.s.slice(this.i));
    if (m !== null) return { op: (m[1] !== undefined ? '!' : '') + (m[2]!.toLowerCase() === 'ilike' ? '~~*' : '~~'), len: m[0].length };
    const op = OPS.find((o) => this.s.startsWith(o, this.i));
    return op === undefined ? undefined : { op, len: op.length };
  }

  atom(): Typed {
    this.ws();
    let v: Typed;
    if (this.s[this.i] === '(') {
      this.i++;
      v = this.expr();
      this.ws();
      this.i++; // )
    } else if (this.s[this.i] === "'") {
      let j = this.i + 1;
      let text = '';
      for (;;) {
        if (this.s[j] === "'" && this.s[j + 1] === "'") {
          text += "'";
          j += 2;
        } else if (this.s[j] === "'") break;
        else text += this.s[j++];
      }
      this.i = j + 1;
      v = { type: sqlType(Oid.unknown), value: text };
    } else {
      const m = /^(-?\d+(\.\d+)?(e-?\d+)?|null|true|false|[a-z_][a-z0-9_]*)/i.exec(this.s.slice(this.i))!;
      this.i += m[0].length;
      const w = m[0].toLowerCase();
      if (w === 'null') v = { type: sqlType(Oid.unknown), value: null };
      else if (w === 'true' || w === 'false') v = { type: sqlType(Oid.bool), value: w === 'true' };
      else if (/^-?\d+$/.test(w)) {
        const b = BigInt(w);
        v = b >= -2147483648n && b <= 2147483647n ? { type: sqlType(Oid.int4), value: Number(b) } : { type: sqlType(Oid.int8), value: b };
      } else if (/^-?\d/.test(w)) v = { type: sqlType(Oid.numeric), value: Numeric.parse(w) };
      else {
        this.ws();
        this.i++; // (
        const args: Typed[] = [];
        this.ws();
        if (this.s[this.i] === ')') this.i++;
        else {
          for (;;) {
            args.push(this.expr());
            this.ws();
            if (this.s[this.i++] === ')') break;
          }
        }
        v = callFunction(w, args, this.ctx);
      }
    }
    while (this.s.startsWith('::', this.i)) {
      this.i += 2;
      const m = /^(("char"|[a-z_][a-z0-9_ ]*?)(\(\d+(,-?\d+)?\))?(\[\])?)(?=$|[ ),:|+*/<>=~^-])/i.exec(this.s.slice(this.i))!;
      this.i += m[0].length;
      v = castTo(v, m[1]!, this.ctx);
    }
    return v;
  }
}

function castTo(v: Typed, spec: string, ctx: EvalContext): Typed {
  const m = /^(.*?)(\((\d+)(,(-?\d+))?\))?(\[\])?$/.exec(spec.trim())!;
  const t = typeByName(m[1]! + (m[6] ?? ''));
  if (t === undefined) throw new Error(`unknown type ${spec}`);
  let typmod = -1;
  if (m[3] !== undefined) {
    if (t.oid === Oid.numeric) typmod = ((Number(m[3]) << 16) | (Number(m[5] ?? 0) & 0x7ff)) + 4;
    else if (t.oid === Oid.varchar || t.oid === Oid.bpchar) typmod = Number(m[3]) + 4;
    else typmod = Number(m[3]);
  }
  const to = sqlType(t.oid, typmod);
  return { type: to, value: applyCoercion(getDefaultRegistry(), v.value, v.type, to, 'e', ctx) };
}

function coerceArgs(args: readonly Typed[], types: readonly SqlType[], ctx: EvalContext): unknown[] {
  return args.map((a, i) => {
    const t = types[i]!;
    if (t.oid === Oid.any || t.oid === Oid.unknown) return a.value;
    return applyCoercion(getDefaultRegistry(), a.value, a.type, t, 'i', ctx);
  });
}

/** typeOfSql: aggregates and set-returning calls only report their type */
let typeOnly = false;

function callFunction(name: string, args: readonly Typed[], ctx: EvalContext): Typed {
  const r = getDefaultRegistry().resolveFunction(name, args.map((a) => a.type));
  const values = coerceArgs(args, r.argTypes, ctx);
  const def = r.def;
  if (def.kind === 'scalar') {
    if ((def.strict ?? true) && values.some((v) => v === null)) return { type: r.returnType, value: null };
    return { type: r.returnType, value: def.impl(values, ctx, r.argTypes, r.returnType) };
  }
  if (def.kind === 'set') {
    const rows = [...def.impl(values, ctx, r.argTypes)];
    if (typeOnly) return { type: r.returnType, value: null };
    return { type: sqlType(Oid.text), value: rows.map((x) => render(r.returnType.oid, x)).join('\n') };
  }
  if (typeOnly) return { type: r.returnType, value: null };
  throw new Error('aggregate in expression');
}

function callOperator(name: string, left: Typed | null, right: Typed, ctx: EvalContext): Typed {
  const r = getDefaultRegistry().resolveOperator(name, left?.type ?? null, right.type);
  const [l, rv] = [
    left === null ? null : coerceArgs([left], [r.leftType!], ctx)[0],
    coerceArgs([right], [r.rightType], ctx)[0],
  ];
  if ((left !== null && l === null) || rv === null) return { type: r.returnType, value: null };
  return { type: r.returnType, value: r.def.impl(l, rv, ctx, r.leftType ?? sqlType(0), r.rightType) };
}

/** psql's rendering of a value (NULL as empty string). */
export function render(oid: number, v: unknown): string {
  if (v === null || v === undefined) return '';
  return textOutput(isPgArray(v) && elementTypeOf(oid) === 0 ? arrayTypeOf(v.elementOid) : oid, v, undefined);
}

/** Evaluates `select <expr>` and returns psql's text, or `ERROR <sqlstate>: <message>`. */
export function evalSql(expr: string, ctx = harnessContext()): string {
  try {
    const p = new Parser(expr, ctx);
    const v = p.expr();
    return render(v.type.oid, v.value);
  } catch (e) {
    if (GatewayError.is(e)) return `ERROR ${e.code}: ${e.message}`;
    throw e;
  }
}

/** pg_typeof(<expr>) as PostgreSQL names it. */
export function typeOfSql(expr: string, ctx = harnessContext()): string {
  typeOnly = true;
  try {
    const v = new Parser(expr, ctx).expr();
    return formatType(v.type.oid);
  } catch (e) {
    if (GatewayError.is(e)) return `ERROR ${e.code}: ${e.message}`;
    throw e;
  } finally {
    typeOnly = false;
  }
}
