/**
 * lakegate's pg_proc, pg_operator, pg_cast and pg_type against PostgreSQL 15's (pg15-catalog-facts.json, made by
 * generate-pg15-catalog-facts.mjs from a scratch cluster): an object lakegate lists with a built-in OID must be
 * PostgreSQL's object of that OID — same name, argument and result types, comment (obj_description, which psql's
 * \df+ / \do / \dT show) — and one lakegate numbers itself must not be a built-in PostgreSQL has under another OID.
 * Each test lists the differences, so a regression names the object.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineQuery, type EngineQuery } from '../../src/pgcatalog/testing/engine-query.ts';

type Cell = string | number | null;
interface Facts {
  procs: Cell[][]; operators: Cell[][]; casts: Cell[][]; types: Cell[][]; procTexts: Cell[][]; catalogIndexes: Cell[][];
}
const pg = JSON.parse(readFileSync(new URL('./pg15-catalog-facts.json', import.meta.url), 'utf8')) as Facts;
/** PostgreSQL 15's pg_proc details of its built-ins (generate-pg15-proc-details.mjs, the data pg_proc lists them from) */
const pgProcDetails = JSON.parse(readFileSync(new URL('../../src/pgcatalog/data/pg-proc-details.json', import.meta.url), 'utf8')) as unknown[][];

/** FirstNormalObjectId: OIDs below it are initdb's */
const FIRST_NORMAL_OID = 16384;

let db: EngineQuery;
beforeAll(async () => {
  db = await engineQuery(92);
});
afterAll(async () => {
  await db?.close();
});

/** lakegate's rows as PostgreSQL's JSON cells: numbers for OID columns, null for NULL */
async function rows(sql: string, numeric: readonly number[]): Promise<Cell[][]> {
  return (await db.query(sql)).map((r) => r.map((v, i) => (v === 'NULL' ? null : numeric.includes(i) ? Number(v) : v)));
}

const byOid = (list: Cell[][]): Map<number, Cell[]> => new Map(list.map((r) => [r[0] as number, r]));

/** rows lakegate lists under a built-in OID that differ from PostgreSQL's row of that OID */
function builtinMismatches(ours: Cell[][], theirs: Cell[][]): string[] {
  const pgRows = byOid(theirs);
  return ours.filter((r) => (r[0] as number) < FIRST_NORMAL_OID && JSON.stringify(r) !== JSON.stringify(pgRows.get(r[0] as number)))
    .map((r) => `lakegate ${JSON.stringify(r)} / PostgreSQL ${JSON.stringify(pgRows.get(r[0] as number) ?? null)}`);
}

describe('built-in objects have PostgreSQL 15 OIDs and facts', () => {
  it('pg_proc: OID, name, argument and result types, comment', async () => {
    const ours = await rows(`select oid, proname, proargtypes::text, prorettype, obj_description(oid, 'pg_proc')
      from pg_proc order by oid`, [0, 3]);
    expect(builtinMismatches(ours, pg.procs)).toEqual([]);
    // a function PostgreSQL has must carry its OID (age(timestamp) was 2060, PostgreSQL's is 2059)
    const pgBySignature = new Map(pg.procs.map((r) => [`${r[1] as string}(${r[2] as string})`, r[0]]));
    const renumbered = ours.filter((r) => (r[0] as number) >= FIRST_NORMAL_OID && pgBySignature.has(`${r[1] as string}(${r[2] as string})`))
      .map((r) => `${r[1] as string}(${r[2] as string}) is ${r[0] as number}, PostgreSQL's ${pgBySignature.get(`${r[1] as string}(${r[2] as string})`) as number}`);
    expect(renumbered).toEqual([]);
  });

  it('pg_operator: OID, name, operand and result types, function, comment', async () => {
    const ours = await rows(`select oid, oprname, oprleft, oprright, oprresult, oprcode::oid, obj_description(oid, 'pg_operator')
      from pg_operator order by oid`, [0, 2, 3, 4, 5]);
    expect(builtinMismatches(ours, pg.operators)).toEqual([]);
  });

  it('pg_cast: between built-in types, only the casts PostgreSQL lists, with its OID, function, context and method', async () => {
    const ours = await rows(`select castsource, casttarget, oid, castfunc, castcontext, castmethod from pg_cast
      where castsource < 16384 and casttarget < 16384 order by 1, 2`, [0, 1, 2, 3]);
    const pgRows = new Map(pg.casts.map((r) => [`${r[0] as number}:${r[1] as number}`, r]));
    const differing = ours.filter((r) => JSON.stringify(r) !== JSON.stringify(pgRows.get(`${r[0] as number}:${r[1] as number}`)))
      .map((r) => `lakegate ${JSON.stringify(r)} / PostgreSQL ${JSON.stringify(pgRows.get(`${r[0] as number}:${r[1] as number}`) ?? null)}`);
    expect(differing).toEqual([]);
  });

  it("pg_type: name, array type (catalog row types' too), element, relation, comment", async () => {
    const ours = await rows(`select oid, typname, typarray, typelem, typrelid, typarray::regtype::text, obj_description(oid, 'pg_type')
      from pg_type order by oid`, [0, 2, 3, 4]);
    expect(builtinMismatches(ours, pg.types)).toEqual([]);
    // every catalog table and view has its row type's array, as initdb creates them
    const rowTypes = ours.filter((r) => (r[0] as number) < FIRST_NORMAL_OID && (r[4] as number) !== 0);
    expect(rowTypes.length).toBeGreaterThan(150);
    expect(rowTypes.filter((r) => r[2] === 0)).toEqual([]);
  });
});

