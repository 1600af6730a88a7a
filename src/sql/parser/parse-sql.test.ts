/** Parser wrapper: statement splitting, syntax errors with PostgreSQL's positions, time-travel clauses. */
import { beforeAll, describe, expect, it } from 'vitest';
import { initParser, parseSql } from './parse-sql.ts';

beforeAll(async () => { await initParser(); });

type Node = Record<string, unknown>;

describe('parseSql', () => {
  it('splits statements and keeps each text and location', () => {
    const s = parseSql('select 1; select 2 ;');
    expect(s.map((x) => x.text)).toEqual(['select 1', 'select 2']);
    expect(s[1]!.location).toBe(9);
    expect(Object.keys(s[0]!.ast as Node)).toEqual(['SelectStmt']);
  });

  it('reports 42601 with a 1-based position', () => {
    expect(() => parseSql('select 1 frm t')).toThrow(expect.objectContaining({ code: '42601', message: 'syntax error at or near "t"', position: 14 }));
  });

  it('counts positions in characters, not UTF-8 bytes', () => {
    expect(() => parseSql("select 'é' frm t")).toThrow(expect.objectContaining({ position: 16 }));
    const s = parseSql("select 'é', x");
    const tl = ((s[0]!.ast as Node).SelectStmt as Node).targetList as Node[];
    expect(((tl[1]!.ResTarget as Node).location)).toBe(12);
  });

  it('records FOR SYSTEM_TIME / SYSTEM_VERSION AS OF on the RangeVar', () => {
    const s = parseSql("select * from t FOR SYSTEM_TIME AS OF '2024-01-01 00:00:00' x join u for system_version as of 42 on true");
    const join = (((s[0]!.ast as Node).SelectStmt as Node).fromClause as Node[])[0]!.JoinExpr as Node;
    expect(((join.larg as Node).RangeVar as Node).lakegateAsOf).toBe("'2024-01-01 00:00:00'");
    expect(((join.rarg as Node).RangeVar as Node).lakegateAsOf).toBe('42');
    expect(((join.larg as Node).RangeVar as Node).alias).toEqual({ aliasname: 'x' });
  });

  it('leaves FOR SYSTEM_TIME inside strings alone', () => {
    const s = parseSql("select 'for system_time as of 1' from t");
    expect(s).toHaveLength(1);
  });

  it('returns no statements for an empty string', () => {
    expect(parseSql('  ;')).toEqual([]);
  });
});
