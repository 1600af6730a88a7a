/**
 * Comparison operators = <> < <= > >= for every comparable type, with PostgreSQL 15's pg_operator OIDs,
 * including the cross-type integer, float and date/timestamp families. All reduce to compareValues.
 * @see https://www.postgresql.org/docs/15/functions-comparison.html
 */
import { Oid } from '../common/pgtypes/oids.ts';
import type { EvalContext, OperatorDef } from './registry-types.ts';
import { compareValues } from './compare-values.ts';
import { dateToTimestamp, sessionZoneOf, timestampToTimestamptz } from './datetime-support.ts';

export type CompareOp = '=' | '<>' | '<' | '<=' | '>' | '>=';
const OPS: readonly CompareOp[] = ['=', '<>', '<', '<=', '>', '>='];
const SUFFIX: Record<CompareOp, string> = { '=': 'eq', '<>': 'ne', '<': 'lt', '<=': 'le', '>': 'gt', '>=': 'ge' };
const NEGATOR: Record<CompareOp, CompareOp> = { '=': '<>', '<>': '=', '<': '>=', '<=': '>', '>': '<=', '>=': '<' };
const COMMUTATOR: Record<CompareOp, CompareOp> = { '=': '=', '<>': '<>', '<': '>', '<=': '>=', '>': '<', '>=': '<=' };

/** [left, right, oids in OPS order, pg_proc name of '='] */
const ROWS: ReadonlyArray<readonly [number, number, readonly number[], string]> = [
  [16, 16, [91, 85, 58, 1694, 59, 1695], 'booleq'],
  [17, 17, [1955, 1956, 1957, 1958, 1959, 1960], 'byteaeq'],
  [18, 18, [92, 630, 631, 632, 633, 634], 'chareq'],
  [19, 19, [93, 643, 660, 661, 662, 663], 'nameeq'],
  [19, 25, [254, 259, 255, 256, 258, 257], 'nameeqtext'],
  [20, 20, [410, 411, 412, 414, 413, 415], 'int8eq'],
  [20, 21, [1868, 1869, 1870, 1872, 1871, 1873], 'int82eq'],
  [20, 23, [416, 417, 418, 420, 419, 430], 'int84eq'],
  [21, 20, [1862, 1863, 1864, 1866, 1865, 1867], 'int28eq'],
  [21, 21, [94, 519, 95, 522, 520, 524], 'int2eq'],
  [21, 23, [532, 538, 534, 540, 536, 542], 'int24eq'],
  [23, 20, [15, 36, 37, 80, 76, 82], 'int48eq'],
  [23, 21, [533, 539, 535, 541, 537, 543], 'int42eq'],
  [23, 23, [96, 518, 97, 523, 521, 525], 'int4eq'],
  [25, 19, [260, 265, 261, 262, 264, 263], 'texteqname'],
  [25, 25, [98, 531, 664, 665, 666, 667], 'texteq'],
  [26, 26, [607, 608, 609, 611, 610, 612], 'oideq'],
  [28, 28, [352, 3315], 'xideq'],
  [28, 23, [353, 3316], 'xideqint4'],
  [700, 700, [620, 621, 622, 624, 623, 625], 'float4eq'],
  [700, 701, [1120, 1121, 1122, 1124, 1123, 1125], 'float48eq'],
  [701, 700, [1130, 1131, 1132, 1134, 1133, 1135], 'float84eq'],
  [701, 701, [670, 671, 672, 673, 674, 675], 'float8eq'],
  [1042, 1042, [1054, 1057, 1058, 1059, 1060, 1061], 'bpchareq'],
  [1082, 1082, [1093, 1094, 1095, 1096, 1097, 1098], 'date_eq'],
  [1082, 1114, [2347, 2350, 2345, 2346, 2349, 2348], 'date_eq_timestamp'],
  [1082, 1184, [2360, 2363, 2358, 2359, 2362, 2361], 'date_eq_timestamptz'],
  [1083, 1083, [1108, 1109, 1110, 1111, 1112, 1113], 'time_eq'],
  [1114, 1082, [2373, 2376, 2371, 2372, 2375, 2374], 'timestamp_eq_date'],
  [1114, 1114, [2060, 2061, 2062, 2063, 2064, 2065], 'timestamp_eq'],
  [1114, 1184, [2536, 2539, 2534, 2535, 2538, 2537], 'timestamp_eq_timestamptz'],
  [1184, 1082, [2386, 2389, 2384, 2385, 2388, 2387], 'timestamptz_eq_date'],
  [1184, 1114, [2542, 2545, 2540, 2541, 2544, 2543], 'timestamptz_eq_timestamp'],
  [1184, 1184, [1320, 1321, 1322, 1323, 1324, 1325], 'timestamptz_eq'],
  [1186, 1186, [1330, 1331, 1332, 1333, 1334, 1335], 'interval_eq'],
  [1266, 1266, [1550, 1551, 1552, 1553, 1554, 1555], 'timetz_eq'],
  [1700, 1700, [1752, 1753, 1754, 1755, 1756, 1757], 'numeric_eq'],
  [2249, 2249, [2988, 2989, 2990, 2992, 2991, 2993], 'record_eq'],
  [2277, 2277, [1070, 1071, 1072, 1074, 1073, 1075], 'array_eq'],
  [2950, 2950, [2972, 2973, 2974, 2976, 2975, 2977], 'uuid_eq'],
  [3802, 3802, [3240, 3241, 3242, 3244, 3243, 3245], 'jsonb_eq'],
  [5069, 5069, [5068, 5072, 5073, 5075, 5074, 5076], 'xid8eq'],
];

