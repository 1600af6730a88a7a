/**
 * to_char(numeric | int | float, text): a port of PostgreSQL's NUM_processor (formatting.c) for output:
 * 9 0 . , D G S PR MI PL SG L V EEEE TH FM and literal text. Locale-dependent symbols use the C locale
 * (D = '.', G = ',', L = ' ' as PostgreSQL does when the locale has no currency symbol).
 * Floats are first printed like C's printf("%.*f") (exact binary value, round half to even), limited to
 * DBL_DIG / FLT_DIG significant digits as float8_to_char / float4_to_char do.
 * @see https://www.postgresql.org/docs/15/functions-formatting.html#FUNCTIONS-FORMATTING-NUMERIC-TABLE
 */
import { Numeric } from '../common/pgtypes/numeric.ts';

type NumKey = '9' | '0' | '.' | 'D' | ',' | 'G' | 'S' | 'PR' | 'MI' | 'PL' | 'SG' | 'L' | 'V' | 'EEEE' | 'TH' | 'th' | 'B' | 'RN';
type Node = { kind: 'key'; key: NumKey } | { kind: 'lit'; text: string };

interface NumDesc {
  pre: number; post: number; multi: number; zeroStart: number; zeroEnd: number;
  decimal: boolean; zero: boolean; fill: boolean; lsign: 'pre' | 'post' | null; preLsignNum: number;
  bracket: boolean; minus: boolean; plus: boolean; eeee: boolean;
}

const KEYS: NumKey[] = ['EEEE', 'PR', 'MI', 'PL', 'SG', 'RN', 'TH', 'th', '9', '0', '.', 'D', ',', 'G', 'S', 'L', 'V', 'B'];

function parse(format: string): { nodes: Node[]; d: NumDesc } {
  const d: NumDesc = { pre: 0, post: 0, multi: 0, zeroStart: 0, zeroEnd: 0, decimal: false, zero: false, fill: false, lsign: null, preLsignNum: 0, bracket: false, minus: false, plus: false, eeee: false };
  const nodes: Node[] = [];
  let i = 0;
  let afterV = false;
  while (i < format.length) {
    const rest = format.slice(i);
    if (/^fm/i.test(rest)) { d.fill = true; i += 2; continue; }
    if (rest[0] === '"') {
      const end = format.indexOf('"', i + 1);
      const text = end < 0 ? format.slice(i + 1) : format.slice(i + 1, end);
      nodes.push({ kind: 'lit', text });
      i = end < 0 ? format.length : end + 1;
      continue;
    }
    const key = KEYS.find((k) => (k === 'th' || k === 'TH' ? rest.startsWith(k) : rest.toUpperCase().startsWith(k)));
    if (key === undefined) { nodes.push({ kind: 'lit', text: rest[0]! }); i++; continue; }
    i += key.length;
    switch (key) {
      case '9': case '0':
        if (key === '0' && !d.zero) { d.zero = true; d.zeroStart = d.pre + 1; }
        if (key === '0') d.zeroEnd = d.pre + d.post + 1;
        if (afterV) d.multi++;
        else if (d.decimal) d.post++;
        else d.pre++;
        break;
      case '.': case 'D': d.decimal = true; break;
      case 'S': d.lsign = d.decimal || d.pre > 0 ? 'post' : 'pre'; d.preLsignNum = d.pre; if (d.lsign === 'post' && !d.decimal) d.lsign = 'post'; break;
      case 'PR': d.bracket = true; break;
      case 'MI': d.minus = true; break;
      case 'PL': d.plus = true; break;
      case 'SG': d.minus = true; d.plus = true; break;
      case 'V': afterV = true; break;
      case 'EEEE': d.eeee = true; break;
      default: break;
    }
    nodes.push({ kind: 'key', key });
  }
  return { nodes, d };
}

/** Exact decimal expansion of a double, rounded half-even to `scale` digits, as C's "%.*f". */
export function printfFixed(x: number, scale: number): string {
  if (!Number.isFinite(x)) return String(x);
  const neg = x < 0 || Object.is(x, -0);
  const buf = new DataView(new ArrayBuffer(8));
  buf.setFloat64(0, Math.abs(x));
  const bits = buf.getBigUint64(0);
  const exp = Number((bits >> 52n) & 0x7ffn);
  let mant = bits & 0xfffffffffffffn;
  if (exp !== 0) mant |= 1n << 52n;
  const e2 = (exp === 0 ? 1 : exp) - 1075;
  // value = mant * 2^e2; scaled = value * 10^scale as a fraction num/den
  let num = mant * 10n ** BigInt(scale);
  let den = 1n;
  if (e2 >= 0) num <<= BigInt(e2);
  else den <<= BigInt(-e2);
  let q = num / den;
  const r2 = (num % den) * 2n;
  if (r2 > den || (r2 === den && q % 2n === 1n)) q += 1n;
  let s = q.toString().padStart(scale + 1, '0');
  if (scale > 0) s = s.slice(0, -scale) + '.' + s.slice(-scale);
  return (neg && q !== 0n ? '-' : neg ? '-' : '') + s;
}

