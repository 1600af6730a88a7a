/**
 * EXPLAIN [ANALYZE] [VERBOSE] [(FORMAT TEXT|JSON)] query: the logical plan as text lines ("QUERY PLAN").
 * ANALYZE runs the query and adds the row count and time.
 */
import { batchOf } from '../../common/batch.ts';
import { notSupported } from '../../common/errors.ts';
import { explainPlan } from '../../sql/index.ts';
import { executePlan } from '../../exec/index.ts';
import type { UtilityHandler } from './route-utility.ts';
import { textColumn } from '../engine-session.ts';
import { constText, nodeBody } from '../ast.ts';

export const runExplain: UtilityHandler = async (session, stmt, params) => {
  const body = nodeBody(stmt.ast);
  let analyze = false;
  let format = 'text';
  for (const opt of Array.isArray(body.options) ? body.options : []) {
    const def = nodeBody(opt);
    const name = String(def.defname ?? '');
    const value = def.arg === undefined ? 'true' : (constText(def.arg) ?? 'true').toLowerCase();
    if (name === 'analyze') analyze = value !== 'false' && value !== 'off';
    else if (name === 'format') format = value;
  }
  if (format !== 'text' && format !== 'json') throw notSupported(`EXPLAIN (FORMAT ${format.toUpperCase()})`);
  const bound = session.bind(body.query, params.map(() => 0));
  const lines = [...explainPlan(bound.plan)];
  if (analyze) {
    const start = performance.now();
    let rows = 0;
    for await (const batch of executePlan(bound.plan, session.execContext(params))) rows += batch.length;
    lines.push(`Rows: ${rows}`);
    lines.push(`Execution Time: ${(performance.now() - start).toFixed(3)} ms`);
  }
  const out = format === 'json' ? [JSON.stringify([{ Plan: lines }], null, 2)] : lines;
  async function* one() {
    yield batchOf([out], out.length);
  }
  return { kind: 'rows', columns: [textColumn('QUERY PLAN')], batches: one(), tag: () => 'EXPLAIN' };
};
