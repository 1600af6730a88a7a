import { describe, expect, it } from 'vitest';
import { Oid } from '../../common/pgtypes/oids.ts';
import { newTableMetadata } from '../write/new-table-metadata.ts';
import { applySchemaChanges, isEmptyTable, type SchemaChange } from './schema-update.ts';

type Doc = Record<string, unknown>;
const t = (oid: number, typmod = -1) => ({ oid, typmod });
const numeric = (p: number, s: number) => t(Oid.numeric, ((p << 16) | s) + 4);

function table(withData: boolean): Doc {
  const doc = newTableMetadata('file:///w/t', [
    { name: 'id', type: t(Oid.int4), nullable: false },
    { name: 'n', type: t(Oid.int4), nullable: true },
    { name: 'f', type: t(Oid.float4), nullable: true },
    { name: 'd', type: numeric(5, 2), nullable: true },
    { name: 's', type: t(Oid.text), nullable: true },
    { name: 'v', type: t(Oid.varchar, 9), nullable: true },
  ], [0]);
  if (!withData) return doc;
  return { ...doc, 'current-snapshot-id': 7, snapshots: [{ 'snapshot-id': 7, summary: { operation: 'append', 'total-records': '3' } }] };
}
const current = (doc: Doc): Doc => (doc['schemas'] as Doc[]).find((s) => s['schema-id'] === doc['current-schema-id'])!;
const apply = (doc: Doc, ...changes: SchemaChange[]): Doc => applySchemaChanges('t', changes)(doc);
const fieldsOf = (doc: Doc) => (current(doc)['fields'] as Doc[]).map((f) => [f['id'], f['name'], f['type'], f['required']]);

describe('applySchemaChanges', () => {
  it('adds a schema per statement with new field ids (list element ids after them)', () => {
    const doc = apply(table(true), { kind: 'add', name: 'x', type: t(Oid.int8), notNull: false, ifNotExists: false }, { kind: 'add', name: 'tags', type: t(Oid._text), notNull: false, ifNotExists: false });
    expect(doc['current-schema-id']).toBe(1);
    expect(doc['last-column-id']).toBe(9);
    expect(fieldsOf(doc).slice(6)).toEqual([[7, 'x', 'long', false], [8, 'tags', { type: 'list', 'element-id': 9, element: 'string', 'element-required': false }, false]]);
    expect(current(doc)['identifier-field-ids']).toEqual([1]);
    expect((doc['schemas'] as Doc[]).length).toBe(2);
  });

  it('promotes int→long, float→double, decimal precision; refuses the rest', () => {
    const doc = apply(table(true), { kind: 'type', name: 'n', type: t(Oid.int8) }, { kind: 'type', name: 'f', type: t(Oid.float8) }, { kind: 'type', name: 'd', type: numeric(10, 2) }, { kind: 'type', name: 'v', type: t(Oid.text) });
    expect(fieldsOf(doc).slice(1, 4).map((f) => f[2])).toEqual(['long', 'double', 'decimal(10, 2)']);
    expect((doc['properties'] as Record<string, string>)['lakegate.column-type.6']).toBeUndefined();
    for (const [name, type] of [['n', t(Oid.int2)], ['d', numeric(10, 3)], ['d', numeric(4, 2)], ['s', t(Oid.int4)], ['s', t(Oid.varchar, 9)], ['v', t(Oid.varchar, 5)]] as const) {
      expect(() => apply(table(true), { kind: 'type', name, type })).toThrow(expect.objectContaining({ code: '0A000' }));
    }
    expect(fieldsOf(apply(table(true), { kind: 'type', name: 'v', type: t(Oid.varchar, 20) }))[5]![2]).toBe('string');
  });

  it('NOT NULL and DEFAULT only on an empty table', () => {
    expect(isEmptyTable(table(false))).toBe(true);
    expect(isEmptyTable(table(true))).toBe(false);
    expect(() => apply(table(true), { kind: 'add', name: 'x', type: t(Oid.int4), notNull: true, ifNotExists: false })).toThrow(expect.objectContaining({ code: '23502' }));
    expect(() => apply(table(true), { kind: 'add', name: 'x', type: t(Oid.int4), notNull: false, ifNotExists: false, defaultExpr: '1' })).toThrow(expect.objectContaining({ code: '0A000' }));
    expect(() => apply(table(true), { kind: 'nullability', name: 's', notNull: true })).toThrow(expect.objectContaining({ code: '0A000' }));
    const doc = apply(table(false), { kind: 'add', name: 'x', type: t(Oid.int4), notNull: true, ifNotExists: false, defaultExpr: '1' }, { kind: 'nullability', name: 's', notNull: true });
    expect(fieldsOf(doc)[4]![3]).toBe(true);
    expect((doc['properties'] as Record<string, string>)['lakegate.column-default.7']).toBe('1');
  });

  it('drops and renames; refuses identifier and partition source columns', () => {
    const doc = apply(table(true), { kind: 'drop', name: 's', ifExists: false, cascade: false }, { kind: 'rename', from: 'v', to: 's' });
    expect(fieldsOf(doc).map((f) => f[1])).toEqual(['id', 'n', 'f', 'd', 's']);
    expect(fieldsOf(doc)[4]![0]).toBe(6);
    expect(() => apply(table(true), { kind: 'drop', name: 'id', ifExists: false, cascade: false })).toThrow(expect.objectContaining({ code: '2BP01' }));
    expect(current(apply(table(true), { kind: 'drop', name: 'id', ifExists: false, cascade: true }))['identifier-field-ids']).toBeUndefined();
    const partitioned = { ...table(true), 'partition-specs': [{ 'spec-id': 0, fields: [{ 'source-id': 2, 'field-id': 1000, name: 'n', transform: 'identity' }] }] };
    expect(() => apply(partitioned, { kind: 'drop', name: 'n', ifExists: false, cascade: false })).toThrow(expect.objectContaining({ code: '42P16' }));
    const notices: string[] = [];
    const same = applySchemaChanges('t', [{ kind: 'drop', name: 'zz', ifExists: true, cascade: false }], notices)(table(true));
    expect(same['current-schema-id']).toBe(0);
    expect(notices).toEqual(['column "zz" of relation "t" does not exist, skipping']);
  });
});

describe('rename keeps stored index and foreign-key columns', () => {
  it('rewrites lakegate.indexes / lakegate.foreign-keys by name', () => {
    const base = table(true);
    const doc = { ...base, properties: { ...(base['properties'] as Record<string, string>), 'lakegate.indexes': JSON.stringify([{ name: 'ix', columns: ['n', 's'], unique: false }]) } };
    const out = apply(doc, { kind: 'rename', from: 'n', to: 'm' });
    expect(JSON.parse((out['properties'] as Record<string, string>)['lakegate.indexes']!)).toEqual([{ name: 'ix', columns: ['m', 's'], unique: false }]);
  });
});
