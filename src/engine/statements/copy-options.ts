/**
 * COPY's options (both the WITH (…) list and the pre-9.0 keywords libpg-query folds into it), validated
 * with PostgreSQL's messages.
 * @see https://www.postgresql.org/docs/current/sql-copy.html
 */
import { pgError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import { constText, nodeBody, nodeKind, stringList } from '../ast.ts';

export interface CopyOptions {
  readonly format: 'text' | 'csv' | 'binary';
  readonly header: boolean;
  readonly delimiter: string;
  readonly nullString: string;
  readonly quote: string;
  readonly escape: string;
  /** column names, or '*' for all */
  readonly forceQuote: readonly string[] | '*';
  readonly forceNotNull: readonly string[];
  readonly forceNull: readonly string[];
}

export function parseCopyOptions(list: unknown): CopyOptions {
  let format: CopyOptions['format'] = 'text';
  let header = false;
  let delimiter: string | undefined;
  let nullString: string | undefined;
  let quote: string | undefined;
  let escape: string | undefined;
  let forceQuote: readonly string[] | '*' = [];
  let forceNotNull: readonly string[] = [];
  let forceNull: readonly string[] = [];
  for (const item of Array.isArray(list) ? list : []) {
    const def = nodeBody(item);
    const name = String(def.defname ?? '');
    const arg = def.arg;
    switch (name) {
      case 'format': {
        const f = (constText(arg) ?? '').toLowerCase();
        if (f !== 'text' && f !== 'csv' && f !== 'binary') throw pgError(SqlState.invalid_parameter_value, `COPY format "${f}" not recognized`);
        format = f;
        break;
      }
      case 'header': {
        const v = arg === undefined ? 'true' : (constText(arg) ?? 'true').toLowerCase();
        header = v === 'true' || v === 'on' || v === '1' || v === 'match';
        break;
      }
      case 'delimiter':
        delimiter = constText(arg) ?? '';
        break;
      case 'null':
        nullString = constText(arg) ?? '';
        break;
      case 'quote':
        quote = constText(arg) ?? '';
        break;
      case 'escape':
        escape = constText(arg) ?? '';
        break;
      case 'force_quote':
        forceQuote = nodeKind(arg) === 'A_Star' ? '*' : stringList(Array.isArray(arg) ? arg : nodeBody(arg).items);
        break;
      case 'force_not_null':
        forceNotNull = stringList(Array.isArray(arg) ? arg : nodeBody(arg).items);
        break;
      case 'force_null':
        forceNull = stringList(Array.isArray(arg) ? arg : nodeBody(arg).items);
        break;
      case 'encoding': {
        const enc = (constText(arg) ?? '').toUpperCase().replace(/[-_]/g, '');
        if (enc !== 'UTF8') throw pgError(SqlState.feature_not_supported, `COPY encoding "${constText(arg)}" is not supported; lakegate uses UTF8`);
        break;
      }
      case 'freeze':
        break;
      default:
        throw pgError(SqlState.syntax_error, `option "${name}" not recognized`);
    }
  }
  if (format === 'binary' && (delimiter !== undefined || nullString !== undefined)) {
    throw pgError(SqlState.syntax_error, `cannot specify ${delimiter !== undefined ? 'DELIMITER' : 'NULL'} in BINARY mode`);
  }
  const d = delimiter ?? (format === 'csv' ? ',' : '\t');
  if (d.length !== 1) throw pgError(SqlState.feature_not_supported, 'COPY delimiter must be a single one-byte character');
  if (format !== 'csv' && (quote !== undefined || escape !== undefined)) throw pgError(SqlState.feature_not_supported, 'COPY quote available only in CSV mode');
  const q = quote ?? '"';
  return {
    format,
    header,
    delimiter: d,
    nullString: nullString ?? (format === 'csv' ? '' : '\\N'),
    quote: q,
    escape: escape ?? q,
    forceQuote,
    forceNotNull,
    forceNull,
  };
}
