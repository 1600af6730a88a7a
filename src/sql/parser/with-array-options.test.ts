import { describe, expect, it } from 'vitest';
import { rewriteWithArrayOptions } from './with-array-options.ts';

describe('rewriteWithArrayOptions', () => {
  it('turns ARRAY[...] option values into a same-length JSON string literal', () => {
    const sql = "CREATE TABLE s.t (a int) WITH (format = 'x', partitioning = ARRAY['day(ts)', 'bucket(16, id)', 'it''s'])";
    const out = rewriteWithArrayOptions(sql);
    expect(out.length).toBe(sql.length);
    expect(out).toMatch(/^CREATE TABLE s\.t \(a int\) WITH \(format = 'x', partitioning = '\["day\(ts\)","bucket\(16, id\)","it''s"\]' +\)$/);
  });
  it('leaves other ARRAY uses alone', () => {
    for (const sql of ["SELECT ARRAY['a'] WHERE x = ARRAY[1]", "CREATE INDEX i ON t (a) WITH (fillfactor = 70) WHERE a = ARRAY['x']", "WITH q AS (SELECT 1) SELECT * FROM q WHERE a = ARRAY['x']"]) {
      expect(rewriteWithArrayOptions(sql)).toBe(sql);
    }
  });
});
