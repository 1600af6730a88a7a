/**
 * textInput / textOutput: a type's input and output functions as the function library calls them
 * (I/O casts, ||, concat, format, quote_literal of non-text), with the session's DateStyle,
 * IntervalStyle, TimeZone and extra_float_digits. Delegates to common/pgtypes/text-io.ts.
 */
import type { EvalContext } from './registry-types.ts';
import type { OutputSettings } from '../common/pgtypes/output-settings.ts';
import { textIn, textOut } from '../common/pgtypes/text-io.ts';
import { Oid } from '../common/pgtypes/oids.ts';
import { DEFAULT_OUTPUT_SETTINGS } from '../common/pgtypes/output-settings.ts';
import { inetShowText } from '../common/pgtypes/inet-math.ts';

const cache = new WeakMap<EvalContext, OutputSettings>();

/** The session's text I/O settings (read once per EvalContext). */
export function outputSettingsOf(ctx: EvalContext | undefined): OutputSettings {
  if (ctx === undefined) return DEFAULT_OUTPUT_SETTINGS;
  const hit = cache.get(ctx);
  if (hit !== undefined) return hit;
  const get = (name: string): string | null => {
    try {
      return ctx.session.getSetting(name, true);
    } catch {
      return null;
    }
  };
  const efd = Number(get('extra_float_digits') ?? '1');
  const s: OutputSettings = {
    dateStyle: get('DateStyle') ?? DEFAULT_OUTPUT_SETTINGS.dateStyle,
    intervalStyle: get('IntervalStyle') ?? DEFAULT_OUTPUT_SETTINGS.intervalStyle,
    timeZone: get('TimeZone') ?? DEFAULT_OUTPUT_SETTINGS.timeZone,
    extraFloatDigits: Number.isFinite(efd) ? efd : 1,
    byteaOutput: get('bytea_output') === 'escape' ? 'escape' : 'hex',
  };
  cache.set(ctx, s);
  return s;
}

/** catalog-aware output of an OID alias type (regtype 23 → integer), which the function library cannot look up */
export type RegTextOutput = (oid: number, value: number, ctx: EvalContext) => string | null;
let regTextOutput: RegTextOutput | null = null;
const REG_OIDS = new Set<number>([Oid.regproc, Oid.regprocedure, Oid.regoper, Oid.regoperator, Oid.regclass, Oid.regtype,
  Oid.regconfig, Oid.regdictionary, Oid.regnamespace, Oid.regrole, Oid.regcollation]);

/** installed by pgcatalog when it registers its functions */
export function setRegTextOutput(fn: RegTextOutput): void {
  regTextOutput = fn;
}

/** read once: the string fast path below runs per value */
const CIDR: number = Oid.cidr;

/** The text form of a non-null value of type `oid` (the type's output function). */
export function textOutput(oid: number, v: unknown, ctx: EvalContext | undefined): string {
  if (typeof v === 'string' && oid !== 0 && oid !== CIDR) return v; // cidr's text adds the mask its value hides
  if (typeof v === 'number' && ctx !== undefined && regTextOutput !== null && REG_OIDS.has(oid)) {
    const s = regTextOutput(oid, v, ctx);
    if (s !== null) return s;
  }
  return textOut(oid, v, outputSettingsOf(ctx));
}

/** The value of `text` as type `oid` (the type's input function). */
export function textInput(oid: number, typmod: number, text: string, ctx: EvalContext | undefined): unknown {
  return textIn(oid, typmod, text, outputSettingsOf(ctx));
}

/**
 * `value::text` as a cast (not the output function): booltext gives 'true'/'false', bpchar loses its
 * trailing blanks and inet/cidr always show their mask (network_show); everything else goes through the output
 * function. textanycat, anytextcat and quote_literal(anyelement) are SQL functions built on this cast in PostgreSQL.
 */
export function castToText(oid: number, v: unknown, ctx: EvalContext | undefined): string {
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (oid === Oid.bpchar && typeof v === 'string') return v.replace(/ +$/, '');
  if ((oid === Oid.inet || oid === Oid.cidr) && typeof v === 'string') return inetShowText(v); // text(inet): with the mask
  return textOutput(oid, v, ctx);
}
