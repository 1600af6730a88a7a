/** COPY options and a typed target shared by the COPY decoder tests (random inputs over the same column types). */
import type { CopyTarget } from '../statements/copy-in-decoder.ts';
import type { CopyOptions } from '../statements/copy-options.ts';
import { Oid, type SqlType } from '../../common/pgtypes/oids.ts';

export const csvOptions: CopyOptions = {
  format: 'csv', header: false, delimiter: ',', nullString: '', quote: '"', escape: '"', forceQuote: [], forceNotNull: [], forceNull: [],
};
export const textOptions: CopyOptions = { ...csvOptions, format: 'text', delimiter: '\t', nullString: '\\N' };

export const numericType = (p: number, s: number): SqlType => ({ oid: Oid.numeric, typmod: ((p << 16) | s) + 4 });

/** int4, int8, numeric(15,2), date, text, varchar(n), char(7) as columns c0…c6 */
export function typedCopyTarget(varcharLength: number): { types: SqlType[]; target: CopyTarget } {
  const types: SqlType[] = [
    { oid: Oid.int4, typmod: -1 }, { oid: Oid.int8, typmod: -1 }, numericType(15, 2), { oid: Oid.date, typmod: -1 },
    { oid: Oid.text, typmod: -1 }, { oid: Oid.varchar, typmod: varcharLength + 4 }, { oid: Oid.bpchar, typmod: 7 },
  ];
  return { types, target: { table: 't', columns: types.map((type, i) => ({ name: `c${i}`, type })) } };
}
