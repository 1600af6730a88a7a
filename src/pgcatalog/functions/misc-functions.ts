/**
 * Size, encoding and keyword functions: pg_relation_size & co. (lakegate does not know on-disk sizes of
 * relations here, so they report 0), pg_size_pretty, pg_column_size, pg_encoding_to_char/pg_char_to_encoding,
 * pg_get_keywords (PostgreSQL 15's list, shipped as data), quote_ident.
 * @see https://www.postgresql.org/docs/15/functions-admin.html#FUNCTIONS-ADMIN-DBSIZE
 */
import { Oid, sqlType } from '../../common/pgtypes/index.ts';
import type { RoutineDef } from '../../functions/registry-types.ts';
import { quoteIdent } from '../catalog-snapshot.ts';
import { PG_KEYWORDS } from '../data/pg-keywords.ts';
import { DEFAULT_PARSER_OID, DEFAULT_PARSER_TOKEN_TYPES } from '../tables/text-search-catalogs.ts';
import { typeFacts } from '../type-facts.ts';
import { scalar, setReturning } from './define.ts';

/** PostgreSQL's encoding names by number (pg_wchar.h pg_enc). */
export const PG_ENCODINGS = [
  'SQL_ASCII', 'EUC_JP', 'EUC_CN', 'EUC_KR', 'EUC_TW', 'EUC_JIS_2004', 'UTF8', 'MULE_INTERNAL', 'LATIN1', 'LATIN2',
  'LATIN3', 'LATIN4', 'LATIN5', 'LATIN6', 'LATIN7', 'LATIN8', 'LATIN9', 'LATIN10', 'WIN1256', 'WIN1258', 'WIN866',
  'WIN874', 'KOI8R', 'WIN1251', 'WIN1252', 'ISO_8859_5', 'ISO_8859_6', 'ISO_8859_7', 'ISO_8859_8', 'WIN1250',
  'WIN1253', 'WIN1254', 'WIN1255', 'WIN1257', 'KOI8U', 'SJIS', 'BIG5', 'GBK', 'UHC', 'GB18030', 'JOHAB', 'SHIFT_JIS_2004',
] as const;

/** pg_size_pretty(bigint) as PostgreSQL 15 computes it (half-rounded, units up to PB). */
export function sizePretty(size: bigint): string {
  const limit = 10n * 1024n;
  const limit2 = limit * 2n - 1n;
  const abs = (x: bigint): bigint => (x < 0n ? -x : x);
  const halfRounded = (x: bigint): bigint => (x + (x < 0n ? -1n : 1n)) / 2n;
  if (abs(size) < limit) return `${size} bytes`;
  let s = size >> 9n;
  for (const unit of ['kB', 'MB', 'GB', 'TB']) {
    if (abs(s) < limit2) return `${halfRounded(s)} ${unit}`;
    s >>= 10n;
  }
  return `${halfRounded(s)} PB`;
}

const CATDESC: Record<string, string> = {
  U: 'unreserved', C: 'unreserved (cannot be function or type name)', T: 'reserved (can be function or type name)', R: 'reserved',
};

function columnSize(value: unknown, typeOid: number): number | null {
  if (value === null) return null;
  const len = typeFacts(typeOid).typlen;
  if (len > 0) return len;
  if (typeof value === 'string') {
    const bytes = Buffer.byteLength(value, 'utf8');
    return bytes + (bytes < 127 ? 1 : 4);
  }
  if (value instanceof Uint8Array) return value.length + (value.length < 127 ? 1 : 4);
  return null;
}

const zeroSize = (): bigint => 0n;

