/**
 * DEFAULT_OUTPUT_SETTINGS: a fresh PostgreSQL 15 session's text I/O settings (DateStyle 'ISO, MDY',
 * IntervalStyle postgres, TimeZone UTC here, extra_float_digits 1, bytea_output hex).
 */
/** The text I/O settings of a session that change how values print (wire/ encodes with them). */
export interface OutputSettings {
  readonly dateStyle: string; // e.g. "ISO, MDY"
  readonly intervalStyle: string; // postgres | postgres_verbose | sql_standard | iso_8601
  readonly timeZone: string; // IANA name or offset, e.g. "UTC", "Europe/Paris"
  readonly extraFloatDigits: number; // 1 by default (shortest exact float text)
  readonly byteaOutput: 'hex' | 'escape';
}

export const DEFAULT_OUTPUT_SETTINGS: OutputSettings = Object.freeze({
  dateStyle: 'ISO, MDY',
  intervalStyle: 'postgres',
  timeZone: 'UTC',
  extraFloatDigits: 1,
  byteaOutput: 'hex',
});
