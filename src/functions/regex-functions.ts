/**
 * The regexp_* functions of PostgreSQL 15: regexp_replace, regexp_match(es), regexp_split_to_array/table,
 * regexp_count, regexp_like, regexp_substr, regexp_instr, on top of regex.ts's ARE → RegExp translation.
 * @see https://www.postgresql.org/docs/15/functions-matching.html#FUNCTIONS-POSIX-REGEXP
 */
import { Oid } from '../common/pgtypes/oids.ts';
import { GatewayError } from '../common/errors.ts';
import { SqlState } from '../common/sqlstate.ts';
import type { RoutineDef, ScalarFunctionDef, SetFunctionDef } from './registry-types.ts';
import { compileRegex, matchAll, parseFlags } from './regex.ts';
import { charPosition, textArray, unitOffset } from './string-support.ts';

const { text, int4, bool } = Oid;
const _text = Oid._text;

function badParam(name: string, v: number): GatewayError {
  return new GatewayError(SqlState.invalid_parameter_value, `invalid value for parameter "${name}": ${v}`);
}

function checkStart(start: number): void {
  if (start <= 0) throw badParam('start', start);
}

/** Expands \1..\9, \& and \\ in a regexp_replace replacement string. */
function expandReplacement(rep: string, m: RegExpExecArray): string {
  if (!rep.includes('\\')) return rep;
  let out = '';
  for (let i = 0; i < rep.length; i++) {
    const c = rep[i]!;
    if (c !== '\\' || i + 1 >= rep.length) {
      out += c;
      continue;
    }
    const n = rep[i + 1]!;
    if (n >= '1' && n <= '9') {
      out += m[Number(n)] ?? '';
      i++;
    } else if (n === '&') {
      out += m[0];
      i++;
    } else if (n === '\\') {
      out += '\\';
      i++;
    } else out += c;
  }
  return out;
}

/** regexp_replace(s, pattern, rep, start, n, flags): n = 0 replaces every match, else only the n-th. */
export function regexpReplace(s: string, pattern: string, rep: string, start: number, nth: number, flags: string): string {
  checkStart(start);
  if (nth < 0) throw badParam('n', nth);
  const { re } = compileRegex(pattern, flags);
  let out = '';
  let last = 0;
  let k = 0;
  for (const m of matchAll(re, s, unitOffset(s, start))) {
    k++;
    if (nth !== 0 && k < nth) continue;
    out += s.slice(last, m.index) + expandReplacement(rep, m);
    last = m.index + m[0].length;
    if (nth !== 0) break;
  }
  return out + s.slice(last);
}

function groups(m: RegExpExecArray): Array<string | null> {
  return m.length > 1 ? m.slice(1).map((g) => g ?? null) : [m[0]];
}

export function regexpMatch(s: string, pattern: string, flags: string): Array<string | null> | null {
  parseFlags(flags, false, 'regexp_match');
  const { re } = compileRegex(pattern, flags);
  re.lastIndex = 0;
  const m = re.exec(s);
  return m === null ? null : groups(m);
}

function* regexpMatches(s: string, pattern: string, flags: string): Generator<unknown> {
  const { re, global } = compileRegex(pattern, flags, 'regexp_matches');
  for (const m of matchAll(re, s)) {
    yield textArray(groups(m));
    if (!global) return;
  }
}

/** regexp_split_to_*: zero-length matches at the start, the end, or right after a match are ignored. */
export function regexpSplit(s: string, pattern: string, flags: string, fn: string): string[] {
  const { global } = parseFlags(flags, true, fn);
  if (global) throw new GatewayError(SqlState.invalid_parameter_value, `${fn}() does not support the "global" option`);
  const { re } = compileRegex(pattern, flags, fn);
  const out: string[] = [];
  let prevEnd = 0;
  for (const m of matchAll(re, s)) {
    const end = m.index + m[0].length;
    if (m.index >= s.length || end <= prevEnd) continue;
    if (m[0].length === 0 && m.index === 0) continue;
    out.push(s.slice(prevEnd, m.index));
    prevEnd = end;
  }
  out.push(s.slice(prevEnd));
  return out;
}

