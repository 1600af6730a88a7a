/**
 * money: PostgreSQL 15's operators, functions, casts and aggregates (sum, min, max — there is no avg(money)) with
 * their pg_proc / pg_operator OIDs. Values are 64-bit counts of cents (bigint, common/pgtypes/values.ts); the
 * arithmetic and its errors live in common/pgtypes/money-math.ts. money × numeric resolves to the float8 operators
 * through numeric → float8's implicit cast, as in PostgreSQL.
 * @see https://www.postgresql.org/docs/15/datatype-money.html
 */
import { Oid } from '../common/pgtypes/oids.ts';
import type { Numeric } from '../common/pgtypes/numeric.ts';
import {
  cashAdd, cashDivCash, cashDivFloat, cashDivInt, cashMulFloat, cashMulInt, cashSub, cashToNumeric, cashWords, intToCash,
  numericToCash,
} from '../common/pgtypes/money-math.ts';
import type { AggregateDef, CastDef, OperatorDef, ScalarFunctionDef } from './registry-types.ts';
import { testCompare, type CompareOp } from './operators-compare.ts';
import { FoldState } from './fold-state.ts';
import { operatorProcFunctions } from './operator-proc-functions.ts';

const { money, int2, int4, int8, float4, float8, numeric, bool, text } = Oid;

const m = (v: unknown): bigint => v as bigint;
const cmpCash = (a: bigint, b: bigint): number => (a < b ? -1 : a > b ? 1 : 0);

function fn(oid: number, name: string, args: number[], returns: number, impl: (a: unknown[]) => unknown): ScalarFunctionDef {
  return { kind: 'scalar', oid, name, args, returns, volatility: 'i', impl: (a) => impl(a) };
}

function fold(oid: number, name: string, merge: (a: bigint, b: bigint) => bigint): AggregateDef {
  return { kind: 'aggregate', oid, name, args: [money], returns: money, volatility: 'i', create: () => new FoldState<bigint>(merge) };
}

const larger = (a: bigint, b: bigint): bigint => (a > b ? a : b);
const smaller = (a: bigint, b: bigint): bigint => (a < b ? a : b);

export const moneyFunctions: readonly (ScalarFunctionDef | AggregateDef)[] = [
  fn(935, 'cash_words', [money], text, ([a]) => cashWords(m(a))),
  fn(377, 'cash_cmp', [money, money], int4, ([a, b]) => cmpCash(m(a), m(b))),
  fn(898, 'cashlarger', [money, money], money, ([a, b]) => larger(m(a), m(b))),
  fn(899, 'cashsmaller', [money, money], money, ([a, b]) => smaller(m(a), m(b))),
  fn(894, 'cash_pl', [money, money], money, ([a, b]) => cashAdd(m(a), m(b))),
  fn(895, 'cash_mi', [money, money], money, ([a, b]) => cashSub(m(a), m(b))),
  fn(3822, 'cash_div_cash', [money, money], float8, ([a, b]) => cashDivCash(m(a), m(b))),
  fn(3823, 'numeric', [money], numeric, ([a]) => cashToNumeric(m(a))),
  fn(3824, 'money', [numeric], money, ([a]) => numericToCash(a as Numeric)),
  fn(3811, 'money', [int4], money, ([a]) => intToCash(a as number)),
  fn(3812, 'money', [int8], money, ([a]) => intToCash(a as bigint)),
  fold(2112, 'sum', cashAdd),
  fold(2125, 'max', larger),
  fold(2141, 'min', smaller),
];

const CMP_COMMUTATOR: Record<CompareOp, CompareOp> = { '=': '=', '<>': '<>', '<': '>', '<=': '>=', '>': '<', '>=': '<=' };
const CMP_NEGATOR: Record<CompareOp, CompareOp> = { '=': '<>', '<>': '=', '<': '>=', '<=': '>', '>': '<=', '>=': '<' };
const CMP: ReadonlyArray<readonly [number, CompareOp, string]> = [
  [900, '=', 'cash_eq'], [901, '<>', 'cash_ne'], [902, '<', 'cash_lt'],
  [903, '>', 'cash_gt'], [904, '<=', 'cash_le'], [905, '>=', 'cash_ge'],
];

