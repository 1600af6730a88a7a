/**
 * Foreign keys kept as metadata: CREATE TABLE … REFERENCES through the whole engine, and what pg_constraint,
 * pg_class.relhastriggers, pg_get_constraintdef and information_schema show (PostgreSQL 15's answers for the
 * same DDL, database name aside), plus PostgreSQL's errors for bad references.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineQuery, type EngineQuery } from './testing/engine-query.ts';

let db: EngineQuery;
const query = (sql: string): Promise<string[][]> => db.query(sql);

beforeAll(async () => {
  db = await engineQuery(78, [
    'create schema s',
    'create table s.c (id int primary key, k int)',
    'create table s.o (id int, cid int references s.c, c2 int, constraint my_fk foreign key (c2) references s.c (id))',
    'create table s.nopk (a int)',
  ]);
});
afterAll(async () => {
  await db?.close();
});

describe('foreign keys (metadata)', () => {
  it('pg_constraint rows of contype f with pg_get_constraintdef', async () => {
    expect(await query(`select conname, contype, conrelid::regclass, confrelid::regclass, conkey, confkey, confupdtype, confdeltype, confmatchtype, conindid::regclass, pg_get_constraintdef(oid, true)
      from pg_constraint where connamespace = 's'::regnamespace order by conname`)).toEqual([
      ['c_pkey', 'p', 's.c', '-', '{1}', 'NULL', ' ', ' ', ' ', 's.c_pkey', 'PRIMARY KEY (id)'],
      ['my_fk', 'f', 's.o', 's.c', '{3}', '{1}', 'a', 'a', 's', 's.c_pkey', 'FOREIGN KEY (c2) REFERENCES s.c(id)'],
      ['o_cid_fkey', 'f', 's.o', 's.c', '{2}', '{1}', 'a', 'a', 's', 's.c_pkey', 'FOREIGN KEY (cid) REFERENCES s.c(id)'],
    ]);
    await query('set search_path = s, public');
    expect(await query(`select pg_get_constraintdef(oid) from pg_constraint where conname = 'my_fk'`)).toEqual([['FOREIGN KEY (c2) REFERENCES c(id)']]);
    await query('reset search_path');
  });

  it('both tables have triggers (psql \\d shows the FK sections only then)', async () => {
    expect(await query(`select relname, relhastriggers from pg_class where relnamespace = 's'::regnamespace and relkind = 'r' order by 1`))
      .toEqual([['c', 't'], ['nopk', 'f'], ['o', 't']]);
  });

  it('information_schema', async () => {
    expect(await query(`select constraint_name, unique_constraint_schema, unique_constraint_name, match_option, update_rule, delete_rule
      from information_schema.referential_constraints where constraint_schema = 's' order by constraint_name`)).toEqual([
      ['my_fk', 's', 'c_pkey', 'NONE', 'NO ACTION', 'NO ACTION'],
      ['o_cid_fkey', 's', 'c_pkey', 'NONE', 'NO ACTION', 'NO ACTION'],
    ]);
    expect(await query(`select constraint_name, column_name, ordinal_position, position_in_unique_constraint
      from information_schema.key_column_usage where table_schema = 's' order by 1, 3`)).toEqual([
      ['c_pkey', 'id', '1', 'NULL'], ['my_fk', 'c2', '1', '1'], ['o_cid_fkey', 'cid', '1', '1'],
    ]);
    expect(await query(`select constraint_name, table_name, column_name from information_schema.constraint_column_usage where constraint_schema = 's' order by 1, 3`))
      .toEqual([['c_pkey', 'c', 'id'], ['my_fk', 'c', 'id'], ['o_cid_fkey', 'c', 'id']]);
    expect(await query(`select constraint_name, constraint_type from information_schema.table_constraints where table_schema = 's' and constraint_type <> 'CHECK' order by 1`))
      .toEqual([['c_pkey', 'PRIMARY KEY'], ['my_fk', 'FOREIGN KEY'], ['o_cid_fkey', 'FOREIGN KEY']]);
  });

  it("PostgreSQL's errors for bad references", async () => {
    await expect(query('create table s.bad (x int references s.nope)')).rejects.toMatchObject({ code: '42P01', message: 'relation "s.nope" does not exist' });
    await expect(query('create table s.bad (x int references s.c (nope))')).rejects.toMatchObject({ code: '42703', message: 'column "nope" referenced in foreign key constraint does not exist' });
    await expect(query('create table s.bad (x int, foreign key (y) references s.c)')).rejects.toMatchObject({ code: '42703', message: 'column "y" referenced in foreign key constraint does not exist' });
    await expect(query('create table s.bad (x int references s.nopk)')).rejects.toMatchObject({ code: '42830', message: 'there is no primary key for referenced table "nopk"' });
    await expect(query('create table s.bad (x int, y int, foreign key (x, y) references s.c (id))')).rejects.toMatchObject({ code: '42830', message: 'number of referencing and referenced columns for foreign key disagree' });
  });

  it('unnest(int2vector) binds as anyarray (SQLAlchemy / pandas reflection)', async () => {
    expect(await query(`select unnest('3 1 2'::int2vector), pg_typeof(unnest('5'::int2vector))`)).toEqual([['3', 'smallint'], ['1', 'smallint'], ['2', 'smallint']]);
    expect(await query(`select k.n from pg_index i, unnest(i.indkey) as k(n) where i.indrelid = 's.c'::regclass`)).toEqual([['1']]);
  });
});
