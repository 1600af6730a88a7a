/**
 * The pg_cast matrix of PostgreSQL 15 for the number, boolean, character and oid/reg* types, with
 * castcontext (i implicit, a assignment, e explicit) and castmethod exactly as pg_cast lists them.
 * Date/time casts come from datetime-casts.ts, json/jsonb ones from json-functions.ts; text → regclass
 * & co. are registered by the catalog.
 * Casts not listed here (anything → text, text → anything) are I/O conversions (coercions.ts).
 * @see https://www.postgresql.org/docs/15/catalog-pg-cast.html
 */
import { Oid } from '../common/pgtypes/oids.ts';
import { Numeric } from '../common/pgtypes/numeric.ts';
import type { CastContext, CastDef } from './registry-types.ts';
import {
  charToInt4, float8ToFloat4, floatToInt, int4ToChar, int8ToOid, intToInt, isIntOid, numericToFloat, numericToInt, toNumeric,
} from './casts-numeric.ts';
import { bpcharLength, bpcharToText, toName, varcharLength } from './char-length.ts';

const { bool, char, name, int8, int2, int4, text, oid, float4, float8, bpchar, varchar, numeric } = Oid;
const REG = [Oid.regproc, Oid.regprocedure, Oid.regoper, Oid.regoperator, Oid.regclass, Oid.regtype, Oid.regconfig, Oid.regdictionary, Oid.regnamespace, Oid.regrole, Oid.regcollation];
const NUMBERS: readonly number[] = [int2, int4, int8, float4, float8, numeric];

type Impl = CastDef['impl'];

/** numeric(p,s) typmod after a conversion to numeric */
const numericTypmod = (n: Numeric, typmod: number): Numeric => (typmod >= 4 ? n.applyAttTypmod(typmod) : n);

/** castcontext for conversions among the six number types (pg_cast rows). */
function numberContext(s: number, t: number): CastContext {
  const rank = (o: number): number => NUMBERS.indexOf(o);
  if (s === float8 && t === float4) return 'a';
  if ((s === float4 || s === float8) && t === numeric) return 'a';
  if (s === numeric && (t === float4 || t === float8)) return 'i';
  return rank(t) > rank(s) ? 'i' : 'a';
}

function numberImpl(s: number, t: number): Impl {
  if (t === numeric) return (v, typmod) => numericTypmod(toNumeric(v, s), typmod);
  if (isIntOid(t)) {
    if (isIntOid(s)) return (v) => intToInt(v as number | bigint, t);
    if (s === numeric) return (v) => numericToInt(v as Numeric, t);
    return (v) => floatToInt(v as number, t);
  }
  // float targets
  if (s === numeric) return (v) => numericToFloat(v as Numeric, t);
  if (s === float8 && t === float4) return (v) => float8ToFloat4(v as number);
  if (s === int8) return (v) => (t === float4 ? Math.fround(Number(v)) : Number(v));
  return (v) => (t === float4 ? Math.fround(v as number) : (v as number));
}

const identity: Impl = (v) => v;
const unsigned: Impl = (v) => (v as number) >>> 0;
const signed: Impl = (v) => (v as number) | 0;

function c(source: number, target: number, context: CastContext, method: CastDef['method'], impl: Impl): CastDef {
  return { source, target, context, method, impl };
}

