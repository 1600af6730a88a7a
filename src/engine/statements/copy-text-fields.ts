/**
 * Field-level rules of COPY's text format shared by the decoders: backslash escapes and the char(n) /
 * varchar(n) length rules of the type input with the column's typmod.
 * @see https://www.postgresql.org/docs/current/sql-copy.html#id-1.9.3.55.9.2
 */
import { Oid, type SqlType } from '../../common/pgtypes/oids.ts';
import { bpcharLength, varcharLength } from '../../functions/index.ts';

/**
 * char(n) / varchar(n) columns: the input functions with the column's typmod blank-pad char(n) and raise
 * 22001 for values too long, as INSERT's assignment coercion does (textIn leaves strings as they are)
 */
export function charTypmod(type: SqlType, v: unknown): unknown {
  if (type.typmod < 4 || typeof v !== 'string') return v;
  if (type.oid === Oid.bpchar) return bpcharLength(v, type.typmod, false);
  if (type.oid === Oid.varchar) return varcharLength(v, type.typmod, false);
  return v;
}

/** text format: \b \f \n \r \t \v, \x + 1–2 hex digits, \ + 1–3 octal digits, \c → c */
export function unescapeText(s: string): string {
  if (!s.includes('\\')) return s;
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    if (ch !== '\\' || i + 1 >= s.length) {
      out += ch;
      continue;
    }
    const next = s[++i]!;
    switch (next) {
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      case 't': out += '\t'; break;
      case 'v': out += '\v'; break;
      case 'x': {
        const m = /^[0-9a-fA-F]{1,2}/.exec(s.slice(i + 1));
        if (m === null) out += 'x';
        else {
          out += String.fromCharCode(parseInt(m[0], 16));
          i += m[0].length;
        }
        break;
      }
      default:
        if (next >= '0' && next <= '7') {
          const m = /^[0-7]{1,3}/.exec(s.slice(i))!;
          out += String.fromCharCode(parseInt(m[0], 8));
          i += m[0].length - 1;
        } else out += next;
    }
  }
  return out;
}
