/** Text form of result values for tests (PostgreSQL's output format, arrays included). */
import { isPgArray, type PgArray } from '../../common/pgtypes/values.ts';
import { textOutput } from '../../functions/text-io.ts';

function quote(s: string): string {
  return s === '' || /[{},"\\\s]/.test(s) || s.toUpperCase() === 'NULL' ? `"${s.replace(/["\\]/g, (c) => `\\${c}`)}"` : s;
}

function arrayText(a: PgArray): string {
  if (a.dims.length === 0) return '{}';
  const walk = (d: number, off: number): [string, number] => {
    const parts: string[] = [];
    for (let i = 0; i < a.dims[d]!; i++) {
      if (d === a.dims.length - 1) {
        const v = a.values[off++];
        parts.push(v === null || v === undefined ? 'NULL' : quote(textOutput(a.elementOid, v, undefined)));
      } else {
        const [s, o] = walk(d + 1, off);
        parts.push(s);
        off = o;
      }
    }
    return [`{${parts.join(',')}}`, off];
  };
  return walk(0, 0)[0];
}

export function showValue(oid: number, v: unknown): string {
  if (v === null || v === undefined) return 'NULL';
  if (isPgArray(v)) return arrayText(v);
  return textOutput(oid, v, undefined);
}
