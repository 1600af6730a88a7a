/**
 * Arithmetic operators on int2/int4/int8/float4/float8/numeric (pg_operator rows of PostgreSQL 15 with
 * their OIDs): + - * / % ^, prefix - + @ |/ ||/, and the integer bitwise operators & | # ~ << >>.
 * Overflow, division by zero and float range errors carry PostgreSQL's SQLSTATE and wording.
 * @see https://www.postgresql.org/docs/15/functions-math.html
 */
import { Oid } from '../common/pgtypes/oids.ts';
import { Numeric } from '../common/pgtypes/numeric.ts';
import { numericPower } from '../common/pgtypes/numeric-math.ts';
import { GatewayError } from '../common/errors.ts';
import { SqlState } from '../common/sqlstate.ts';
import type { OperatorDef } from './registry-types.ts';
import { checkInt2, checkInt4, checkInt8, floatArith, floatPower, intArith, type ArithOp } from './int-arith.ts';

const { int2, int4, int8, float4, float8, numeric } = Oid;

/** [oid, name, left, right, result, procName] for the binary + - * / % rows of pg_operator. */
type Row = readonly [number, ArithOp, number, number, number, string];

const ARITH_ROWS: readonly Row[] = [
  [551, '+', int4, int4, int4, 'int4pl'], [550, '+', int2, int2, int2, 'int2pl'], [684, '+', int8, int8, int8, 'int8pl'],
  [552, '+', int2, int4, int4, 'int24pl'], [553, '+', int4, int2, int4, 'int42pl'], [822, '+', int2, int8, int8, 'int28pl'],
  [818, '+', int8, int2, int8, 'int82pl'], [692, '+', int4, int8, int8, 'int48pl'], [688, '+', int8, int4, int8, 'int84pl'],
  [586, '+', float4, float4, float4, 'float4pl'], [591, '+', float8, float8, float8, 'float8pl'],
  [1116, '+', float4, float8, float8, 'float48pl'], [1126, '+', float8, float4, float8, 'float84pl'],
  [1758, '+', numeric, numeric, numeric, 'numeric_add'],
  [555, '-', int4, int4, int4, 'int4mi'], [554, '-', int2, int2, int2, 'int2mi'], [685, '-', int8, int8, int8, 'int8mi'],
  [556, '-', int2, int4, int4, 'int24mi'], [557, '-', int4, int2, int4, 'int42mi'], [823, '-', int2, int8, int8, 'int28mi'],
  [819, '-', int8, int2, int8, 'int82mi'], [693, '-', int4, int8, int8, 'int48mi'], [689, '-', int8, int4, int8, 'int84mi'],
  [587, '-', float4, float4, float4, 'float4mi'], [592, '-', float8, float8, float8, 'float8mi'],
  [1117, '-', float4, float8, float8, 'float48mi'], [1127, '-', float8, float4, float8, 'float84mi'],
  [1759, '-', numeric, numeric, numeric, 'numeric_sub'],
  [514, '*', int4, int4, int4, 'int4mul'], [526, '*', int2, int2, int2, 'int2mul'], [686, '*', int8, int8, int8, 'int8mul'],
  [544, '*', int2, int4, int4, 'int24mul'], [545, '*', int4, int2, int4, 'int42mul'], [824, '*', int2, int8, int8, 'int28mul'],
  [820, '*', int8, int2, int8, 'int82mul'], [694, '*', int4, int8, int8, 'int48mul'], [690, '*', int8, int4, int8, 'int84mul'],
  [589, '*', float4, float4, float4, 'float4mul'], [594, '*', float8, float8, float8, 'float8mul'],
  [1119, '*', float4, float8, float8, 'float48mul'], [1129, '*', float8, float4, float8, 'float84mul'],
  [1760, '*', numeric, numeric, numeric, 'numeric_mul'],
  [528, '/', int4, int4, int4, 'int4div'], [527, '/', int2, int2, int2, 'int2div'], [687, '/', int8, int8, int8, 'int8div'],
  [546, '/', int2, int4, int4, 'int24div'], [547, '/', int4, int2, int4, 'int42div'], [825, '/', int2, int8, int8, 'int28div'],
  [821, '/', int8, int2, int8, 'int82div'], [695, '/', int4, int8, int8, 'int48div'], [691, '/', int8, int4, int8, 'int84div'],
  [588, '/', float4, float4, float4, 'float4div'], [593, '/', float8, float8, float8, 'float8div'],
  [1118, '/', float4, float8, float8, 'float48div'], [1128, '/', float8, float4, float8, 'float84div'],
  [1761, '/', numeric, numeric, numeric, 'numeric_div'],
  [530, '%', int4, int4, int4, 'int4mod'], [529, '%', int2, int2, int2, 'int2mod'], [439, '%', int8, int8, int8, 'int8mod'],
  [1762, '%', numeric, numeric, numeric, 'numeric_mod'],
];

