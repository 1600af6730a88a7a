/**
 * substring(col, 1, n) compared with constants of n characters reaches the scan as LIKE prefixes (TPC-H Q22's
 * phone country codes); every other shape — another start, constants of another length, a char(n) constant
 * ending in a blank, only NULLs — stays in the Filter.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { initParser } from '../../sql/index.ts';
import { optimizedExplain, strictCatalog } from '../testing/optimizer-fixture.ts';

beforeAll(async () => { await initParser(); });

const RULES = ['simplify_expressions', 'push_filter_below_projection', 'push_down_filter'];
const scanLine = (sql: string, rules = RULES): string =>
  optimizedExplain(strictCatalog(), sql, rules).filter((l) => l.includes('TableScan')).map((l) => l.trim())[0]!;

describe('substring prefixes pushed to the scan', () => {
  it('pushes IN and = of n-character constants on varchar and char(n), as an OR of prefixes', () => {
    expect(scanLine(`SELECT id FROM ev WHERE substring(s from 1 for 2) IN ('13', '31')`)).toBe(`TableScan: public.ev filters=[(s LIKE '13%' OR s LIKE '31%')]`);
    expect(scanLine(`SELECT id FROM ev WHERE substring(c, 1, 2) = 'ab'`)).toBe(`TableScan: public.ev filters=[c LIKE 'ab%']`);
    expect(scanLine(`SELECT id FROM ev WHERE 'ab' = substr(s, 1, 2)`)).toBe(`TableScan: public.ev filters=[s LIKE 'ab%']`);
    // the = ANY form (or_equalities_to_any) and characters, not bytes
    expect(scanLine(`SELECT id FROM ev WHERE substring(s from 1 for 2) = ANY('{é1,日本}')`)).toBe(`TableScan: public.ev filters=[(s LIKE 'é1%' OR s LIKE '日本%')]`);
    // NULL constants never equal: dropped; a varchar keeps its trailing blanks
    expect(scanLine(`SELECT id FROM ev WHERE substring(s from 1 for 2) = ANY('{"a ",NULL}')`)).toBe(`TableScan: public.ev filters=[s LIKE 'a %']`);
  });

  it('keeps every other shape in the Filter', () => {
    const none = 'TableScan: public.ev';
    expect(scanLine(`SELECT id FROM ev WHERE substring(s from 1 for 2) IN ('1', '13')`)).toBe(none);
    expect(scanLine(`SELECT id FROM ev WHERE substring(s from 2 for 2) = '13'`)).toBe(none);
    expect(scanLine(`SELECT id FROM ev WHERE substring(c from 1 for 2) = 'a '`)).toBe(none);
    expect(scanLine(`SELECT id FROM ev WHERE substring(s from 1 for 2) IN (NULL)`)).toBe(none);
    expect(scanLine(`SELECT id FROM ev WHERE substring(s from 1 for 0) = ''`)).toBe(none);
    expect(scanLine(`SELECT id FROM ev WHERE substring(s from 1) = '13'`)).toBe(none);
    expect(scanLine(`SELECT id FROM ev WHERE substring(s || 'x' from 1 for 2) = '13'`)).toBe(none);
  });
});
