/**
 * PostgreSQL's memory units for settings measured in kB (work_mem style): parsing `'512MB'`, `'1.5GB'`, `2048`
 * (plain numbers are kB) and printing a kB count the way SHOW prints memory GUCs (the largest unit that
 * divides the value exactly).
 * @see https://www.postgresql.org/docs/15/config-setting.html#CONFIG-SETTING-NAMES-VALUES
 */
import { pgError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';

/** MAX_KILOBYTES of guc.h on 64-bit builds */
export const MAX_KILOBYTES = 2147483647;

const UNIT_KB: Readonly<Record<string, number>> = { B: 1 / 1024, kB: 1, MB: 1024, GB: 1024 * 1024, TB: 1024 * 1024 * 1024 };
const UNITS_HINT = 'Valid units for this parameter are "B", "kB", "MB", "GB", and "TB".';

/** parse_int with GUC_UNIT_KB: a number (integer or decimal) and an optional case-sensitive unit, rounded to kB */
export function parseMemoryKb(name: string, value: string, min: number, max = MAX_KILOBYTES): number {
  const m = /^\s*([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)\s*([A-Za-z]*)\s*$/.exec(value);
  const invalid = (hint?: string): never => {
    throw pgError(SqlState.invalid_parameter_value, `invalid value for parameter "${name}": "${value}"`, hint === undefined ? {} : { hint });
  };
  if (m === null) return invalid();
  const unit = m[2] ?? '';
  const factor = unit === '' ? 1 : UNIT_KB[unit];
  if (factor === undefined) return invalid(UNITS_HINT);
  const kb = Math.round(Number(m[1]) * factor);
  if (!Number.isFinite(kb) || kb < min || kb > max) {
    const shown = Number.isFinite(kb) && Math.abs(kb) <= Number.MAX_SAFE_INTEGER ? String(kb) : m[1];
    throw pgError(SqlState.invalid_parameter_value, `${shown} kB is outside the valid range for parameter "${name}" (${min} .. ${max})`);
  }
  return kb;
}

/** SHOW's text of a kB count: 1048576 → 1GB, 1536 → 1536kB */
export function formatMemoryKb(kb: number): string {
  if (kb === 0) return '0';
  for (const [unit, size] of [['TB', 1024 ** 3], ['GB', 1024 ** 2], ['MB', 1024]] as const) {
    if (kb % size === 0) return `${kb / size}${unit}`;
  }
  return `${kb}kB`;
}

/** bytes as a SHOW-like text, rounded up to whole kB (error details, EXPLAIN) */
export function formatMemoryBytes(bytes: number): string {
  return formatMemoryKb(Math.ceil(bytes / 1024));
}
