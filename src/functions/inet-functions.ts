/**
 * The network address functions, operators, casts and min/max of inet and cidr, with PostgreSQL 15's
 * pg_proc / pg_operator OIDs. Values are canonical strings (common/pgtypes/inet-value.ts); cidr reaches the
 * inet signatures through its binary-coercible cast, as in PostgreSQL.
 * @see https://www.postgresql.org/docs/15/functions-net.html
 */
import { Oid } from '../common/pgtypes/oids.ts';
import { compareInet } from '../common/pgtypes/inet-value.ts';
import {
  inetAdd, inetBitwise, inetBroadcast, inetContains, inetDiff, inetFamily, inetHost, inetHostmask, inetMasklen, inetMerge,
  inetNetmask, inetNetwork, inetNot, inetSameFamily, inetSetMasklen, inetShowText, type Containment,
} from '../common/pgtypes/inet-math.ts';
import { cidrAbbrev } from '../common/pgtypes/inet-format.ts';
import { inetParts } from '../common/pgtypes/inet-value.ts';
import type { AggregateDef, AggregateState, CastDef, OperatorDef, ScalarFunctionDef } from './registry-types.ts';
import type { CompareOp } from './operators-compare.ts';
import { testCompare } from './operators-compare.ts';

const { inet, cidr, text, int4, int8, bool } = Oid;

function fn(oid: number, name: string, args: number[], returns: number, impl: (a: unknown[]) => unknown): ScalarFunctionDef {
  return { kind: 'scalar', oid, name, args, returns, volatility: 'i', impl: (a) => impl(a) };
}

const s = (v: unknown): string => v as string;

export const inetFunctions: readonly (ScalarFunctionDef | AggregateDef)[] = [
  fn(599, 'abbrev', [cidr], text, ([v]) => cidrAbbrev(inetParts(s(v)))),
  fn(598, 'abbrev', [inet], text, ([v]) => s(v)), // inet_out's text
  fn(698, 'broadcast', [inet], inet, ([v]) => inetBroadcast(s(v))),
  fn(711, 'family', [inet], int4, ([v]) => inetFamily(s(v))),
  fn(699, 'host', [inet], text, ([v]) => inetHost(s(v))),
  fn(1362, 'hostmask', [inet], inet, ([v]) => inetHostmask(s(v))),
  fn(697, 'masklen', [inet], int4, ([v]) => inetMasklen(s(v))),
  fn(696, 'netmask', [inet], inet, ([v]) => inetNetmask(s(v))),
  fn(683, 'network', [inet], cidr, ([v]) => inetNetwork(s(v))),
  fn(605, 'set_masklen', [inet, int4], inet, ([v, n]) => inetSetMasklen(s(v), n as number, false)),
  fn(635, 'set_masklen', [cidr, int4], cidr, ([v, n]) => inetSetMasklen(s(v), n as number, true)),
  fn(4071, 'inet_same_family', [inet, inet], bool, ([a, b]) => inetSameFamily(s(a), s(b))),
  fn(4063, 'inet_merge', [inet, inet], cidr, ([a, b]) => inetMerge(s(a), s(b))),
  fn(926, 'network_cmp', [inet, inet], int4, ([a, b]) => compareInet(s(a), s(b))),
  fn(3562, 'network_larger', [inet, inet], inet, ([a, b]) => (compareInet(s(a), s(b)) > 0 ? a : b)),
  fn(3563, 'network_smaller', [inet, inet], inet, ([a, b]) => (compareInet(s(a), s(b)) < 0 ? a : b)),
  minMax(3564, 'max', 1),
  minMax(3565, 'min', -1),
];

/** max(inet) / min(inet): network_larger / network_smaller folded over the group */
function minMax(oid: number, name: string, sign: 1 | -1): AggregateDef {
  return {
    kind: 'aggregate', oid, name, args: [inet], returns: inet, volatility: 'i',
    create: () => new InetExtremeState(sign),
  };
}

