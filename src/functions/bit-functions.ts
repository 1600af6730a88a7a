/**
 * bit and bit varying: the functions, operators, casts and aggregates of PostgreSQL 15 with their pg_proc /
 * pg_operator OIDs. Values are strings of '0' / '1' (common/pgtypes/values.ts); the bit string math lives in
 * common/pgtypes/bit-math.ts. bit and varbit cast to each other binary-coercibly and implicitly, so varbit reaches the
 * bit signatures (and bit reaches varbit's ||) as in PostgreSQL.
 * @see https://www.postgresql.org/docs/15/functions-bitstring.html
 */
import { Oid } from '../common/pgtypes/oids.ts';
import {
  bitBitwise, bitCount, bitFromInt, bitGetBit, bitLengthCoerce, bitNot, bitOverlay, bitPosition, bitSetBit, bitShiftLeft,
  bitShiftRight, bitSubstring, bitToInt, varbitLengthCoerce,
} from '../common/pgtypes/bit-math.ts';
import type { AggregateDef, CastDef, OperatorDef, ScalarFunctionDef } from './registry-types.ts';
import { testCompare, type CompareOp } from './operators-compare.ts';
import { FoldState } from './fold-state.ts';
import { operatorProcFunctions } from './operator-proc-functions.ts';

const { bit, varbit, int4, int8, bool } = Oid;

const s = (v: unknown): string => v as string;
const n = (v: unknown): number => v as number;

function fn(oid: number, name: string, args: number[], returns: number, impl: (a: unknown[]) => unknown): ScalarFunctionDef {
  return { kind: 'scalar', oid, name, args, returns, volatility: 'i', impl: (a) => impl(a) };
}

/** bit strings compare as bitcmp does: bit by bit, then the shorter first — the order of the '0' / '1' strings */
function cmpBits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * bitcmp's own value: memcmp over the common bytes (glibc answers the difference of the first differing bytes, e.g.
 * 128 for B'1' vs B'0'), then -1 / 1 by bit length
 */
