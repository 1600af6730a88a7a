/** The data of the end-to-end tests (the same rows were loaded into PostgreSQL to produce e2e-expected.ts). */
import { Oid, sqlType } from '../../common/pgtypes/oids.ts';
import { MemoryCatalog, MemoryTable } from '../../sql/testing/memory-catalog.ts';

const i4 = sqlType(Oid.int4);
const i8 = sqlType(Oid.int8);
const tx = sqlType(Oid.text);

export function e2eCatalog(): MemoryCatalog {
  const cat = new MemoryCatalog();
  cat.addRelation({ schema: 'public', name: 't', source: new MemoryTable([{ name: 'a', type: i4, nullable: true }, { name: 'b', type: tx, nullable: true }], [[1, 'x'], [2, 'y'], [3, null], [null, 'z']]) });
  cat.addRelation({ schema: 'public', name: 'u', source: new MemoryTable([{ name: 'a', type: i4, nullable: true }, { name: 'c', type: tx, nullable: true }], [[1, 'one'], [2, 'two'], [2, 'deux'], [5, 'five']]) });
  cat.addRelation({
    schema: 'public', name: 'emp',
    source: new MemoryTable(
      [{ name: 'id', type: i4, nullable: false }, { name: 'name', type: tx, nullable: true }, { name: 'dept', type: tx, nullable: true }, { name: 'salary', type: i8, nullable: true }, { name: 'mgr', type: i4, nullable: true }],
      [[1, 'ann', 'eng', 100n, null], [2, 'bob', 'eng', 80n, 1], [3, 'cid', 'ops', 80n, 1], [4, 'dan', 'ops', 60n, 3], [5, 'eve', 'eng', 80n, 2], [6, 'fay', null, 50n, null]],
    ),
  });
  return cat;
}
