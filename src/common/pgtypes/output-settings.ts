/**
 * DEFAULT_OUTPUT_SETTINGS: a fresh PostgreSQL 15 session's text I/O settings (DateStyle 'ISO, MDY',
 * IntervalStyle postgres, TimeZone UTC here, extra_float_digits 1, bytea_output hex).
 */
import type { OutputSettings } from '../../wire/handler.ts';

export type { OutputSettings };

export const DEFAULT_OUTPUT_SETTINGS: OutputSettings = Object.freeze({
  dateStyle: 'ISO, MDY',
  intervalStyle: 'postgres',
  timeZone: 'UTC',
  extraFloatDigits: 1,
  byteaOutput: 'hex',
});