function bitCmp(a: string, b: string): number {
  const bytes = Math.min(a.length + 7, b.length + 7) >> 3;
  for (let i = 0; i < bytes; i++) {
    const x = parseInt(a.slice(i * 8, i * 8 + 8).padEnd(8, '0'), 2);
    const y = parseInt(b.slice(i * 8, i * 8 + 8).padEnd(8, '0'), 2);
    if (x !== y) return x - y;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

function foldAgg(oid: number, name: string, op: '&' | '|' | '#'): AggregateDef {
  return {
    kind: 'aggregate', oid, name, args: [bit], returns: bit, volatility: 'i',
    create: () => new FoldState<string>((a, b) => bitBitwise(op, a, b)),
  };
}

export const bitFunctions: readonly (ScalarFunctionDef | AggregateDef)[] = [
  fn(1681, 'length', [bit], int4, ([a]) => s(a).length),
  fn(1812, 'bit_length', [bit], int4, ([a]) => s(a).length),
  fn(1682, 'octet_length', [bit], int4, ([a]) => (s(a).length + 7) >> 3),
  fn(6162, 'bit_count', [bit], int8, ([a]) => bitCount(s(a))),
  fn(1680, 'substring', [bit, int4, int4], bit, ([a, b, c]) => bitSubstring(s(a), n(b), n(c))),
  fn(1699, 'substring', [bit, int4], bit, ([a, b]) => bitSubstring(s(a), n(b))),
  fn(1698, 'position', [bit, bit], int4, ([a, b]) => bitPosition(s(a), s(b))),
  fn(3030, 'overlay', [bit, bit, int4, int4], bit, ([a, b, c, d]) => bitOverlay(s(a), s(b), n(c), n(d))),
  fn(3031, 'overlay', [bit, bit, int4], bit, ([a, b, c]) => bitOverlay(s(a), s(b), n(c))),
  fn(3032, 'get_bit', [bit, int4], int4, ([a, b]) => bitGetBit(s(a), n(b))),
  fn(3033, 'set_bit', [bit, int4, int4], bit, ([a, b, c]) => bitSetBit(s(a), n(b), n(c))),
  fn(1673, 'bitand', [bit, bit], bit, ([a, b]) => bitBitwise('&', s(a), s(b))),
  fn(1674, 'bitor', [bit, bit], bit, ([a, b]) => bitBitwise('|', s(a), s(b))),
  fn(1675, 'bitxor', [bit, bit], bit, ([a, b]) => bitBitwise('#', s(a), s(b))),
  fn(1676, 'bitnot', [bit], bit, ([a]) => bitNot(s(a))),
  fn(1677, 'bitshiftleft', [bit, int4], bit, ([a, b]) => bitShiftLeft(s(a), n(b))),
  fn(1678, 'bitshiftright', [bit, int4], bit, ([a, b]) => bitShiftRight(s(a), n(b))),
  fn(1679, 'bitcat', [varbit, varbit], varbit, ([a, b]) => s(a) + s(b)),
  fn(1596, 'bitcmp', [bit, bit], int4, ([a, b]) => bitCmp(s(a), s(b))),
  fn(1672, 'varbitcmp', [varbit, varbit], int4, ([a, b]) => bitCmp(s(a), s(b))),
  fn(1683, 'bit', [int4, int4], bit, ([a, b]) => bitFromInt(n(a), 32, n(b))),
  fn(2075, 'bit', [int8, int4], bit, ([a, b]) => bitFromInt(a as bigint, 64, n(b))),
  fn(1685, 'bit', [bit, int4, bool], bit, ([a, b, c]) => bitLengthCoerce(s(a), n(b), c === true)),
  fn(1687, 'varbit', [varbit, int4, bool], varbit, ([a, b, c]) => varbitLengthCoerce(s(a), n(b), c === true)),
  fn(1684, 'int4', [bit], int4, ([a]) => bitToInt(s(a), 32)),
  fn(2076, 'int8', [bit], int8, ([a]) => bitToInt(s(a), 64)),
  foldAgg(2242, 'bit_and', '&'),
  foldAgg(2243, 'bit_or', '|'),
  foldAgg(6167, 'bit_xor', '#'),
];

const CMP_COMMUTATOR: Record<CompareOp, CompareOp> = { '=': '=', '<>': '<>', '<': '>', '<=': '>=', '>': '<', '>=': '<=' };
const CMP_NEGATOR: Record<CompareOp, CompareOp> = { '=': '<>', '<>': '=', '<': '>=', '<=': '>', '>': '<=', '>=': '<' };
const CMP: ReadonlyArray<readonly [CompareOp, number, number, string]> = [
  // [operator, bit oid, varbit oid, suffix of bit<suffix> / varbit<suffix>]
  ['=', 1784, 1804, 'eq'], ['<>', 1785, 1805, 'ne'], ['<', 1786, 1806, 'lt'],
  ['>', 1787, 1807, 'gt'], ['<=', 1788, 1808, 'le'], ['>=', 1789, 1809, 'ge'],
];

function compareOps(type: number, index: 1 | 2, prefix: string): OperatorDef[] {
  return CMP.map((row): OperatorDef => {
    const op = row[0];
    return {
      oid: row[index], name: op, left: type, right: type, returns: bool, procName: prefix + row[3],
      commutator: CMP_COMMUTATOR[op], negator: CMP_NEGATOR[op],
      impl: op === '=' ? (a, b) => a === b : op === '<>' ? (a, b) => a !== b : (a, b) => testCompare(op, cmpBits(s(a), s(b))),
    };
  });
}

export const bitOperators: readonly OperatorDef[] = [
  ...compareOps(bit, 1, 'bit'),
  ...compareOps(varbit, 2, 'varbit'),
  { oid: 1791, name: '&', left: bit, right: bit, returns: bit, procName: 'bitand', commutator: '&', impl: (a, b) => bitBitwise('&', s(a), s(b)) },
  { oid: 1792, name: '|', left: bit, right: bit, returns: bit, procName: 'bitor', commutator: '|', impl: (a, b) => bitBitwise('|', s(a), s(b)) },
  { oid: 1793, name: '#', left: bit, right: bit, returns: bit, procName: 'bitxor', commutator: '#', impl: (a, b) => bitBitwise('#', s(a), s(b)) },
  { oid: 1794, name: '~', left: 0, right: bit, returns: bit, procName: 'bitnot', impl: (_a, b) => bitNot(s(b)) },
  { oid: 1795, name: '<<', left: bit, right: int4, returns: bit, procName: 'bitshiftleft', impl: (a, b) => bitShiftLeft(s(a), n(b)) },
  { oid: 1796, name: '>>', left: bit, right: int4, returns: bit, procName: 'bitshiftright', impl: (a, b) => bitShiftRight(s(a), n(b)) },
  { oid: 1797, name: '||', left: varbit, right: varbit, returns: varbit, procName: 'bitcat', impl: (a, b) => s(a) + s(b) },
];

/** pg_cast's bit rows: bit ↔ varbit binary-coercible, the length coercions, and int4 / int8 (explicit only) */
export const bitCasts: readonly CastDef[] = [
  { source: bit, target: varbit, context: 'i', method: 'b', impl: (v) => v },
  { source: varbit, target: bit, context: 'i', method: 'b', impl: (v) => v },
  { source: bit, target: bit, context: 'i', method: 'f', impl: (v, typmod, _c, e) => bitLengthCoerce(s(v), typmod, e === true) },
  { source: varbit, target: varbit, context: 'i', method: 'f', impl: (v, typmod, _c, e) => varbitLengthCoerce(s(v), typmod, e === true) },
  { source: int4, target: bit, context: 'e', method: 'f', impl: (v, typmod) => bitFromInt(n(v), 32, typmod) },
  { source: int8, target: bit, context: 'e', method: 'f', impl: (v, typmod) => bitFromInt(v as bigint, 64, typmod) },
  { source: bit, target: int4, context: 'e', method: 'f', impl: (v) => bitToInt(s(v), 32) },
  { source: bit, target: int8, context: 'e', method: 'f', impl: (v) => bitToInt(s(v), 64) },
];

/** pg_proc OIDs of the comparison functions (the others are in bitFunctions) */
const PROC_OIDS: Readonly<Record<string, number>> = {
  biteq: 1581, bitne: 1582, bitlt: 1595, bitle: 1594, bitgt: 1593, bitge: 1592,
  varbiteq: 1666, varbitne: 1667, varbitlt: 1671, varbitle: 1670, varbitgt: 1669, varbitge: 1668,
};

/** biteq, varbitlt … callable by name */
export const bitOperatorFunctions: readonly ScalarFunctionDef[] = operatorProcFunctions(bitOperators, PROC_OIDS);