function sciString(abs: Numeric | number, post: number): string {
  const n = typeof abs === 'number' ? abs : abs.toNumber();
  const s = n.toExponential(post); // "1.23e+3"
  const [m, e] = s.split('e') as [string, string];
  const ev = Number(e);
  return `${m}e${ev < 0 ? '-' : '+'}${String(Math.abs(ev)).padStart(2, '0')}`;
}

function ordinalSuffix(intPart: string, upper: boolean): string {
  const n = Number(intPart.slice(-2));
  let s = 'th';
  if (n < 11 || n > 13) s = n % 10 === 1 ? 'st' : n % 10 === 2 ? 'nd' : n % 10 === 3 ? 'rd' : 'th';
  return upper ? s.toUpperCase() : s;
}

/** Shared output stage: `numstr` is the unsigned digits ("12.50"), `sign` '+' or '-'. */
function render(nodes: Node[], d: NumDesc, numstrIn: string, sign: '+' | '-'): string {
  if (d.eeee) {
    let out = '';
    for (const n of nodes) {
      if (n.kind === 'lit') out += n.text;
      else if (n.key === 'EEEE') out += (sign === '-' ? '-' : d.fill ? '' : ' ') + numstrIn;
    }
    return out;
  }
  let numstr = numstrIn;
  const dot = numstr.indexOf('.');
  const preLen = dot < 0 ? numstr.length : dot;
  let outPreSpaces = 0;
  if (preLen < d.pre) outPreSpaces = d.pre - preLen;
  else if (preLen > d.pre) numstr = '#'.repeat(d.pre) + (d.post > 0 || d.decimal ? '.' + '#'.repeat(d.post) : '');

  let signWrote: boolean;
  let lsign = d.lsign;
  let bracket = d.bracket;
  if (d.plus || d.minus) signWrote = !(d.plus && !d.minus);
  else {
    if (sign !== '-' && d.fill) bracket = false;
    signWrote = sign === '+' && d.fill && lsign === null;
    if (lsign === 'pre' && d.pre === d.preLsignNum) lsign = 'post';
  }
  if (d.plus && !d.minus) signWrote = false;
  let lastRelevant = -1; // index into numstr
  if (d.fill && d.decimal && numstr.includes('.')) {
    lastRelevant = numstr.length - 1;
    while (lastRelevant > 0 && numstr[lastRelevant] === '0') lastRelevant--;
    if (numstr[lastRelevant] !== '.' && numstr[lastRelevant] === undefined) lastRelevant = -1;
    if (d.zeroEnd > outPreSpaces) {
      const lastZero = d.zeroEnd - outPreSpaces;
      if (lastRelevant < lastZero) lastRelevant = Math.min(lastZero, numstr.length - 1);
    }
  }
  let numCount = d.post + d.pre - 1;
  if (!signWrote && outPreSpaces === 0) numCount++;
  let numCurr = 0;
  let p = 0; // position in numstr
  let numIn = false;
  let out = '';
  const predecSpace = (): boolean => !d.zero && p === 0 && numstr[0] === '0' && d.post !== 0;
  const isRel = (c: string): boolean => lastRelevant >= 0 && numstr[lastRelevant] === c;

  const numpart = (id: '9' | '0' | '.'): void => {
    if (!signWrote && (numCurr >= outPreSpaces || (d.zero && d.zeroStart === numCurr + 1)) && (!predecSpace() || isRel('.'))) {
      if (lsign === 'pre') { out += sign; signWrote = true; }
      else if (bracket) { out += sign === '+' ? ' ' : '<'; signWrote = true; }
      else if (lsign === null && sign === '-') { out += '-'; signWrote = true; }
      else if (lsign === null) { if (!d.fill) out += ' '; signWrote = true; }
    }
    if (id === '9' || id === '0') {
      if (numCurr < outPreSpaces && (d.zeroStart > numCurr + 1 || !d.zero)) {
        if (!d.fill) out += ' ';
      } else if (d.zero && numCurr < outPreSpaces && d.zeroStart <= numCurr + 1) {
        out += '0'; numIn = true;
      } else {
        if (numstr[p] === '.') {
          // decimal point is reached through '.' in the template only; skip stray
        } else {
          if (lastRelevant >= 0 && p > lastRelevant && id !== '0') { /* FM: drop trailing zero */ }
          else if (predecSpace()) {
            if (!d.fill) out += ' ';
            else if (isRel('.')) out += '0';
          } else { out += numstr[p] ?? ''; numIn = true; }
        }
        if (p < numstr.length) p++;
      }
      let end = numCount + (outPreSpaces ? 1 : 0) + (d.decimal ? 1 : 0);
      if (lastRelevant >= 0 && lastRelevant === p - 1 && false) end = numCurr;
      if (numCurr + 1 === end) {
        if (signWrote && bracket) out += sign === '+' ? ' ' : '>';
        else if (lsign === 'post') out += sign;
      }
    } else {
      // decimal point
      if (numstr[p] === '.') {
        out += '.';
        p++;
      } else if (p < numstr.length) {
        out += '.';
      }
      let end = numCount + (outPreSpaces ? 1 : 0) + (d.decimal ? 1 : 0);
      if (lastRelevant >= 0 && lastRelevant === p - 1) end = numCurr + 1;
      if (numCurr + 1 === end) {
        if (signWrote && bracket) out += sign === '+' ? ' ' : '>';
        else if (lsign === 'post') out += sign;
      }
    }
    numCurr++;
  };

  for (const n of nodes) {
    if (n.kind === 'lit') { out += n.text; continue; }
    switch (n.key) {
      case '9': case '0': numpart(n.key); break;
      case '.': case 'D': numpart('.'); break;
      case ',': case 'G': if (!numIn) { if (!d.fill) out += ' '; } else out += ','; break;
      case 'L': out += ' '; break;
      case 'MI': if (sign === '-') out += '-'; else if (!d.fill) out += ' '; break;
      case 'PL': if (sign === '+') out += '+'; else if (!d.fill) out += ' '; break;
      case 'SG': out += sign; break;
      case 'TH': case 'th': {
        if (sign === '-' || d.decimal) break;
        out += ordinalSuffix(numstr.split('.')[0] ?? '0', n.key === 'TH');
        break;
      }
      default: break;
    }
  }
  return out;
}

