/**
 * Which constants the literal-normalised plan cache lifts into parameters, and which it must leave alone
 * because a parameter would bind differently (select lists, GROUP BY / ORDER BY, casts, IN lists, functions).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { initParser, parseSql } from '../sql/index.ts';
import { Oid } from '../common/pgtypes/oids.ts';
import { normaliseLiterals } from './literal-params.ts';

beforeAll(async () => {
  await initParser();
});

const norm = (sql: string) => normaliseLiterals(parseSql(sql)[0]!.ast);

describe('normaliseLiterals', () => {
  it('lifts column-vs-constant comparisons in WHERE and JOIN ON, typing numbers as PostgreSQL types literals', () => {
    const n = norm("SELECT v FROM t JOIN u ON u.id = t.id AND u.k > 3000000000 WHERE t.a = 5 AND 'x' <> t.b AND t.c <= 1.5");
    // each with where it starts in the text (statement-shapes.ts matches it to a token)
    const sql = "SELECT v FROM t JOIN u ON u.id = t.id AND u.k > 3000000000 WHERE t.a = 5 AND 'x' <> t.b AND t.c <= 1.5";
    expect(n?.literals).toEqual([
      { text: '3000000000', oid: Oid.int8, location: sql.indexOf('3000000000') },
      { text: '5', oid: Oid.int4, location: sql.indexOf('5 AND') },
      { text: 'x', oid: 0, location: sql.indexOf("'x'") },
      { text: '1.5', oid: Oid.numeric, location: sql.indexOf('1.5') },
    ]);
  });

  it('gives statements that differ only in those constants the same key, and others a different one', () => {
    const a = norm('SELECT v FROM t WHERE id = 1');
    expect(norm('SELECT v FROM t WHERE id = 123456')?.key).toBe(a?.key);
    expect(norm("SELECT v FROM t WHERE id = '1'")?.key).toBe(a?.key); // types are keyed separately by the caller
    expect(norm('SELECT v FROM t WHERE id > 1')?.key).not.toBe(a?.key);
    expect(norm('SELECT w FROM t WHERE id = 1')?.key).not.toBe(a?.key);
  });

  it('leaves select lists, GROUP BY, ORDER BY, HAVING, LIMIT, casts, IN lists, functions, NULL and booleans alone', () => {
    expect(norm('SELECT a = 1 FROM t GROUP BY a = 1 ORDER BY 1 LIMIT 5')).toBeNull();
    expect(norm('SELECT a FROM t GROUP BY a HAVING count(*) > 2')).toBeNull();
    expect(norm("SELECT a FROM t WHERE d = DATE '2024-01-01' AND e = '1'::int AND f IN (1, 2) AND lower(g) = 'x'")).toBeNull();
    expect(norm('SELECT a FROM t WHERE b = NULL OR c = true')).toBeNull();
    expect(norm('SELECT 1')).toBeNull();
  });

  it('reaches WHERE clauses of subqueries, CTEs, set operations and derived tables, without touching the parse tree', () => {
    const stmt = parseSql('WITH w AS (SELECT * FROM t WHERE a = 1) SELECT * FROM (SELECT * FROM w WHERE b = 2) s WHERE s.c IN (SELECT c FROM u WHERE d = 3) UNION ALL SELECT * FROM t WHERE e = 4')[0]!;
    const before = JSON.stringify(stmt.ast);
    const n = normaliseLiterals(stmt.ast);
    expect(n?.literals.map((l) => l.text).sort()).toEqual(['1', '2', '3', '4']);
    expect(JSON.stringify(stmt.ast)).toBe(before);
    expect(JSON.stringify(n?.ast)).toContain('"ParamRef":{"number":4');
  });
});