export function testCompare(op: CompareOp, c: number): boolean {
  switch (op) {
    case '=': return c === 0;
    case '<>': return c !== 0;
    case '<': return c < 0;
    case '<=': return c <= 0;
    case '>': return c > 0;
    case '>=': return c >= 0;
  }
}

const DATETIME = new Set<number>([Oid.date, Oid.timestamp, Oid.timestamptz]);

/**
 * Brings a date/timestamp/timestamptz operand to the other side's type (date → timestamp at midnight;
 * timestamp → timestamptz in the session TimeZone), as date_cmp_timestamp / timestamp_cmp_timestamptz do.
 */
function datetimeTo(v: unknown, from: number, to: number, ctx: EvalContext): unknown {
  if (from === to) return v;
  let ts = from === Oid.date ? dateToTimestamp(v as number) : (v as bigint);
  if (to === Oid.timestamptz && from !== Oid.timestamptz) ts = timestampToTimestamptz(ts, sessionZoneOf(ctx));
  return ts;
}

/** The comparison of a (left, right) pair, whatever mix of types the row declares. */
export function crossCompare(left: number, right: number): (a: unknown, b: unknown, ctx: EvalContext) => number {
  if (left === right) return (a, b) => compareValues(left, a, b);
  if (DATETIME.has(left) && DATETIME.has(right)) {
    // compare in the "wider" type: timestamptz > timestamp > date
    const order = [Oid.date, Oid.timestamp, Oid.timestamptz] as number[];
    const wide = order.indexOf(left) > order.indexOf(right) ? left : right;
    return (a, b, ctx) => compareValues(wide, datetimeTo(a, left, wide, ctx), datetimeTo(b, right, wide, ctx));
  }
  if (left === Oid.int8 || right === Oid.int8) return (a, b) => compareValues(Oid.int8, BigInt(a as number), BigInt(b as number));
  return (a, b) => compareValues(left, a, b);
}

function procName(eqName: string, op: CompareOp): string {
  if (eqName === 'texteq') return op === '=' ? 'texteq' : op === '<>' ? 'textne' : `text_${SUFFIX[op]}`;
  if (eqName === 'xideq' && op === '<>') return 'xidneq';
  if (eqName === 'xideqint4' && op === '<>') return 'xidneqint4';
  return eqName.replace('eq', SUFFIX[op]);
}

/** Types whose JS values (number / bigint / boolean) compare correctly with the JS operators. */
const PRIMITIVE = new Set<number>([Oid.int2, Oid.int4, Oid.int8, Oid.oid, Oid.xid, Oid.xid8, Oid.bool, Oid.date, Oid.time, Oid.timestamp, Oid.timestamptz]);
/** Types whose equality is string identity (C collation is deterministic). */
const STRING_EQ = new Set<number>([Oid.text, Oid.name, Oid.uuid, Oid.char]);

/** The hot path: direct JS comparisons where they agree with PostgreSQL's, compareValues elsewhere. */
function implFor(op: CompareOp, left: number, right: number): OperatorDef['impl'] {
  if (left === right && PRIMITIVE.has(left)) {
    switch (op) {
      case '=': return (a, b) => a === b;
      case '<>': return (a, b) => a !== b;
      case '<': return (a, b) => (a as number) < (b as number);
      case '<=': return (a, b) => (a as number) <= (b as number);
      case '>': return (a, b) => (a as number) > (b as number);
      case '>=': return (a, b) => (a as number) >= (b as number);
    }
  }
  if (left === right && STRING_EQ.has(left) && (op === '=' || op === '<>')) {
    return op === '=' ? (a, b) => a === b : (a, b) => a !== b;
  }
  const cmp = crossCompare(left, right);
  return (a, b, ctx) => testCompare(op, cmp(a, b, ctx));
}

function build(): OperatorDef[] {
  const out: OperatorDef[] = [];
  for (const [left, right, oids, eqName] of ROWS) {
    OPS.forEach((op, i) => {
      const oid = oids[i];
      if (oid === undefined) return;
      out.push({
        oid, name: op, left, right, returns: Oid.bool, procName: procName(eqName, op),
        commutator: COMMUTATOR[op], negator: NEGATOR[op], impl: implFor(op, left, right),
      });
    });
  }
  return out;
}

export const compareOperators: readonly OperatorDef[] = build();