type Arith = (a: unknown, b: unknown) => unknown;
function op(oid: number, name: string, left: number, right: number, returns: number, procName: string, impl: Arith, commutator?: string): OperatorDef {
  return { oid, name, left, right, returns, procName, impl: (a, b) => impl(a, b), ...(commutator === undefined ? {} : { commutator }) };
}

/** money × / ÷ number: [multiplier type, cash_mul oid, number_mul_cash oid, cash_div oid, proc suffix] */
const NUMBERS: ReadonlyArray<readonly [number, number, number, number, string]> = [
  [float8, 908, 916, 909, 'flt8'], [float4, 843, 845, 844, 'flt4'], [int8, 3346, 3349, 3347, 'int8'],
  [int4, 912, 917, 913, 'int4'], [int2, 914, 918, 915, 'int2'],
];

function numberOps([type, mulOid, revOid, divOid, suffix]: readonly [number, number, number, number, string]): OperatorDef[] {
  const isFloat = type === float8 || type === float4;
  const mul: Arith = isFloat ? (a, b) => cashMulFloat(m(a), b as number) : (a, b) => cashMulInt(m(a), b as number | bigint);
  const div: Arith = isFloat ? (a, b) => cashDivFloat(m(a), b as number) : (a, b) => cashDivInt(m(a), b as number | bigint);
  return [
    op(mulOid, '*', money, type, money, `cash_mul_${suffix}`, mul, '*'),
    op(revOid, '*', type, money, money, `${suffix}_mul_cash`, (a, b) => mul(b, a), '*'),
    op(divOid, '/', money, type, money, `cash_div_${suffix}`, div),
  ];
}

export const moneyOperators: readonly OperatorDef[] = [
  ...CMP.map(([oid, name, procName]): OperatorDef => ({
    oid, name, left: money, right: money, returns: bool, procName, commutator: CMP_COMMUTATOR[name], negator: CMP_NEGATOR[name],
    impl: (a, b) => testCompare(name, cmpCash(m(a), m(b))),
  })),
  op(906, '+', money, money, money, 'cash_pl', (a, b) => cashAdd(m(a), m(b)), '+'),
  op(907, '-', money, money, money, 'cash_mi', (a, b) => cashSub(m(a), m(b))),
  op(3825, '/', money, money, float8, 'cash_div_cash', (a, b) => cashDivCash(m(a), m(b))),
  ...NUMBERS.flatMap(numberOps),
];

/** pg_cast's money rows: numeric ↔ money and int4 / int8 → money, all assignment casts */
export const moneyCasts: readonly CastDef[] = [
  { source: money, target: numeric, context: 'a', method: 'f', impl: (v, typmod) => {
    const n = cashToNumeric(m(v));
    return typmod >= 4 ? n.applyAttTypmod(typmod) : n;
  } },
  { source: numeric, target: money, context: 'a', method: 'f', impl: (v) => numericToCash(v as Numeric) },
  { source: int4, target: money, context: 'a', method: 'f', impl: (v) => intToCash(v as number) },
  { source: int8, target: money, context: 'a', method: 'f', impl: (v) => intToCash(v as bigint) },
];

/** pg_proc OIDs of the operator functions not listed in moneyFunctions */
const PROC_OIDS: Readonly<Record<string, number>> = {
  cash_eq: 888, cash_ne: 889, cash_lt: 890, cash_le: 891, cash_gt: 892, cash_ge: 893,
  cash_mul_flt8: 896, cash_div_flt8: 897, flt8_mul_cash: 919, cash_mul_flt4: 846, cash_div_flt4: 847, flt4_mul_cash: 848,
  cash_mul_int8: 3344, cash_div_int8: 3345, int8_mul_cash: 3399, cash_mul_int4: 864, cash_div_int4: 865, int4_mul_cash: 862,
  cash_mul_int2: 866, cash_div_int2: 867, int2_mul_cash: 863,
};

/** cash_eq, cash_mul_flt8 … callable by name */
export const moneyOperatorFunctions: readonly ScalarFunctionDef[] = operatorProcFunctions(moneyOperators, PROC_OIDS);
