/**
 * Test support for the function-library tests (F2 area): an EvalContext with a settable session
 * TimeZone, lookups into the exported definition arrays, and PostgreSQL-style text rendering of
 * results through common/pgtypes' textOut so expectations can be copied from psql verbatim.
 */
import { isPgArray, type Interval, type PgArray } from '../common/pgtypes/values.ts';
import type { SessionView } from '../catalog/session-view.ts';
import type { CatalogView } from '../catalog/catalog-view.ts';
import type { EvalContext, OperatorDef, RoutineDef } from './registry-types.ts';
import { sqlType } from '../common/pgtypes/oids.ts';
import { resolveSessionZone } from './timezone.ts';
import { DEFAULT_OUTPUT_SETTINGS, arrayTypeOf, textOut } from '../common/pgtypes/index.ts';

export function testContext(timeZone = 'UTC', now = 1_710_072_000_000_000n): EvalContext & { settings: Map<string, string> } {
  const settings = new Map<string, string>([['TimeZone', timeZone]]);
  const session = {
    user: 'test', database: 'test', backendPid: 1, serverStartTime: 0n, localAddress: '', localPort: 0,
    searchPath: () => ['public'],
    getSetting: (name: string) => settings.get(name) ?? null,
    setSetting: (name: string, value: string) => { settings.set(name, value); return value; },
    settings: () => [], sessions: () => [], cancelBackend: () => false, terminateBackend: () => false,
    currentTransactionId: () => 1n,
  } as unknown as SessionView;
  return { session, catalog: {} as CatalogView, transactionTimestamp: now, statementTimestamp: now, signal: new AbortController().signal, settings };
}

/** Calls the scalar function `name` whose declared args are exactly `argOids`. */
export function callFn(defs: readonly RoutineDef[], name: string, argOids: number[], args: unknown[], ctx: EvalContext = testContext()): unknown {
  const def = defs.find((d) => d.name === name && d.args.length === argOids.length && d.args.every((a, i) => a === argOids[i]));
  if (!def) throw new Error(`no ${name}(${argOids.join(',')})`);
  const argTypes = argOids.map((o) => sqlType(o));
  if (def.kind === 'scalar') {
    if ((def.strict ?? true) && args.some((a) => a === null)) return null;
    const rt = typeof def.returns === 'function' ? def.returns(argTypes) : sqlType(def.returns);
    return def.impl(args, ctx, argTypes, rt);
  }
  if (def.kind === 'set') return [...def.impl(args, ctx, argTypes)];
  throw new Error('aggregate');
}

export function callOp(defs: readonly OperatorDef[], name: string, left: number, right: number, l: unknown, r: unknown, ctx: EvalContext = testContext()): unknown {
  const def = defs.find((d) => d.name === name && d.left === left && d.right === right);
  if (!def) throw new Error(`no operator ${name}(${left},${right})`);
  if ((left !== 0 && l === null) || r === null) return null;
  return def.impl(l, r, ctx, sqlType(left), sqlType(right));
}

/** Renders a value the way psql -At shows it (pgtypes' output functions), given its type and the session zone. */
export function pgText(v: unknown, oid: number, zoneName = 'UTC'): string {
  if (v === null || v === undefined) return '';
  if (isPgArray(v)) return arrayText(v);
  return textOut(oid, v, { ...DEFAULT_OUTPUT_SETTINGS, timeZone: zoneName });
}

export function arrayText(a: PgArray): string {
  return textOut(arrayTypeOf(a.elementOid), a);
}

// ---- literal parsing for test inputs ----------------------------------------------------------------

import { daysFromCivil } from './datetime-fields.ts';
import { localToUtc } from './timezone.ts';
import { GatewayError } from '../common/errors.ts';

/** 'YYYY-MM-DD[ HH:MM[:SS[.ffffff]]][ BC]' → local µs */
export function ts(text: string): bigint {
  const m = /^(\d+)-(\d+)-(\d+)(?:[ T](\d+):(\d+)(?::(\d+)(?:\.(\d+))?)?)?( BC)?$/.exec(text);
  if (!m) throw new Error(`bad timestamp literal ${text}`);
  const y = m[8] ? 1 - Number(m[1]) : Number(m[1]);
  const days = daysFromCivil(y, Number(m[2]), Number(m[3]));
  const micro = Number((m[7] ?? '').padEnd(6, '0'));
  return BigInt(days) * 86_400_000_000n + BigInt(((Number(m[4] ?? 0) * 60 + Number(m[5] ?? 0)) * 60 + Number(m[6] ?? 0)) * 1_000_000 + micro);
}

export function tstz(text: string, zone = 'UTC'): bigint {
  return localToUtc(resolveSessionZone(zone), ts(text));
}

export function date(text: string): number {
  return Number(ts(text) / 86_400_000_000n);
}

export function time(text: string): number {
  return Number(ts('1970-01-01 ' + text));
}

/** '1 year 2 mons -3 days 04:05:06.5' (postgres style, units year/mon/day/hour/min/sec) */
export function iv(text: string): Interval {
  let months = 0, days = 0, micros = 0n;
  const re = /(-?\d+(?:\.\d+)?)\s*(years?|mons?|months?|days?|hours?|mins?|minutes?|secs?|seconds?)|([+-]?)(\d+):(\d+)(?::(\d+)(?:\.(\d+))?)?/g;
  for (const m of text.matchAll(re)) {
    if (m[2]) {
      const v = Number(m[1]);
      const u = m[2];
      if (u.startsWith('year')) months += v * 12;
      else if (u.startsWith('mon')) months += v;
      else if (u.startsWith('day')) days += v;
      else if (u.startsWith('hour')) micros += BigInt(Math.round(v * 3_600_000_000));
      else if (u.startsWith('min')) micros += BigInt(Math.round(v * 60_000_000));
      else micros += BigInt(Math.round(v * 1_000_000));
    } else {
      const t = BigInt(((Number(m[4]) * 60 + Number(m[5])) * 60 + Number(m[6] ?? 0)) * 1_000_000 + Number((m[7] ?? '').padEnd(6, '0')));
      micros += m[3] === '-' ? -t : t;
    }
  }
  return { months, days, micros };
}

/** Runs `fn`, rendering its result as psql would, or an error as "ERROR <sqlstate>: <message>". */
export function render(fn: () => unknown, oid: number, zone = 'UTC'): string {
  try {
    return pgText(fn(), oid, zone);
  } catch (e) {
    if (GatewayError.is(e)) return `ERROR ${e.code}: ${e.message}`;
    throw e;
  }
}

import { pgArray } from '../common/pgtypes/values.ts';

/** A 1-D array literal (or 2-D when given nested arrays). */
export function arr(elementOid: number, values: readonly unknown[]): PgArray {
  if (values.length > 0 && values.every((v) => Array.isArray(v))) {
    const rows = values as unknown[][];
    return { kind: 'array', elementOid, dims: [rows.length, rows[0]!.length], lowerBounds: [1, 1], values: rows.flat() };
  }
  return pgArray(elementOid, values);
}

/** Renders set-returning results like psql -At: one line per row, columns joined by '|'. */
export function renderRows(fn: () => unknown, oids: number[], zone = 'UTC'): string {
  try {
    const rows = fn() as unknown[];
    return rows.map((r) => (oids.length > 1 ? (r as unknown[]).map((v, i) => pgText(v, oids[i]!, zone)).join('|') : pgText(r, oids[0]!, zone))).join('\n');
  } catch (e) {
    if (GatewayError.is(e)) return `ERROR ${e.code}: ${e.message}`;
    throw e;
  }
}
