/** TypeName nodes (casts, DDL) → SqlType with PostgreSQL's typmod encoding. */
import { sqlType, type SqlType } from '../../common/pgtypes/oids.ts';
import { typeByName } from '../../common/pgtypes/registry.ts';
import { unknownTypeError } from '../../common/pgtypes/unknown-type-error.ts';
import { pgError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';

type Node = Record<string, unknown>;

export function resolveTypeName(tn: Node): SqlType {
  const names = (tn.names as Node[]).map((x) => String((x.String as Node).sval));
  const display = names.filter((x, i) => !(i === 0 && x === 'pg_catalog' && names.length > 1)).join('.');
  let info = typeByName(names.length > 1 && names[0] === 'pg_catalog' ? names.slice(1).join('.') : names.join('.'));
  // the grammar spells unquoted char / character as pg_catalog.bpchar, so a bare `char` here was written "char"
  if (names[names.length - 1] === 'char' && (names.length === 1 || (names[0] === 'pg_catalog' && names.length === 2))) info = typeByName('"char"');
  const position = typeof tn.location === 'number' && tn.location >= 0 ? tn.location + 1 : undefined;
  if (info === undefined) throw unknownTypeError(names, position);
  const mods = ((tn.typmods as Node[] | undefined) ?? []).map((m) => {
    const c = m.A_Const as Node | undefined;
    return Number((c?.ival as Node | undefined)?.ival ?? 0);
  });
  let typmod = typeof tn.typemod === 'number' ? tn.typemod : -1;
  if (mods.length > 0) {
    switch (info.typname) {
      case 'varchar': case 'bpchar': typmod = mods[0]! + 4; break;
      case 'bit': case 'varbit': // anybit_typmodin
        if (mods[0]! < 1) throw pgError(SqlState.invalid_parameter_value, `length for type ${info.typname} must be at least 1`, position === undefined ? {} : { position });
        if (mods[0]! > 83886080) throw pgError(SqlState.invalid_parameter_value, `length for type ${info.typname} cannot exceed 83886080`, position === undefined ? {} : { position });
        typmod = mods[0]!;
        break;
      case 'numeric': typmod = ((mods[0]! << 16) | (mods[1] ?? 0)) + 4; break;
      case 'interval': typmod = ((mods[0]! & 0x7fff) << 16) | (mods[1] ?? 0xffff); break;
      default: typmod = mods[0]!;
    }
  }
  let oid = info.oid;
  if (((tn.arrayBounds as unknown[] | undefined) ?? []).length > 0) {
    if (info.typarray === 0) throw pgError(SqlState.undefined_object, `could not find array type for data type ${display}`);
    oid = info.typarray;
  }
  return sqlType(oid, typmod);
}
