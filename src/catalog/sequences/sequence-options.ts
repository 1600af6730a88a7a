/**
 * SequenceOptions: a sequence's parameters as pg_sequence holds them (seqtypid, seqstart, seqincrement, seqmax,
 * seqmin, seqcache, seqcycle), with PostgreSQL's defaults and cross-checks (sequence.c init_params) and the
 * allocation of the next values (nextval_internal), shared by every SequenceStore.
 * @see https://www.postgresql.org/docs/15/sql-createsequence.html
 * @see https://github.com/postgres/postgres/blob/REL_15_STABLE/src/backend/commands/sequence.c
 */
import { pgError } from '../../common/errors.ts';

export type SequenceDataType = 'smallint' | 'integer' | 'bigint';

export interface SequenceOptions {
  readonly dataType: SequenceDataType;
  readonly start: bigint;
  readonly increment: bigint;
  readonly min: bigint;
  readonly max: bigint;
  readonly cache: bigint;
  readonly cycle: boolean;
}

/** the sequence's row (`SELECT * FROM s`): last_value, and whether nextval already returned it */
export interface SequenceState {
  readonly lastValue: bigint;
  readonly isCalled: boolean;
}

/** values first, first + increment, … (count of them) handed out by one allocation */
export interface SequenceAllocation {
  readonly first: bigint;
  readonly count: number;
  readonly increment: bigint;
}

export const TYPE_RANGE: Readonly<Record<SequenceDataType, readonly [bigint, bigint]>> = {
  smallint: [-32768n, 32767n],
  integer: [-2147483648n, 2147483647n],
  bigint: [-(2n ** 63n), 2n ** 63n - 1n],
};

/** pg_type OIDs of the three sequence types */
export const SEQUENCE_TYPE_OID: Readonly<Record<SequenceDataType, number>> = { smallint: 21, integer: 23, bigint: 20 };

/** `AS int4`, `AS pg_catalog.int8`, … → the sequence type; anything else is 22023 as in PostgreSQL */
export function sequenceDataType(name: string): SequenceDataType {
  switch (name) {
    case 'int2': case 'smallint': return 'smallint';
    case 'int4': case 'integer': case 'int': return 'integer';
    case 'int8': case 'bigint': return 'bigint';
    default: throw pgError('22023', 'sequence type must be smallint, integer, or bigint');
  }
}

/** options given in CREATE / ALTER SEQUENCE: absent = unchanged (ALTER) or default (CREATE); null = NO MINVALUE / NO MAXVALUE */
export interface SequenceOptionChanges {
  dataType?: SequenceDataType;
  start?: bigint;
  increment?: bigint;
  min?: bigint | null;
  max?: bigint | null;
  cache?: bigint;
  cycle?: boolean;
  /** RESTART (null = RESTART without a value: the start value) */
  restart?: bigint | null;
}

/**
 * init_params: the options after CREATE (`old` undefined) or ALTER, cross-checked, and the state when
 * RESTART was given (or the sequence is new). Throws 22023 with PostgreSQL's wording.
 */
export function applySequenceOptions(old: SequenceOptions | undefined, c: SequenceOptionChanges, current?: SequenceState): { options: SequenceOptions; state?: SequenceState } {
  const dataType = c.dataType ?? old?.dataType ?? 'bigint';
  const [typeMin, typeMax] = TYPE_RANGE[dataType];
  const increment = c.increment ?? old?.increment ?? 1n;
  if (increment === 0n) throw pgError('22023', 'INCREMENT must not be zero');
  const wasDefault = (v: bigint | undefined, which: 0 | 1): boolean => old !== undefined && v === TYPE_RANGE[old.dataType][which];
  // a changed type or direction brings the default bound of the new one (as init_params resets them)
  let max: bigint;
  if (c.max !== undefined && c.max !== null) max = c.max;
  else if (c.max === undefined && old !== undefined && !(c.dataType !== undefined && wasDefault(old.max, 1))) max = old.max;
  else max = increment > 0n ? typeMax : -1n;
  let min: bigint;
  if (c.min !== undefined && c.min !== null) min = c.min;
  else if (c.min === undefined && old !== undefined && !(c.dataType !== undefined && wasDefault(old.min, 0))) min = old.min;
  else min = increment > 0n ? 1n : typeMin;
  if (max < typeMin || max > typeMax) throw pgError('22023', `MAXVALUE (${max}) is out of range for sequence data type ${dataType}`);
  if (min < typeMin || min > typeMax) throw pgError('22023', `MINVALUE (${min}) is out of range for sequence data type ${dataType}`);
  if (min >= max) throw pgError('22023', `MINVALUE (${min}) must be less than MAXVALUE (${max})`);
  const start = c.start ?? old?.start ?? (increment > 0n ? min : max);
  if (start < min) throw pgError('22023', `START value (${start}) cannot be less than MINVALUE (${min})`);
  if (start > max) throw pgError('22023', `START value (${start}) cannot be greater than MAXVALUE (${max})`);
  const cache = c.cache ?? old?.cache ?? 1n;
  if (cache <= 0n) throw pgError('22023', `CACHE (${cache}) must be greater than zero`);
  const options: SequenceOptions = { dataType, start, increment, min, max, cache, cycle: c.cycle ?? old?.cycle ?? false };
  let state: SequenceState | undefined;
  if (old === undefined) state = { lastValue: start, isCalled: false };
  else if (c.restart !== undefined) state = { lastValue: c.restart ?? start, isCalled: false };
  const check = state ?? current;
  if (check !== undefined) {
    if (check.lastValue < min) throw pgError('22023', `RESTART value (${check.lastValue}) cannot be less than MINVALUE (${min})`);
    if (check.lastValue > max) throw pgError('22023', `RESTART value (${check.lastValue}) cannot be greater than MAXVALUE (${max})`);
  }
  return state === undefined ? { options } : { options, state };
}

/**
 * nextval_internal for up to `count` values: the first is last_value itself when !is_called, else
 * last_value + increment (wrapping to MINVALUE / MAXVALUE with CYCLE); the block stops at the bound, so a
 * later call wraps or fails. Throws 2200H when no value is left.
 */
export function allocateValues(name: string, o: SequenceOptions, s: SequenceState, count: number): { allocation: SequenceAllocation; state: SequenceState } {
  let next: bigint;
  if (!s.isCalled) next = s.lastValue;
  else {
    next = s.lastValue + o.increment;
    if (o.increment > 0n && next > o.max) {
      if (!o.cycle) throw pgError('2200H', `nextval: reached maximum value of sequence "${name}" (${o.max})`);
      next = o.min;
    } else if (o.increment < 0n && next < o.min) {
      if (!o.cycle) throw pgError('2200H', `nextval: reached minimum value of sequence "${name}" (${o.min})`);
      next = o.max;
    }
  }
  const room = o.increment > 0n ? (o.max - next) / o.increment + 1n : (next - o.min) / -o.increment + 1n;
  const n = room < BigInt(count) ? Number(room) : count;
  const last = next + BigInt(n - 1) * o.increment;
  return { allocation: { first: next, count: n, increment: o.increment }, state: { lastValue: last, isCalled: true } };
}

/** setval's bounds check: 22003 as in PostgreSQL */
export function checkSetval(name: string, o: SequenceOptions, value: bigint): void {
  if (value < o.min || value > o.max) {
    throw pgError('22003', `setval: value ${value} is out of bounds for sequence "${name}" (${o.min}..${o.max})`);
  }
}
