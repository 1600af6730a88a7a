/**
 * String operators: || (text, anynonarray || text, bytea), LIKE / ILIKE (~~ ~~* !~~ !~~*), POSIX regex
 * (~ ~* !~ !~*) and ^@ (starts_with), for text, bpchar and name left operands as pg_operator has them.
 * @see https://www.postgresql.org/docs/15/functions-matching.html
 */
import { Oid } from '../common/pgtypes/oids.ts';
import type { OperatorDef } from './registry-types.ts';
import { like } from './like.ts';
import { compileRegex } from './regex.ts';
import { castToText } from './text-io.ts';

const { text, bpchar, name, bool, bytea, anynonarray } = Oid;

function regexTest(s: string, pattern: string, ci: boolean): boolean {
  const { re } = compileRegex(pattern, ci ? 'i' : '', 'regex');
  re.lastIndex = 0;
  return re.test(s);
}


type Row = readonly [number, string, number, string, string];

// [oid, operator, left type, negator, procName]
const MATCH_ROWS: readonly Row[] = [
  [1209, '~~', text, '!~~', 'textlike'], [1210, '!~~', text, '~~', 'textnlike'],
  [1211, '~~', bpchar, '!~~', 'bpcharlike'], [1212, '!~~', bpchar, '~~', 'bpcharnlike'],
  [1207, '~~', name, '!~~', 'namelike'], [1208, '!~~', name, '~~', 'namenlike'],
  [1627, '~~*', text, '!~~*', 'texticlike'], [1628, '!~~*', text, '~~*', 'texticnlike'],
  [1629, '~~*', bpchar, '!~~*', 'bpchariclike'], [1630, '!~~*', bpchar, '~~*', 'bpcharicnlike'],
  [1625, '~~*', name, '!~~*', 'nameiclike'], [1626, '!~~*', name, '~~*', 'nameicnlike'],
  [641, '~', text, '!~', 'textregexeq'], [642, '!~', text, '~', 'textregexne'],
  [1055, '~', bpchar, '!~', 'bpcharregexeq'], [1056, '!~', bpchar, '~', 'bpcharregexne'],
  [639, '~', name, '!~', 'nameregexeq'], [640, '!~', name, '~', 'nameregexne'],
  [1228, '~*', text, '!~*', 'texticregexeq'], [1229, '!~*', text, '~*', 'texticregexne'],
  [1234, '~*', bpchar, '!~*', 'bpcharicregexeq'], [1235, '!~*', bpchar, '~*', 'bpcharicregexne'],
  [1226, '~*', name, '!~*', 'nameicregexeq'], [1227, '!~*', name, '~*', 'nameicregexne'],
];

/** bpchar operands keep their blank padding here, as in PostgreSQL ('ab'::char(4) LIKE 'ab' is false). */
function matchImpl(op: string): OperatorDef['impl'] {
  const negate = op.startsWith('!');
  const base = negate ? op.slice(1) : op;
  const ci = base.endsWith('*');
  const isLike = base.startsWith('~~');
  return (l, r) => {
    const s = l as string;
    const hit = isLike ? like(s, r as string, ci) : regexTest(s, r as string, ci);
    return negate ? !hit : hit;
  };
}

const matchOps: OperatorDef[] = MATCH_ROWS.map(([oid, op, left, negator, procName]) => ({
  oid, name: op, left, right: text, returns: bool, negator, procName, impl: matchImpl(op),
}));

function concatBytes(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

export const stringOperators: readonly OperatorDef[] = [
  { oid: 654, name: '||', left: text, right: text, returns: text, procName: 'textcat', impl: (a, b) => (a as string) + (b as string) },
  { oid: 2779, name: '||', left: text, right: anynonarray, returns: text, procName: 'textanycat',
    impl: (a, b, ctx, _lt, rt) => (a as string) + castToText(rt.oid, b, ctx) },
  { oid: 2780, name: '||', left: anynonarray, right: text, returns: text, procName: 'anytextcat',
    impl: (a, b, ctx, lt) => castToText(lt.oid, a, ctx) + (b as string) },
  { oid: 2018, name: '||', left: bytea, right: bytea, returns: bytea, procName: 'byteacat', impl: (a, b) => concatBytes(a as Uint8Array, b as Uint8Array) },
  { oid: 3877, name: '^@', left: text, right: text, returns: bool, procName: 'starts_with', impl: (a, b) => (a as string).startsWith(b as string) },
  ...matchOps,
];