class InetExtremeState implements AggregateState {
  value: string | null = null;
  constructor(private readonly sign: 1 | -1) {}
  step(args: readonly unknown[]): void {
    const v = args[0];
    if (typeof v !== 'string') return;
    if (this.value === null || compareInet(v, this.value) * this.sign > 0) this.value = v;
  }
  final(): unknown {
    return this.value;
  }
  combine(other: AggregateState): void {
    const v = (other as InetExtremeState).value;
    if (v !== null) this.step([v]);
  }
}

const CMP: ReadonlyArray<readonly [number, CompareOp, string]> = [
  [1201, '=', 'network_eq'], [1202, '<>', 'network_ne'], [1203, '<', 'network_lt'],
  [1204, '<=', 'network_le'], [1205, '>', 'network_gt'], [1206, '>=', 'network_ge'],
];
const CMP_COMMUTATOR: Record<CompareOp, CompareOp> = { '=': '=', '<>': '<>', '<': '>', '<=': '>=', '>': '<', '>=': '<=' };
const CMP_NEGATOR: Record<CompareOp, CompareOp> = { '=': '<>', '<>': '=', '<': '>=', '<=': '>', '>': '<=', '>=': '<' };

const CONTAINMENT: ReadonlyArray<readonly [number, Containment, string, string]> = [
  [931, '<<', 'network_sub', '>>'], [932, '<<=', 'network_subeq', '>>='], [933, '>>', 'network_sup', '<<'],
  [934, '>>=', 'network_supeq', '<<='], [3552, '&&', 'network_overlap', '&&'],
];

export const inetOperators: readonly OperatorDef[] = [
  ...CMP.map(([oid, op, procName]): OperatorDef => ({
    oid, name: op, left: inet, right: inet, returns: bool, procName, commutator: CMP_COMMUTATOR[op], negator: CMP_NEGATOR[op],
    // canonical values: equal strings are equal addresses, so = and <> need no parsing
    impl: op === '=' ? (a, b) => a === b : op === '<>' ? (a, b) => a !== b : (a, b) => testCompare(op, compareInet(s(a), s(b))),
  })),
  ...CONTAINMENT.map(([oid, op, procName, commutator]): OperatorDef => ({
    oid, name: op, left: inet, right: inet, returns: bool, procName, commutator, impl: (a, b) => inetContains(op, s(a), s(b)),
  })),
  { oid: 2634, name: '~', left: 0, right: inet, returns: inet, procName: 'inetnot', impl: (_a, b) => inetNot(s(b)) },
  { oid: 2635, name: '&', left: inet, right: inet, returns: inet, procName: 'inetand', impl: (a, b) => inetBitwise('&', s(a), s(b)) },
  { oid: 2636, name: '|', left: inet, right: inet, returns: inet, procName: 'inetor', impl: (a, b) => inetBitwise('|', s(a), s(b)) },
  { oid: 2637, name: '+', left: inet, right: int8, returns: inet, procName: 'inetpl', commutator: '+', impl: (a, b) => inetAdd(s(a), BigInt(b as bigint)) },
  { oid: 2638, name: '+', left: int8, right: inet, returns: inet, procName: 'int8pl_inet', commutator: '+', impl: (a, b) => inetAdd(s(b), BigInt(a as bigint)) },
  { oid: 2639, name: '-', left: inet, right: int8, returns: inet, procName: 'inetmi_int8', impl: (a, b) => inetAdd(s(a), -BigInt(b as bigint)) },
  { oid: 2640, name: '-', left: inet, right: inet, returns: int8, procName: 'inetmi', impl: (a, b) => inetDiff(s(a), s(b)) },
];

/** pg_cast's network rows: cidr → inet is binary-coercible (one value form); → text shows the mask (text(inet)) */
export const inetCasts: readonly CastDef[] = [
  { source: cidr, target: inet, context: 'i', method: 'b', impl: (v) => v },
  { source: inet, target: cidr, context: 'a', method: 'f', impl: (v) => inetNetwork(s(v)) },
  ...[inet, cidr].flatMap((source) => [text, Oid.varchar, Oid.bpchar].map((target): CastDef => ({
    source, target, context: 'a', method: 'f', impl: (v) => inetShowText(s(v)),
  }))),
];
