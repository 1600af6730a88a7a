/**
 * Binding char(n) predicates: for pruning (the default) only `=` / IN bind, as the range of their blank-padded
 * equals; the rest stay TRUE; with the `rows` option `=`, `<>`, IN and LIKE prefixes bind as `padded` predicates with their
 * constants' trailing blanks dropped, which the JS row test (parallel/row-filter.ts) then judges with
 * PostgreSQL's bpchar rule: trailing blanks of the stored value are insignificant too.
 */
import { describe, expect, it } from 'vitest';
import type { ScanPredicate } from '../../catalog/table-source.ts';
import type { PrimitiveType } from '../spec/schema.ts';
import { compileRowTest } from '../parallel/row-filter.ts';
import { bindPredicates, type BindColumn } from './bound-predicate.ts';

const STRING: PrimitiveType = { kind: 'primitive', name: 'string' };
const columns: BindColumn[] = [
  { field: { id: 1, name: 'c', required: false, type: STRING }, comparable: false, padded: true },
  { field: { id: 2, name: 't', required: false, type: STRING }, comparable: true },
];

describe('char(n) predicates', () => {
  it('prune = / IN by the range of blank-padded equals, and bind for row filters without trailing blanks', () => {
    const eq: ScanPredicate = { kind: 'compare', op: '=', column: 0, value: 'AIR       ' };
    // 'AIR', 'AIR ', 'AIR  ', … all lie in ['AIR', 'AIR!'): space is the character before '!'
    expect(bindPredicates([eq], columns)).toEqual({ kind: 'and', args: [
      { kind: 'compare', op: '>=', fieldId: 1, type: STRING, value: 'AIR' },
      { kind: 'compare', op: '<', fieldId: 1, type: STRING, value: 'AIR!' },
    ] });
    // order under a collation and LIKE prefixes stay out of pruning
    expect(bindPredicates([{ kind: 'compare', op: '<', column: 0, value: 'B' }], columns)).toEqual({ kind: 'true' });
    expect(bindPredicates([{ kind: 'startsWith', column: 0, prefix: 'AI' }], columns)).toEqual({ kind: 'true' });
    expect(bindPredicates([eq], columns, { rows: true })).toEqual({ kind: 'compare', op: '=', fieldId: 1, type: STRING, value: 'AIR', padded: true });
    expect(bindPredicates([{ kind: 'in', column: 0, values: ['A  ', null, 'B'] }], columns, { rows: true }))
      .toEqual({ kind: 'in', fieldId: 1, type: STRING, values: ['A', 'B'], padded: true });
    expect(bindPredicates([{ kind: 'in', column: 0, values: [null] }], columns, { rows: true })).toEqual({ kind: 'false' });
    expect(bindPredicates([{ kind: 'compare', op: '=', column: 0, value: null }], columns, { rows: true })).toEqual({ kind: 'false' });
    // order under a collation, and a prefix of blanks only: not judged
    expect(bindPredicates([{ kind: 'compare', op: '<', column: 0, value: 'B' }], columns, { rows: true })).toEqual({ kind: 'true' });
    expect(bindPredicates([{ kind: 'startsWith', column: 0, prefix: '  ' }], columns, { rows: true })).toEqual({ kind: 'true' });
    // text keeps its trailing blanks
    expect(bindPredicates([{ kind: 'compare', op: '=', column: 1, value: 'a ' }], columns, { rows: true }))
      .toEqual({ kind: 'compare', op: '=', fieldId: 2, type: STRING, value: 'a ' });
  });

  it('judge stored values with or without their padding as PostgreSQL compares bpchar', () => {
    const stored = ['AIR       ', 'AIR', 'AIR ', ' AIR', 'AIRBUS', '', '   ', null];
    const keep = (filters: ScanPredicate[]): string[] => {
      const test = compileRowTest(bindPredicates(filters, columns, { rows: true }), new Map([[1, 0]]))!;
      return stored.flatMap((v, r) => (test([stored], r) ? [JSON.stringify(v)] : []));
    };
    expect(keep([{ kind: 'compare', op: '=', column: 0, value: 'AIR' }])).toEqual(['"AIR       "', '"AIR"', '"AIR "']);
    expect(keep([{ kind: 'compare', op: '<>', column: 0, value: 'AIR   ' }])).toEqual(['" AIR"', '"AIRBUS"', '""', '"   "']);
    expect(keep([{ kind: 'compare', op: '=', column: 0, value: '' }])).toEqual(['""', '"   "']);
    expect(keep([{ kind: 'in', column: 0, values: ['AIRBUS ', ' AIR'] }])).toEqual(['" AIR"', '"AIRBUS"']);
    // LIKE 'AIR %': a stored 'AIR' is 'AIR' + blanks in char(n), so it may match (kept; WHERE decides)
    expect(keep([{ kind: 'startsWith', column: 0, prefix: 'AIR ' }])).toEqual(['"AIR       "', '"AIR"', '"AIR "', '"AIRBUS"']);
  });
});
