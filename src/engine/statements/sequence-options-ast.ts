/**
 * The DefElem list of CREATE / ALTER SEQUENCE and of an identity column's `(sequence options)` → option
 * changes, OWNED BY and the sequence name (SEQUENCE NAME in an identity's options), with PostgreSQL's errors.
 * @see https://www.postgresql.org/docs/15/sql-createsequence.html
 */
import { pgError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import { sequenceDataType, type SequenceOptionChanges } from '../../catalog/sequences/sequence-options.ts';
import { nodeBody, nodeKind, stringList } from '../ast.ts';

export interface ParsedSequenceOptions {
  readonly changes: SequenceOptionChanges;
  /** OWNED BY [schema.]table.column as names, or 'none' */
  readonly ownedBy?: readonly string[] | 'none';
  /** SEQUENCE NAME (identity columns) */
  readonly sequenceName?: readonly string[];
}

function integerArg(arg: unknown, option: string): bigint {
  const kind = nodeKind(arg);
  const body = nodeBody(arg);
  if (kind === 'Integer') return BigInt(Number(body.ival ?? 0));
  if (kind === 'Float' && typeof body.fval === 'string' && /^[-+]?\d+$/.test(body.fval)) {
    const v = BigInt(body.fval);
    if (v < -(2n ** 63n) || v > 2n ** 63n - 1n) throw pgError(SqlState.numeric_value_out_of_range, `value "${body.fval}" is out of range for type bigint`);
    return v;
  }
  throw pgError(SqlState.syntax_error, `${option} requires a numeric value`);
}

export function parseSequenceOptions(options: unknown): ParsedSequenceOptions {
  const changes: SequenceOptionChanges = {};
  let ownedBy: readonly string[] | 'none' | undefined;
  let sequenceName: readonly string[] | undefined;
  const seen = new Set<string>();
  for (const o of Array.isArray(options) ? options : []) {
    const d = nodeBody(o);
    const name = String(d.defname ?? '');
    if (seen.has(name)) throw pgError(SqlState.syntax_error, 'conflicting or redundant options');
    seen.add(name);
    const arg = d.arg;
    switch (name) {
      case 'as': {
        const names = stringList(nodeBody(arg).names);
        changes.dataType = sequenceDataType(names[names.length - 1] ?? '');
        break;
      }
      case 'increment': changes.increment = integerArg(arg, 'INCREMENT'); break;
      case 'minvalue': changes.min = arg === undefined ? null : integerArg(arg, 'MINVALUE'); break;
      case 'maxvalue': changes.max = arg === undefined ? null : integerArg(arg, 'MAXVALUE'); break;
      case 'start': changes.start = integerArg(arg, 'START'); break;
      case 'restart': changes.restart = arg === undefined ? null : integerArg(arg, 'RESTART'); break;
      case 'cache': changes.cache = integerArg(arg, 'CACHE'); break;
      case 'cycle': changes.cycle = nodeBody(arg).boolval === true; break;
      case 'owned_by': {
        const names = stringList(nodeBody(arg).items);
        if (names.length === 1 && names[0] === 'none') ownedBy = 'none';
        else if (names.length < 2) {
          throw pgError(SqlState.syntax_error, 'invalid OWNED BY option', { hint: 'Specify OWNED BY table.column or OWNED BY NONE.' });
        } else ownedBy = names;
        break;
      }
      case 'sequence_name': sequenceName = stringList(nodeBody(arg).items); break;
      default: throw pgError(SqlState.syntax_error, `option "${name}" not recognized`);
    }
  }
  return { changes, ...(ownedBy === undefined ? {} : { ownedBy }), ...(sequenceName === undefined ? {} : { sequenceName }) };
}