function build(): CastDef[] {
  const out: CastDef[] = [];
  for (const s of NUMBERS) {
    for (const t of NUMBERS) if (s !== t) out.push(c(s, t, numberContext(s, t), 'f', numberImpl(s, t)));
  }
  out.push(
    c(numeric, numeric, 'i', 'f', (v, typmod) => numericTypmod(v as Numeric, typmod)),
    c(bool, int4, 'e', 'f', (v) => (v ? 1 : 0)),
    c(int4, bool, 'e', 'f', (v) => v !== 0),
    c(int4, char, 'e', 'f', (v) => int4ToChar(v as number)),
    c(char, int4, 'e', 'f', (v) => charToInt4(v as string)),
    // character types
    c(bool, text, 'a', 'f', (v) => (v ? 'true' : 'false')),
    c(bool, varchar, 'a', 'f', (v, typmod, _c, e) => varcharLength(v ? 'true' : 'false', typmod, e === true)),
    c(bool, bpchar, 'a', 'f', (v, typmod, _c, e) => bpcharLength(v ? 'true' : 'false', typmod, e === true)),
    c(char, text, 'i', 'f', identity),
    c(char, varchar, 'a', 'f', (v, typmod, _c, e) => varcharLength(v as string, typmod, e === true)),
    c(char, bpchar, 'a', 'f', (v, typmod, _c, e) => bpcharLength(v as string, typmod, e === true)),
    c(text, char, 'a', 'f', (v) => firstByteChar(v as string)),
    c(varchar, char, 'a', 'f', (v) => firstByteChar(v as string)),
    c(bpchar, char, 'a', 'f', (v) => firstByteChar(v as string)),
    c(name, text, 'i', 'f', identity),
    c(name, varchar, 'a', 'f', (v, typmod, _c, e) => varcharLength(v as string, typmod, e === true)),
    c(name, bpchar, 'a', 'f', (v, typmod, _c, e) => bpcharLength(v as string, typmod, e === true)),
    c(text, name, 'i', 'f', (v) => toName(v as string)),
    c(varchar, name, 'i', 'f', (v) => toName(v as string)),
    c(bpchar, name, 'i', 'f', (v) => toName(bpcharToText(v as string))),
    c(text, bpchar, 'i', 'b', (v, typmod, _c, e) => bpcharLength(v as string, typmod, e === true)),
    c(text, varchar, 'i', 'b', (v, typmod, _c, e) => varcharLength(v as string, typmod, e === true)),
    c(varchar, text, 'i', 'b', identity),
    c(varchar, bpchar, 'i', 'b', (v, typmod, _c, e) => bpcharLength(v as string, typmod, e === true)),
    c(varchar, varchar, 'i', 'f', (v, typmod, _c, e) => varcharLength(v as string, typmod, e === true)),
    c(bpchar, text, 'i', 'f', (v) => bpcharToText(v as string)),
    c(bpchar, varchar, 'i', 'f', (v, typmod, _c, e) => varcharLength(bpcharToText(v as string), typmod, e === true)),
    c(bpchar, bpchar, 'i', 'f', (v, typmod, _c, e) => bpcharLength(v as string, typmod, e === true)),
    // oid and the reg* aliases: all 32-bit, unsigned when viewed as oid
    c(int8, oid, 'i', 'f', (v) => int8ToOid(v as bigint)),
    c(int2, oid, 'i', 'f', unsigned),
    c(int4, oid, 'i', 'b', unsigned),
    c(oid, int8, 'a', 'f', (v) => BigInt(v as number)),
    c(oid, int4, 'a', 'b', signed),
  );
  for (const r of REG) {
    out.push(
      c(int8, r, 'i', 'f', (v) => int8ToOid(v as bigint)),
      c(int2, r, 'i', 'f', unsigned),
      c(int4, r, 'i', 'b', unsigned),
      c(oid, r, 'i', 'b', identity),
      c(r, oid, 'i', 'b', identity),
      c(r, int8, 'a', 'f', (v) => BigInt(v as number)),
      c(r, int4, 'a', 'b', signed),
    );
  }
  out.push(
    c(Oid.regproc, Oid.regprocedure, 'i', 'b', identity),
    c(Oid.regprocedure, Oid.regproc, 'i', 'b', identity),
    c(Oid.regoper, Oid.regoperator, 'i', 'b', identity),
    c(Oid.regoperator, Oid.regoper, 'i', 'b', identity),
  );
  return out;
}

/** text → "char": the first byte (PostgreSQL takes one byte even of a multibyte character). */
function firstByteChar(s: string): string {
  const cp = s.codePointAt(0);
  return cp === undefined ? '' : cp < 128 ? s[0]! : String.fromCodePoint(cp);
}

export const coreCasts: readonly CastDef[] = build();
