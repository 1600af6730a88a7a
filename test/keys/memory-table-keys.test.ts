/**
 * memory-table-keys.ts on its own: keys are compared as PostgreSQL's `=` of the column type (numeric by value,
 * char(n) without trailing blanks, -0 = 0), NULLs never conflict, the first refused new row is reported with its
 * position (violating-row.ts, for COPY's line), and the kept rows' key sets are reused and extended.
 */
import { describe, expect, it } from 'vitest';
import type { RelationInfo } from '../../src/catalog/catalog-view.ts';
import type { ColumnDef } from '../../src/catalog/table-source.ts';
import type { Batch } from '../../src/common/batch.ts';
import { Numeric } from '../../src/common/pgtypes/numeric.ts';
import { Oid } from '../../src/common/pgtypes/oids.ts';
import { checkMemoryKeys, relationKeys } from '../../src/engine/memory-table-keys.ts';
import { violatingRow } from '../../src/iceberg/keys/violating-row.ts';

const columns: ColumnDef[] = [
  { name: 'id', type: { oid: Oid.int4, typmod: -1 }, nullable: false },
  { name: 'n', type: { oid: Oid.numeric, typmod: -1 }, nullable: true },
  { name: 'c', type: { oid: Oid.bpchar, typmod: 9 }, nullable: true },
];
const rel = { oid: 1, schema: 'public', name: 't', primaryKey: [0], indexes: [{ oid: 2, name: 't_n_key', columns: [1], unique: true, constraint: true }, { oid: 3, name: 't_c', columns: [2], unique: true }, { oid: 4, name: 't_plain', columns: [2], unique: false }] } as unknown as RelationInfo;
const batch = (rows: unknown[][]): Batch => ({ length: rows.length, columns: columns.map((_c, k) => rows.map((r) => r[k] ?? null)) });
const refused = (f: () => unknown): { code?: string; message: string; detail?: string; row: number | undefined } => {
  try {
    f();
  } catch (e) {
    return { ...(e as { code?: string; message: string; detail?: string }), message: (e as Error).message, row: violatingRow(e) };
  }
  throw new Error('expected 23505');
};

describe('memory table keys', () => {
  it('lists the primary key first, then unique indexes (not plain ones)', () => {
    expect(relationKeys(rel).map((k) => k.name)).toEqual(['t_pkey', 't_n_key', 't_c']);
  });

  it('compares numeric by value, char(n) without trailing blanks, -0 as 0', () => {
    const kept = [batch([[1, Numeric.parse('1.0'), 'a  '], [-0, null, null]])];
    expect(refused(() => checkMemoryKeys(rel, columns, kept, [batch([[2, Numeric.parse('1.00'), 'b']])])))
      .toMatchObject({ code: '23505', message: 'duplicate key value violates unique constraint "t_n_key"', detail: 'Key (n)=(1.00) already exists.', row: 0 });
    expect(refused(() => checkMemoryKeys(rel, columns, kept, [batch([[2, null, 'x'], [3, null, 'a']])])))
      .toMatchObject({ message: 'duplicate key value violates unique constraint "t_c"', row: 1 });
    expect(refused(() => checkMemoryKeys(rel, columns, kept, [batch([[5, null, null]]), batch([[0, null, null]])])))
      .toMatchObject({ message: 'duplicate key value violates unique constraint "t_pkey"', detail: 'Key (id)=(0) already exists.', row: 1 });
  });

  it('NULLs never conflict; key sets of the kept rows are reused and extended', () => {
    const kept = [batch([[1, null, null]])];
    const sets = checkMemoryKeys(rel, columns, kept, [batch([[2, null, null], [3, null, null]])]);
    const next = [...kept, batch([[2, null, null], [3, null, null]])];
    // the reused sets already hold 2 and 3: a new 3 is refused without reading `next` again
    expect(refused(() => checkMemoryKeys(rel, columns, [], [batch([[3, null, null]])], sets))).toMatchObject({ detail: 'Key (id)=(3) already exists.' });
    expect(() => checkMemoryKeys(rel, columns, next, [batch([[4, null, null]])])).not.toThrow();
  });
});