function regexpCount(s: string, pattern: string, start: number, flags: string): number {
  checkStart(start);
  parseFlags(flags, false, 'regexp_count');
  const { re } = compileRegex(pattern, flags, 'regexp_count');
  let k = 0;
  for (const _ of matchAll(re, s, unitOffset(s, start))) k++;
  return k;
}

/** The n-th match at or after `start` (1-based), or undefined. */
function nthMatch(s: string, pattern: string, start: number, nth: number, flags: string, fn: string): RegExpExecArray | undefined {
  checkStart(start);
  if (nth <= 0) throw badParam('n', nth);
  parseFlags(flags, false, fn);
  const { re } = compileRegex(pattern, flags, fn);
  let k = 0;
  for (const m of matchAll(re, s, unitOffset(s, start))) if (++k === nth) return m;
  return undefined;
}

function subexpr(m: RegExpExecArray, sub: number): [string | undefined, number] {
  if (sub < 0) throw badParam('subexpr', sub);
  if (sub === 0) return [m[0], m.index];
  const g = m[sub];
  if (g === undefined) return [undefined, -1];
  // locate the group inside the match (JS has no per-group offsets without the d flag)
  const at = m.indices?.[sub]?.[0] ?? m.index + m[0].indexOf(g);
  return [g, at];
}

function regexpSubstr(a: unknown[]): string | null {
  const s = a[0] as string;
  const m = nthMatch(s, a[1] as string, (a[2] as number | undefined) ?? 1, (a[3] as number | undefined) ?? 1, (a[4] as string | undefined) ?? '', 'regexp_substr');
  if (m === undefined) return null;
  return subexpr(m, (a[5] as number | undefined) ?? 0)[0] ?? null;
}

function regexpInstr(a: unknown[]): number {
  const s = a[0] as string;
  const endOpt = (a[4] as number | undefined) ?? 0;
  if (endOpt !== 0 && endOpt !== 1) throw badParam('endoption', endOpt);
  const m = nthMatch(s, a[1] as string, (a[2] as number | undefined) ?? 1, (a[3] as number | undefined) ?? 1, (a[5] as string | undefined) ?? '', 'regexp_instr');
  if (m === undefined) return 0;
  const [g, at] = subexpr(m, (a[6] as number | undefined) ?? 0);
  if (g === undefined || at < 0) return 0;
  return charPosition(s, endOpt === 1 ? at + g.length : at);
}

function fn(oid: number, name: string, args: number[], returns: number, impl: ScalarFunctionDef['impl']): ScalarFunctionDef {
  return { kind: 'scalar', oid, name, args, returns, volatility: 'i', impl };
}

function setFn(oid: number, name: string, args: number[], returns: number, impl: SetFunctionDef['impl']): SetFunctionDef {
  return { kind: 'set', oid, name, args, returns, volatility: 'i', impl };
}

const str = (a: unknown[], i: number): string => a[i] as string;
const num = (a: unknown[], i: number): number => a[i] as number;