function numericArith(op: ArithOp, a: Numeric, b: Numeric): Numeric {
  switch (op) {
    case '+': return a.add(b);
    case '-': return a.sub(b);
    case '*': return a.mul(b);
    case '/': return a.div(b);
    case '%': return a.mod(b);
  }
}

function arithImpl(op: ArithOp, result: number): OperatorDef['impl'] {
  if (result === numeric) return (a, b) => numericArith(op, a as Numeric, b as Numeric);
  if (result === float4 || result === float8) {
    return (a, b) => floatArith(op as Exclude<ArithOp, '%'>, result, a as number, b as number);
  }
  return (a, b) => intArith(op, result, a as number | bigint, b as number | bigint);
}

const COMMUTATOR: Partial<Record<ArithOp, ArithOp>> = { '+': '+', '*': '*' };

const arith: OperatorDef[] = ARITH_ROWS.map(([oid, name, left, right, result, procName]) => {
  const c = COMMUTATOR[name];
  return { oid, name, left, right, returns: result, procName, impl: arithImpl(name, result), ...(c === undefined ? {} : { commutator: c }) };
});

const int2Range = (v: number): number => checkInt2(v);
const int4Range = (v: number): number => checkInt4(v);

/** Prefix operators: unary minus/plus, absolute value, square and cube root. */
const prefix: OperatorDef[] = [
  { oid: 558, name: '-', left: 0, right: int4, returns: int4, procName: 'int4um', impl: (_l, r) => int4Range(-(r as number)) },
  { oid: 559, name: '-', left: 0, right: int2, returns: int2, procName: 'int2um', impl: (_l, r) => int2Range(-(r as number)) },
  { oid: 484, name: '-', left: 0, right: int8, returns: int8, procName: 'int8um', impl: (_l, r) => checkInt8(-(r as bigint)) },
  { oid: 584, name: '-', left: 0, right: float4, returns: float4, procName: 'float4um', impl: (_l, r) => -(r as number) },
  { oid: 585, name: '-', left: 0, right: float8, returns: float8, procName: 'float8um', impl: (_l, r) => -(r as number) },
  { oid: 1751, name: '-', left: 0, right: numeric, returns: numeric, procName: 'numeric_uminus', impl: (_l, r) => (r as Numeric).neg() },
  { oid: 1918, name: '+', left: 0, right: int4, returns: int4, procName: 'int4up', impl: (_l, r) => r },
  { oid: 1917, name: '+', left: 0, right: int2, returns: int2, procName: 'int2up', impl: (_l, r) => r },
  { oid: 1916, name: '+', left: 0, right: int8, returns: int8, procName: 'int8up', impl: (_l, r) => r },
  { oid: 1919, name: '+', left: 0, right: float4, returns: float4, procName: 'float4up', impl: (_l, r) => r },
  { oid: 1920, name: '+', left: 0, right: float8, returns: float8, procName: 'float8up', impl: (_l, r) => r },
  { oid: 1921, name: '+', left: 0, right: numeric, returns: numeric, procName: 'numeric_uplus', impl: (_l, r) => r },
  { oid: 773, name: '@', left: 0, right: int4, returns: int4, procName: 'int4abs', impl: (_l, r) => int4Range(Math.abs(r as number)) },
  { oid: 682, name: '@', left: 0, right: int2, returns: int2, procName: 'int2abs', impl: (_l, r) => int2Range(Math.abs(r as number)) },
  { oid: 473, name: '@', left: 0, right: int8, returns: int8, procName: 'int8abs', impl: (_l, r) => checkInt8((r as bigint) < 0n ? -(r as bigint) : (r as bigint)) },
  { oid: 590, name: '@', left: 0, right: float4, returns: float4, procName: 'float4abs', impl: (_l, r) => Math.abs(r as number) },
  { oid: 595, name: '@', left: 0, right: float8, returns: float8, procName: 'float8abs', impl: (_l, r) => Math.abs(r as number) },
  { oid: 1763, name: '@', left: 0, right: numeric, returns: numeric, procName: 'numeric_abs', impl: (_l, r) => (r as Numeric).abs() },
  { oid: 596, name: '|/', left: 0, right: float8, returns: float8, procName: 'dsqrt', impl: (_l, r) => float8Sqrt(r as number) },
  { oid: 597, name: '||/', left: 0, right: float8, returns: float8, procName: 'dcbrt', impl: (_l, r) => Math.cbrt(r as number) },
];