describe('built-in functions are described as PostgreSQL 15 describes them', () => {
  it('pg_proc: language, source, volatility, strictness, parallel safety, cost, argument names, modes and defaults', async () => {
    // age(timestamptz, timestamptz) is immutable in PostgreSQL; int4pl's source is its C symbol; make_interval's
    // arguments have names and defaults
    const ours = (await db.query(`select oid, prolang, prosrc, provolatile, proisstrict, proparallel, procost, prorows,
        prosupport::oid, prosecdef, proleakproof, prokind, proretset, pronargdefaults, to_json(proargnames),
        to_json(proargmodes), to_json(proallargtypes), pg_get_expr(proargdefaults, 0)
      from pg_proc where oid < 16384 order by oid`)).map((r) => r.map((v) => (v === 'NULL' ? null : v)));
    expect(ours.length).toBeGreaterThan(1500);
    const theirs = new Map(pgProcDetails.map((r) => [r[0] as number, r]));
    const text = (v: unknown): string | null => (v === null ? null : typeof v === 'boolean' ? (v ? 't' : 'f') : typeof v === 'object' ? JSON.stringify(v) : String(v));
    const differing = ours.filter((r) => {
      const p = theirs.get(Number(r[0]));
      return p === undefined || JSON.stringify(r) !== JSON.stringify(p.slice(0, 18).map(text));
    }).map((r) => `lakegate ${JSON.stringify(r)} / PostgreSQL ${JSON.stringify(theirs.get(Number(r[0]))?.slice(0, 18).map(text) ?? null)}`);
    expect(differing).toEqual([]);
  });

  it('pg_get_function_arguments / _identity_arguments / _result print as PostgreSQL prints them', async () => {
    const ours = await rows(`select oid, pg_get_function_arguments(oid),
      nullif(pg_get_function_identity_arguments(oid), pg_get_function_arguments(oid)), pg_get_function_result(oid)
      from pg_proc where oid < 16384 order by oid`, [0]);
    expect(ours.length).toBeGreaterThan(1500);
    // the I/O and handler functions of types lakegate has no values of (point, lseg, table_am_handler,
    // language_handler …) name them as PostgreSQL does: pg_type lists them (other-types.ts), none prints `???`
    expect(ours.filter((r) => r.slice(1).some((v) => typeof v === 'string' && v.includes('???')))).toEqual([]);
    expect(builtinMismatches(ours, pg.procTexts)).toEqual([]);
  });
});

describe("PostgreSQL's indexes on its catalog tables", () => {
  it('pg_index / pg_constraint / pg_get_indexdef / pg_get_constraintdef list every one as PostgreSQL does', async () => {
    const ours = await rows(`select i.indexrelid, i.indrelid, pg_get_indexdef(i.indexrelid),
      con.oid, con.contype, pg_get_constraintdef(con.oid)
      from pg_index i join pg_class c on c.oid = i.indrelid
      left join pg_constraint con on con.conindid = i.indexrelid and con.contype in ('p', 'u')
      where c.relnamespace = 'pg_catalog'::regnamespace and c.relkind = 'r' order by 1`, [0, 1, 3]);
    // only the catalog tables lakegate emulates (all of PostgreSQL 15's) have them
    expect(ours).toEqual(pg.catalogIndexes);
  });
});
