/**
 * money: a 64-bit count of cents (bigint, values.ts), printed and read as PostgreSQL's cash_out / cash_in do under
 * lc_monetary C (lakegate's only monetary locale): `$1,234.56`, `-$0.50`; input takes the `$`, `,` groups, a leading
 * or trailing `-`, `(…)` for negative, and rounds a third decimal half up.
 * @see https://github.com/postgres/postgres/blob/REL_15_STABLE/src/backend/utils/adt/cash.c
 */
import { GatewayError } from '../errors.ts';
import { SqlState } from '../sqlstate.ts';

const INT64_MIN = -(2n ** 63n);
/** lc_monetary C: frac_digits 2, '.', ',' every 3 digits, '$', '-', '+' */
const FRACTION_DIGITS = 2;

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';
const isSpace = (c: string | undefined): boolean => c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f' || c === '\v';

function outOfRange(text: string): GatewayError {
  return new GatewayError(SqlState.numeric_value_out_of_range, `value "${text}" is out of range for type money`);
}

/** cash_in: the value is accumulated negative, as in PostgreSQL, so -9223372036854775808 cents fits */
export function cashIn(text: string): bigint {
  let i = 0;
  const skipSpace = (): void => { while (isSpace(text[i])) i++; };
  const skipSymbol = (): void => { if (text[i] === '$') i++; };
  skipSpace();
  skipSymbol();
  skipSpace();
  let sign = 1;
  if (text[i] === '-') { sign = -1; i++; } else if (text[i] === '(') { sign = -1; i++; } else if (text[i] === '+') i++;
  skipSpace();
  skipSymbol();
  skipSpace();
  let value = 0n;
  let decimals = 0;
  let seenDot = false;
  for (; i < text.length; i++) {
    const c = text[i];
    if (isDigit(c) && (!seenDot || decimals < FRACTION_DIGITS)) {
      value = value * 10n - BigInt(c!.charCodeAt(0) - 48);
      if (value < INT64_MIN) throw outOfRange(text);
      if (seenDot) decimals++;
    } else if (c === '.' && !seenDot) seenDot = true;
    else if (c !== ',') break;
  }
  if (isDigit(text[i]) && text[i]! >= '5') {
    value -= 1n;
    if (value < INT64_MIN) throw outOfRange(text);
  }
  for (; decimals < FRACTION_DIGITS; decimals++) {
    value *= 10n;
    if (value < INT64_MIN) throw outOfRange(text);
  }
  while (isDigit(text[i])) i++;
  for (; i < text.length; i++) {
    const c = text[i];
    if (isSpace(c) || c === ')' || c === '+' || c === '$') continue;
    if (c === '-') { sign = -1; continue; }
    throw new GatewayError(SqlState.invalid_text_representation, `invalid input syntax for type money: "${text}"`);
  }
  if (sign > 0) {
    if (value === INT64_MIN) throw outOfRange(text);
    return -value;
  }
  return value;
}

/** cash_out: `$` and the amount in groups of three digits, `-` first when negative */
export function cashOut(cents: bigint): string {
  const negative = cents < 0n;
  const digits = (negative ? -cents : cents).toString().padStart(FRACTION_DIGITS + 1, '0');
  const whole = digits.slice(0, -FRACTION_DIGITS);
  let grouped = '';
  for (let end = whole.length; end > 0; end -= 3) grouped = whole.slice(Math.max(0, end - 3), end) + (grouped === '' ? '' : `,${grouped}`);
  return `${negative ? '-' : ''}$${grouped}.${digits.slice(-FRACTION_DIGITS)}`;
}
