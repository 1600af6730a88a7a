/** A long constant `= ANY(array)` is one set probe per row, with ANY's answers (NULLs included). */
import { beforeAll, describe, expect, it } from 'vitest';
import { initParser, type Expr, type LogicalPlan } from '../sql/index.ts';
import { compileExpr } from './expr/compile-expr.ts';
import { hashedAnyEq } from './in-list-set.ts';
import { allPlanNodes } from './optimizer/plan-rewrite.ts';
import { constantEnv } from './optimizer/simplify-expressions.ts';
import { bindPlan, strictCatalog, testContext } from './testing/optimizer-fixture.ts';
import { optimizePlan } from './optimizer/optimizer.ts';

beforeAll(async () => { await initParser(); });

const cat = strictCatalog();
/** the (folded) WHERE of `SELECT … FROM emp WHERE <cond>` */
function predicate(cond: string): Expr {
  const plan = optimizePlan(bindPlan(cat, `SELECT id FROM emp WHERE ${cond}`), testContext(cat), new Set(['push_down_filter'])).plan;
  return allPlanNodes(plan).find((n): n is Extract<LogicalPlan, { kind: 'Filter' }> => n.kind === 'Filter')!.predicate;
}
const list = (n: number, extra = ''): string => `ARRAY[${Array.from({ length: n }, (_, i) => i * 10).join(',')}${extra}]`;

describe('hashedAnyEq', () => {
  it('takes long constant lists only', () => {
    const env = constantEnv(testContext(cat));
    const c = (x: Expr) => compileExpr(x, env).fn;
    expect(hashedAnyEq(predicate(`id = ANY(${list(20)})`), c)).not.toBeNull();
    expect(hashedAnyEq(predicate(`id = ANY(${list(5)})`), c)).toBeNull();
    expect(hashedAnyEq(predicate(`id <> ALL(${list(20)})`), c)).toBeNull();
    expect(hashedAnyEq(predicate(`id < ANY(${list(20)})`), c)).toBeNull();
  });

  it('answers as the element loop does: hit, miss, NULL element, NULL input, int4 against int8', () => {
    const env = constantEnv(testContext(cat));
    const c = (x: Expr) => compileExpr(x, env).fn;
    const f = hashedAnyEq(predicate(`id = ANY(${list(20)})`), c)!;
    const g = hashedAnyEq(predicate(`id = ANY(${list(20, ',NULL')})`), c)!;
    const h = hashedAnyEq(predicate(`salary = ANY(${list(20)}::int4[])`), c)!;
    expect([f([[30]], 0), f([[31]], 0), f([[null]], 0)]).toEqual([true, false, null]);
    expect([g([[30]], 0), g([[31]], 0), g([[null]], 0)]).toEqual([true, null, null]);
    // emp.salary is int8 (column 3)
    expect([h([[0], [0], [0], [190n]], 0), h([[0], [0], [0], [191n]], 0)]).toEqual([true, false]);
  });
});