export function float8Sqrt(x: number): number {
  if (x < 0) throw new GatewayError(SqlState.invalid_argument_for_power_function, 'cannot take square root of a negative number');
  return Math.sqrt(x);
}

const power: OperatorDef[] = [
  { oid: 965, name: '^', left: float8, right: float8, returns: float8, procName: 'dpow', impl: (a, b) => floatPower(a as number, b as number) },
  { oid: 1038, name: '^', left: numeric, right: numeric, returns: numeric, procName: 'numeric_power', impl: (a, b) => numericPower(a as Numeric, b as Numeric) },
];

type BitOp = '&' | '|' | '#';
const BIT_OIDS: Record<BitOp, readonly [number, number, number, string]> = {
  '&': [1874, 1880, 1886, 'and'],
  '|': [1875, 1881, 1887, 'or'],
  '#': [1876, 1882, 1888, 'xor'],
};

function bitNum(op: BitOp, a: number, b: number): number {
  return op === '&' ? a & b : op === '|' ? a | b : a ^ b;
}

function bitBig(op: BitOp, a: bigint, b: bigint): bigint {
  return op === '&' ? a & b : op === '|' ? a | b : a ^ b;
}

const bitwise: OperatorDef[] = [];
for (const op of ['&', '|', '#'] as const) {
  const [o2, o4, o8, suffix] = BIT_OIDS[op];
  const impl2: OperatorDef['impl'] = (a, b) => bitNum(op, a as number, b as number);
  const impl8: OperatorDef['impl'] = (a, b) => bitBig(op, a as bigint, b as bigint);
  bitwise.push(
    { oid: o2, name: op, left: int2, right: int2, returns: int2, procName: `int2${suffix}`, commutator: op, impl: impl2 },
    { oid: o4, name: op, left: int4, right: int4, returns: int4, procName: `int4${suffix}`, commutator: op, impl: impl2 },
    { oid: o8, name: op, left: int8, right: int8, returns: int8, procName: `int8${suffix}`, commutator: op, impl: impl8 },
  );
}
bitwise.push(
  { oid: 1877, name: '~', left: 0, right: int2, returns: int2, procName: 'int2not', impl: (_l, r) => ~(r as number) },
  { oid: 1883, name: '~', left: 0, right: int4, returns: int4, procName: 'int4not', impl: (_l, r) => ~(r as number) },
  { oid: 1889, name: '~', left: 0, right: int8, returns: int8, procName: 'int8not', impl: (_l, r) => ~(r as bigint) },
  // C shifts: the count is taken modulo the operand width on x86, and int2 results wrap to 16 bits
  { oid: 1878, name: '<<', left: int2, right: int4, returns: int2, procName: 'int2shl', impl: (a, b) => ((a as number) << (b as number) << 16) >> 16 },
  { oid: 1884, name: '<<', left: int4, right: int4, returns: int4, procName: 'int4shl', impl: (a, b) => (a as number) << (b as number) },
  { oid: 1890, name: '<<', left: int8, right: int4, returns: int8, procName: 'int8shl', impl: (a, b) => BigInt.asIntN(64, (a as bigint) << BigInt((b as number) & 63)) },
  { oid: 1879, name: '>>', left: int2, right: int4, returns: int2, procName: 'int2shr', impl: (a, b) => (a as number) >> (b as number) },
  { oid: 1885, name: '>>', left: int4, right: int4, returns: int4, procName: 'int4shr', impl: (a, b) => (a as number) >> (b as number) },
  { oid: 1891, name: '>>', left: int8, right: int4, returns: int8, procName: 'int8shr', impl: (a, b) => (a as bigint) >> BigInt((b as number) & 63) },
);

export const numericOperators: readonly OperatorDef[] = [...arith, ...prefix, ...power, ...bitwise];
