/**
 * formatType: PostgreSQL's format_type(oid, typmod), the SQL spelling of a type with its modifier
 * ('character varying(20)', 'numeric(10,2)', 'integer[]'). Used by pg_catalog, \d and error messages.
 * @see https://github.com/postgres/postgres/blob/REL_15_STABLE/src/backend/utils/adt/format_type.c
 */
import { typeInfo } from './registry.ts';

/**
 * format_type(oid, typmod). `typmod` -1 means "given but none" (format_type(oid, -1): 'bpchar', '"bit"');
 * undefined means not given (format_type(oid, NULL): 'character', 'bit'). Unknown OIDs give '???'.
 */
export function formatType(oid: number, typmod?: number): string {
  const t = typeInfo(oid);
  if (t === undefined) return '???';
  const given = typmod !== undefined;
  const mod = typmod ?? -1;
  // True arrays print as element[]; the typmod applies to the element (int2vector/oidvector are plain storage).
  if (t.typelem !== 0 && t.typlen === -1 && t.typstorage !== 'p') {
    return formatType(t.typelem, typmod) + '[]';
  }
  const withMod = given && mod >= 0;
  switch (oid) {
    case 1560: // bit
      return withMod ? `bit(${mod})` : given ? '"bit"' : 'bit';
    case 16:
      return 'boolean';
    case 1042: // bpchar
      return withMod ? `character(${mod - 4})` : given ? 'bpchar' : 'character';
    case 700:
      return 'real';
    case 701:
      return 'double precision';
    case 21:
      return 'smallint';
    case 23:
      return 'integer';
    case 20:
      return 'bigint';
    case 1700:
      return withMod ? 'numeric' + numericTypmodOut(mod) : 'numeric';
    case 1186:
      return withMod ? 'interval' + intervalTypmodOut(mod) : 'interval';
    case 1083:
      return withMod ? `time(${mod}) without time zone` : 'time without time zone';
    case 1266:
      return withMod ? `time(${mod}) with time zone` : 'time with time zone';
    case 1114:
      return withMod ? `timestamp(${mod}) without time zone` : 'timestamp without time zone';
    case 1184:
      return withMod ? `timestamp(${mod}) with time zone` : 'timestamp with time zone';
    case 1562:
      return withMod ? `bit varying(${mod})` : 'bit varying';
    case 1043:
      return withMod ? `character varying(${mod - 4})` : 'character varying';
    case 18:
      return '"char"';
    default:
      return quoteIfReserved(t.typname);
  }
}

/** numerictypmodout: "(p,s)"; the scale is a signed 11-bit field since PostgreSQL 15. */
export function numericTypmodOut(typmod: number): string {
  if (typmod < 4) return '';
  const t = typmod - 4;
  const precision = (t >> 16) & 0xffff;
  const scale = ((t & 0x7ff) ^ 1024) - 1024;
  return `(${precision},${scale})`;
}

// datetime.h field bits: INTERVAL_MASK(MONTH=1, YEAR=2, DAY=3, HOUR=10, MINUTE=11, SECOND=12).
const Y = 1 << 2, M = 1 << 1, D = 1 << 3, H = 1 << 10, MI = 1 << 11, S = 1 << 12;
const INTERVAL_FIELDS = new Map<number, string>([
  [Y, ' year'], [M, ' month'], [D, ' day'], [H, ' hour'], [MI, ' minute'], [S, ' second'],
  [Y | M, ' year to month'], [D | H, ' day to hour'], [D | H | MI, ' day to minute'],
  [D | H | MI | S, ' day to second'], [H | MI, ' hour to minute'], [H | MI | S, ' hour to second'],
  [MI | S, ' minute to second'], [0x7fff, ''],
]);

/** intervaltypmodout: typmod = range << 16 | precision (0xFFFF = unspecified precision). */
export function intervalTypmodOut(typmod: number): string {
  if (typmod < 0) return '';
  const fields = INTERVAL_FIELDS.get((typmod >> 16) & 0x7fff) ?? '';
  const precision = typmod & 0xffff;
  return precision !== 0xffff ? `${fields}(${precision})` : fields;
}

/** Our built-in type names are plain identifiers; only keyword names need quotes (quote_identifier). */
function quoteIfReserved(name: string): string {
  return name === 'any' ? '"any"' : name;
}
