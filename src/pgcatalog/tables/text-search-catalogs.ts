/**
 * The rows initdb puts in the text search catalogs (pg_ts_parser, pg_ts_template, pg_ts_dict, pg_ts_config,
 * pg_ts_config_map) and in pg_conversion, with their comments: psql's \dF \dFd \dFp \dFt and \dcS list them, and
 * clients' object trees show them. lakegate has no text search and converts no encodings: the rows are PostgreSQL
 * 15's facts, nothing runs them (their functions are not in pg_proc).
 * Data: data/pg-text-search.json, made by testing/generate-pg15-text-search.mjs, read on first use.
 */
import { readFileSync } from 'node:fs';
import type { CatalogRow } from '../system-table.ts';
import { BOOTSTRAP_SUPERUSER_OID, ClassOid } from '../well-known-oids.ts';

interface TextSearchJson {
  readonly parsers: readonly (readonly [number, string, number, number, number, number, number, number, string | null])[];
  readonly templates: readonly (readonly [number, string, number, number, number, string | null])[];
  readonly dicts: readonly (readonly [number, string, number, number, string | null, string | null])[];
  readonly configs: readonly (readonly [number, string, number, number, string | null])[];
  readonly configMap: readonly (readonly [number, number, number, number])[];
  readonly conversions: readonly (readonly [number, string, number, number, number, number, boolean, string | null])[];
}

let loaded: TextSearchJson | undefined;

function data(): TextSearchJson {
  loaded ??= JSON.parse(readFileSync(new URL('../data/pg-text-search.json', import.meta.url), 'utf8')) as TextSearchJson;
  return loaded;
}

export function* pgTsParserRows(): Iterable<CatalogRow> {
  for (const [oid, prsname, prsnamespace, prsstart, prstoken, prsend, prsheadline, prslextype] of data().parsers) {
    yield { oid, prsname, prsnamespace, prsstart, prstoken, prsend, prsheadline, prslextype };
  }
}

export function* pgTsTemplateRows(): Iterable<CatalogRow> {
  for (const [oid, tmplname, tmplnamespace, tmplinit, tmpllexize] of data().templates) {
    yield { oid, tmplname, tmplnamespace, tmplinit, tmpllexize };
  }
}

export function* pgTsDictRows(): Iterable<CatalogRow> {
  for (const [oid, dictname, dictnamespace, dicttemplate, dictinitoption] of data().dicts) {
    yield { oid, dictname, dictnamespace, dictowner: BOOTSTRAP_SUPERUSER_OID, dicttemplate, dictinitoption };
  }
}

export function* pgTsConfigRows(): Iterable<CatalogRow> {
  for (const [oid, cfgname, cfgnamespace, cfgparser] of data().configs) {
    yield { oid, cfgname, cfgnamespace, cfgowner: BOOTSTRAP_SUPERUSER_OID, cfgparser };
  }
}

export function* pgTsConfigMapRows(): Iterable<CatalogRow> {
  for (const [mapcfg, maptokentype, mapseqno, mapdict] of data().configMap) yield { mapcfg, maptokentype, mapseqno, mapdict };
}

export function* pgConversionRows(): Iterable<CatalogRow> {
  for (const [oid, conname, connamespace, conforencoding, contoencoding, conproc, condefault] of data().conversions) {
    yield { oid, conname, connamespace, conowner: BOOTSTRAP_SUPERUSER_OID, conforencoding, contoencoding, conproc, condefault };
  }
}

/** initdb's comments on these objects, as pg_description rows, for the catalogs `wants` accepts */
export function* textSearchDescriptionRows(wants: (classoid: number) => boolean): Iterable<CatalogRow> {
  const d = data();
  const lists: readonly (readonly [number, readonly (readonly unknown[])[]])[] = [
    [ClassOid.pg_ts_parser, d.parsers], [ClassOid.pg_ts_template, d.templates], [ClassOid.pg_ts_dict, d.dicts],
    [ClassOid.pg_ts_config, d.configs], [ClassOid.pg_conversion, d.conversions],
  ];
  for (const [classoid, rows] of lists) {
    if (!wants(classoid)) continue;
    for (const r of rows) {
      const description = r[r.length - 1];
      if (typeof description === 'string') yield { objoid: r[0] as number, classoid, objsubid: 0, description };
    }
  }
}

/** regconfig / regdictionary output: the configuration's or dictionary's name (all of them live in pg_catalog) */
export function textSearchObjectName(kind: 'config' | 'dict', oid: number): string | undefined {
  const rows = kind === 'config' ? data().configs : data().dicts;
  return rows.find((r) => r[0] === oid)?.[1];
}

/** regconfig / regdictionary input: a name, optionally qualified by pg_catalog */
export function textSearchObjectOid(kind: 'config' | 'dict', name: string): number | undefined {
  const bare = name.replace(/^pg_catalog\./, '');
  const rows = kind === 'config' ? data().configs : data().dicts;
  return rows.find((r) => r[1] === bare)?.[0];
}

/**
 * ts_token_type(parser): the default parser's token types (the only parser), as PostgreSQL 15 lists them
 * (psql's \dF+ names each mapping's token through it)
 */
export const DEFAULT_PARSER_TOKEN_TYPES: readonly (readonly [number, string, string])[] = [
  [1, 'asciiword', 'Word, all ASCII'], [2, 'word', 'Word, all letters'], [3, 'numword', 'Word, letters and digits'],
  [4, 'email', 'Email address'], [5, 'url', 'URL'], [6, 'host', 'Host'], [7, 'sfloat', 'Scientific notation'],
  [8, 'version', 'Version number'], [9, 'hword_numpart', 'Hyphenated word part, letters and digits'],
  [10, 'hword_part', 'Hyphenated word part, all letters'], [11, 'hword_asciipart', 'Hyphenated word part, all ASCII'],
  [12, 'blank', 'Space symbols'], [13, 'tag', 'XML tag'], [14, 'protocol', 'Protocol head'],
  [15, 'numhword', 'Hyphenated word, letters and digits'], [16, 'asciihword', 'Hyphenated word, all ASCII'],
  [17, 'hword', 'Hyphenated word, all letters'], [18, 'url_path', 'URL path'], [19, 'file', 'File or path name'],
  [20, 'float', 'Decimal notation'], [21, 'int', 'Signed integer'], [22, 'uint', 'Unsigned integer'],
  [23, 'entity', 'XML entity'],
];

/** the default parser's OID */
export const DEFAULT_PARSER_OID = 3722;