export const miscFunctions: readonly RoutineDef[] = [
  scalar('pg_relation_size', [Oid.regclass], Oid.int8, zeroSize, { volatility: 'v' }),
  scalar('pg_relation_size', [Oid.regclass, Oid.text], Oid.int8, zeroSize, { volatility: 'v' }),
  scalar('pg_total_relation_size', [Oid.regclass], Oid.int8, zeroSize, { volatility: 'v' }),
  scalar('pg_table_size', [Oid.regclass], Oid.int8, zeroSize, { volatility: 'v' }),
  scalar('pg_indexes_size', [Oid.regclass], Oid.int8, zeroSize, { volatility: 'v' }),
  scalar('pg_database_size', [Oid.name], Oid.int8, zeroSize, { volatility: 'v' }),
  scalar('pg_database_size', [Oid.oid], Oid.int8, zeroSize, { volatility: 'v' }),
  scalar('pg_stat_get_numscans', [Oid.oid], Oid.int8, zeroSize, { volatility: 'v' }),
  scalar('pg_size_pretty', [Oid.int8], Oid.text, ([n]) => sizePretty(n as bigint), { volatility: 'i' }),
  scalar('pg_size_pretty', [Oid.numeric], Oid.text, ([n]) => {
    const text = String(n);
    const whole = /^-?\d+/.exec(text)?.[0] ?? '0';
    // fractional byte counts below 10 kB print as given, as PostgreSQL's numeric variant does
    return BigInt(whole) < 10240n && BigInt(whole) > -10240n ? `${text} bytes` : sizePretty(BigInt(whole));
  }, { volatility: 'i' }),
  scalar('pg_column_size', [Oid.any], Oid.int4, ([v], _ctx, argTypes) => columnSize(v, argTypes[0]?.oid ?? 0)),
  scalar('pg_encoding_to_char', [Oid.int4], Oid.name, ([n]) => PG_ENCODINGS[n as number] ?? '', { volatility: 'i' }),
  scalar('pg_char_to_encoding', [Oid.name], Oid.int4,
    ([name]) => PG_ENCODINGS.findIndex((e) => e === (name as string).toUpperCase().replace(/^UTF-8$/, 'UTF8')), { volatility: 'i' }),
  scalar('pg_encoding_max_length', [Oid.int4], Oid.int4, ([n]) => (n === 6 ? 4 : 1), { volatility: 'i' }),
  scalar('pg_client_encoding', [], Oid.name, (_a, ctx) => ctx.session.getSetting('client_encoding', true) ?? 'UTF8'),
  setReturning('pg_get_keywords', [], Oid.record,
    () => PG_KEYWORDS.map(([word, catcode, barelabel]) => [word, catcode, barelabel, CATDESC[catcode]!, barelabel ? 'can be bare label' : 'requires AS']),
    () => [
      { name: 'word', type: sqlType(Oid.text) }, { name: 'catcode', type: sqlType(Oid.char) }, { name: 'barelabel', type: sqlType(Oid.bool) },
      { name: 'catdesc', type: sqlType(Oid.text) }, { name: 'baredesc', type: sqlType(Oid.text) },
    ]),
  // ts_token_type(parser oid | name): PostgreSQL's OIDs 3713 / 3714 (not in pg-proc-oids.ts, which lists older ones)
  ...([[Oid.oid, 3713, (p: unknown) => Number(p) === DEFAULT_PARSER_OID], [Oid.text, 3714, (p: unknown) => p === 'default' || p === 'pg_catalog.default']] as const)
    .map(([argType, oid, isDefault]) => ({
      ...setReturning('ts_token_type', [argType], Oid.record,
        ([parser]) => (isDefault(parser) ? DEFAULT_PARSER_TOKEN_TYPES.map((t) => [...t]) : []),
        () => [{ name: 'tokid', type: sqlType(Oid.int4) }, { name: 'alias', type: sqlType(Oid.text) }, { name: 'description', type: sqlType(Oid.text) }],
        { volatility: 'v' }),
      oid,
    })),
];

/** Functions F1's library may already provide; registerPgCatalog adds them only when missing. */
export const fallbackFunctions: readonly RoutineDef[] = [
  scalar('quote_ident', [Oid.text], Oid.text, ([s]) => quoteIdent(s as string), { volatility: 'i' }),
];