export function toCharNumeric(value: Numeric, format: string): string {
  const { nodes, d } = parse(format);
  if (!value.isFinite()) {
    if (d.eeee) return value.isNaN() ? ' NaN' : value.signum() > 0 ? ' Infinity' : '-Infinity';
    return ' ' + '#'.repeat(d.pre) + (d.decimal ? '.' + '#'.repeat(d.post) : '');
  }
  if (d.eeee) {
    const sign = value.signum() < 0 ? '-' : '+';
    return render(nodes, d, sciString(value.abs(), d.post), sign);
  }
  let v = value;
  if (d.multi > 0) { v = v.mul(Numeric.of(10n ** BigInt(d.multi), 0)); d.pre += d.multi; }
  v = v.round(d.post);
  const sign = v.signum() < 0 ? '-' : '+';
  return render(nodes, d, v.abs().toString(), sign);
}

export function toCharFloat(value: number, format: string, isFloat4: boolean): string {
  const { nodes, d } = parse(format);
  if (d.eeee) {
    if (!Number.isFinite(value)) return Number.isNaN(value) ? ' NaN' : value > 0 ? ' Infinity' : '-Infinity';
    return render(nodes, d, sciString(Math.abs(value), d.post), value < 0 ? '-' : '+');
  }
  if (!Number.isFinite(value)) return ' ' + '#'.repeat(d.pre) + (d.decimal ? '.' + '#'.repeat(d.post) : '');
  let val = value;
  if (d.multi > 0) { val = value * 10 ** d.multi; d.pre += d.multi; }
  const maxDig = isFloat4 ? 6 : 15;
  const preLen = printfFixed(Math.abs(val), 0).length;
  if (preLen >= maxDig) d.post = 0;
  else if (preLen + d.post > maxDig) d.post = maxDig - preLen;
  let s = printfFixed(val, d.post);
  const sign = s.startsWith('-') ? '-' : '+';
  if (sign === '-') s = s.slice(1);
  return render(nodes, d, s, sign);
}
