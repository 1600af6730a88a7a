/**
 * The error for a type name the registry does not know. PostgreSQL 15's own built-in types that lakegate cannot
 * hold values of (geometry, text search, multiranges, pg_snapshot …; pg_type still lists them, see
 * pgcatalog/other-types.ts) are 0A000 naming the type, so a user learns the type exists but is not supported
 * here; any other name is PostgreSQL's 42704 `type "x" does not exist`.
 */
import { pgError, type GatewayError } from '../errors.ts';
import { SqlState } from '../sqlstate.ts';

/** pg_catalog base and multirange types of PostgreSQL 15 without a registry entry (typeByName); kept equal to
 * pgcatalog/data/pg-other-types.json by pgcatalog/unsupported-builtin-types.test.ts (src/sql may not read pgcatalog) */
export const UNSUPPORTED_BUILTINS: ReadonlySet<string> = new Set([
  'point', 'lseg', 'path', 'box', 'polygon', 'line', 'circle', 'macaddr8', 'txid_snapshot', 'pg_snapshot',
  'pg_ndistinct', 'pg_dependencies', 'pg_mcv_list', 'pg_brin_bloom_summary', 'pg_brin_minmax_multi_summary',
  'tsvector', 'tsquery', 'gtsvector', 'int4multirange', 'nummultirange', 'tsmultirange', 'tstzmultirange',
  'datemultirange', 'int8multirange',
]);

/** `names`: the TypeName's parts (['pg_catalog', 'point'], ['point']); `position`: 1-based, if known */
export function unknownTypeError(names: readonly string[], position: number | undefined): GatewayError {
  const shown = names.filter((x, i) => !(i === 0 && x === 'pg_catalog' && names.length > 1)).join('.');
  const at = position === undefined ? {} : { position };
  const bare = names.length === 1 || (names.length === 2 && names[0] === 'pg_catalog') ? names[names.length - 1]! : '';
  if (UNSUPPORTED_BUILTINS.has(bare.endsWith('[]') ? bare.slice(0, -2) : bare)) {
    return pgError(SqlState.feature_not_supported, `type "${shown}" is not supported`, { ...at, detail: 'lakegate has no values of PostgreSQL\'s geometric, text search, multirange and snapshot types.' });
  }
  return pgError(SqlState.undefined_object, `type "${shown}" does not exist`, at);
}
