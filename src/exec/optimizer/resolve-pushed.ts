/**
 * PushedPredicate (on the plan, may hold `$n`) → ScanPredicate (the catalog contract, plain values), at
 * execution time when the parameter values are known. A predicate whose value is NULL or not of the column's
 * representation is dropped from an AND (the scan then keeps more rows: still correct) and makes an OR unknown.
 */
import type { ScanPredicate } from '../../catalog/table-source.ts';
import { Oid } from '../../common/pgtypes/oids.ts';
import { isPgArray } from '../../common/pgtypes/values.ts';
import { Numeric } from '../../common/pgtypes/numeric.ts';
import type { PushedPredicate, PushedValue, TableScan } from '../../sql/index.ts';
import { intKeyListRepr } from '../../iceberg/scan/int-key-list.ts';

function valueOf(v: PushedValue, params: readonly unknown[]): unknown {
  const x = v.kind === 'Literal' ? v.value : params[v.index];
  // an int2/int4 parameter pushed against an int8 column (pushed-predicate-of.ts): int8's representation
  if (v.kind === 'Param' && v.type.oid === Oid.int8 && typeof x === 'number') return Number.isInteger(x) ? BigInt(x) : null;
  // an integer parameter cast to numeric against a numeric column (pushed-predicate-of.ts constOf): numeric's representation
  if (v.kind === 'Param' && v.type.oid === Oid.numeric && (typeof x === 'bigint' || (typeof x === 'number' && Number.isInteger(x)))) return Numeric.fromBigInt(BigInt(x));
  return x === undefined ? null : x;
}

export function resolvePredicate(p: PushedPredicate, params: readonly unknown[]): ScanPredicate | null {
  switch (p.kind) {
    case 'compare': {
      const value = valueOf(p.value, params);
      return value === null ? null : { kind: 'compare', op: p.op, column: p.column, value };
    }
    case 'isNull': case 'isNotNull': return { kind: p.kind, column: p.column };
    case 'compareColumns': return { kind: 'compareColumns', op: p.op, column: p.column, other: p.other };
    case 'startsWith': return { kind: 'startsWith', column: p.column, prefix: p.prefix, ...(p.like === undefined ? {} : { like: p.like }) };
    case 'in': {
      let values: unknown[];
      if (Array.isArray(p.values)) values = (p.values as readonly PushedValue[]).map((v) => valueOf(v, params));
      else {
        const arr = valueOf(p.values as PushedValue, params);
        if (!isPgArray(arr)) return null;
        // a runtime key filter's key list (no NULLs, int-key-list.ts) goes on as the same array
        if (intKeyListRepr(arr.values) !== undefined) return { kind: 'in', column: p.column, values: arr.values };
        values = [...arr.values];
      }
      return { kind: 'in', column: p.column, values: values.filter((v) => v !== null) };
    }
    case 'and': {
      const args = p.args.map((a) => resolvePredicate(a, params)).filter((a): a is ScanPredicate => a !== null);
      return args.length === 0 ? null : args.length === 1 ? args[0]! : { kind: 'and', args };
    }
    case 'or': {
      const args = p.args.map((a) => resolvePredicate(a, params));
      return args.some((a) => a === null) ? null : { kind: 'or', args: args as ScanPredicate[] };
    }
  }
}

export function resolveFilters(scan: TableScan, params: readonly unknown[]): ScanPredicate[] | undefined {
  if (scan.filters === undefined || scan.filters.length === 0) return undefined;
  const out = scan.filters.map((f) => resolvePredicate(f, params)).filter((f): f is ScanPredicate => f !== null);
  return out.length === 0 ? undefined : out;
}

/** limit + offset as a row count, or undefined when not a usable number */
export function resolveLimit(scan: TableScan, params: readonly unknown[]): number | undefined {
  if (scan.limit === undefined) return undefined;
  const n = toCount(valueOf(scan.limit.limit, params));
  const o = scan.limit.offset === null ? 0 : toCount(valueOf(scan.limit.offset, params));
  return n === undefined || o === undefined ? undefined : n + o;
}

function toCount(v: unknown): number | undefined {
  const n = typeof v === 'bigint' ? Number(v) : typeof v === 'number' ? v : NaN;
  return Number.isFinite(n) && n >= 0 ? Math.floor(n) : undefined;
}