export const regexFunctions: readonly RoutineDef[] = [
  fn(2284, 'regexp_replace', [text, text, text], text, (a) => regexpReplace(str(a, 0), str(a, 1), str(a, 2), 1, 1, '')),
  fn(2285, 'regexp_replace', [text, text, text, text], text, (a) => {
    const flags = str(a, 3);
    return regexpReplace(str(a, 0), str(a, 1), str(a, 2), 1, flags.includes('g') ? 0 : 1, flags);
  }),
  fn(6253, 'regexp_replace', [text, text, text, int4], text, (a) => regexpReplace(str(a, 0), str(a, 1), str(a, 2), num(a, 3), 1, '')),
  fn(6252, 'regexp_replace', [text, text, text, int4, int4], text, (a) => regexpReplace(str(a, 0), str(a, 1), str(a, 2), num(a, 3), num(a, 4), '')),
  fn(6251, 'regexp_replace', [text, text, text, int4, int4, text], text, (a) => regexpReplace(str(a, 0), str(a, 1), str(a, 2), num(a, 3), num(a, 4), str(a, 5))),
  fn(3396, 'regexp_match', [text, text], _text, (a) => nullableArray(regexpMatch(str(a, 0), str(a, 1), ''))),
  fn(3397, 'regexp_match', [text, text, text], _text, (a) => nullableArray(regexpMatch(str(a, 0), str(a, 1), str(a, 2)))),
  setFn(2763, 'regexp_matches', [text, text], _text, (a) => regexpMatches(str(a, 0), str(a, 1), '')),
  setFn(2764, 'regexp_matches', [text, text, text], _text, (a) => regexpMatches(str(a, 0), str(a, 1), str(a, 2))),
  fn(2767, 'regexp_split_to_array', [text, text], _text, (a) => textArray(regexpSplit(str(a, 0), str(a, 1), '', 'regexp_split_to_array'))),
  fn(2768, 'regexp_split_to_array', [text, text, text], _text, (a) => textArray(regexpSplit(str(a, 0), str(a, 1), str(a, 2), 'regexp_split_to_array'))),
  setFn(2765, 'regexp_split_to_table', [text, text], text, (a) => regexpSplit(str(a, 0), str(a, 1), '', 'regexp_split_to_table')),
  setFn(2766, 'regexp_split_to_table', [text, text, text], text, (a) => regexpSplit(str(a, 0), str(a, 1), str(a, 2), 'regexp_split_to_table')),
  fn(6254, 'regexp_count', [text, text], int4, (a) => regexpCount(str(a, 0), str(a, 1), 1, '')),
  fn(6255, 'regexp_count', [text, text, int4], int4, (a) => regexpCount(str(a, 0), str(a, 1), num(a, 2), '')),
  fn(6256, 'regexp_count', [text, text, int4, text], int4, (a) => regexpCount(str(a, 0), str(a, 1), num(a, 2), str(a, 3))),
  fn(6263, 'regexp_like', [text, text], bool, (a) => regexpMatch(str(a, 0), str(a, 1), '') !== null),
  fn(6264, 'regexp_like', [text, text, text], bool, (a) => regexpLike(str(a, 0), str(a, 1), str(a, 2))),
  fn(6265, 'regexp_substr', [text, text], text, regexpSubstr),
  fn(6266, 'regexp_substr', [text, text, int4], text, regexpSubstr),
  fn(6267, 'regexp_substr', [text, text, int4, int4], text, regexpSubstr),
  fn(6268, 'regexp_substr', [text, text, int4, int4, text], text, regexpSubstr),
  fn(6269, 'regexp_substr', [text, text, int4, int4, text, int4], text, regexpSubstr),
  fn(6257, 'regexp_instr', [text, text], int4, regexpInstr),
  fn(6258, 'regexp_instr', [text, text, int4], int4, regexpInstr),
  fn(6259, 'regexp_instr', [text, text, int4, int4], int4, regexpInstr),
  fn(6260, 'regexp_instr', [text, text, int4, int4, int4], int4, regexpInstr),
  fn(6261, 'regexp_instr', [text, text, int4, int4, int4, text], int4, regexpInstr),
  fn(6262, 'regexp_instr', [text, text, int4, int4, int4, text, int4], int4, regexpInstr),
];

function regexpLike(s: string, pattern: string, flags: string): boolean {
  parseFlags(flags, false, 'regexp_like');
  return regexpMatch(s, pattern, flags) !== null;
}

function nullableArray(v: Array<string | null> | null): unknown {
  return v === null ? null : textArray(v);
}
