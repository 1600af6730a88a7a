import { describe, expect, it } from 'vitest';
import type { IcebergType } from '../spec/schema.ts';
import { partitionFieldsFromOption, partitioningItems } from './partitioning-option.ts';

const t = (name: string): IcebergType => ({ kind: 'primitive', name });
const cols = [
  { id: 1, name: 'id', type: t('long') }, { id: 2, name: 'ts', type: t('timestamptz') },
  { id: 3, name: 'Name', type: t('string') }, { id: 4, name: 'id_bucket', type: t('int') },
];

describe('partitioning option', () => {
  it('splits JSON arrays and comma lists outside parentheses', () => {
    expect(partitioningItems('["day(ts)","bucket(16, id)"]')).toEqual(['day(ts)', 'bucket(16, id)']);
    expect(partitioningItems(' day(ts), bucket(16, id) ,name ')).toEqual(['day(ts)', 'bucket(16, id)', 'name']);
  });
  it('names fields like Iceberg / Trino, ids from 1000', () => {
    expect(partitionFieldsFromOption(['hour(ts)', 'truncate(4, name)', '"Name"', 'void(ID)'], cols)).toEqual([
      { 'source-id': 2, 'field-id': 1000, name: 'ts_hour', transform: 'hour' },
      { 'source-id': 3, 'field-id': 1001, name: 'Name_trunc', transform: 'truncate[4]' },
      { 'source-id': 3, 'field-id': 1002, name: 'Name', transform: 'identity' },
      { 'source-id': 1, 'field-id': 1003, name: 'id_null', transform: 'void' },
    ]);
  });
  it('rejects bad items', () => {
    expect(() => partitionFieldsFromOption(['"name"'], cols)).toThrow(/does not exist/);
    expect(() => partitionFieldsFromOption(['bucket(id)'], cols)).toThrow(/Unable to parse/);
    expect(() => partitionFieldsFromOption(['day(16, ts)'], cols)).toThrow(/Unable to parse/);
    expect(() => partitionFieldsFromOption(['day(ts)', 'day(ts)'], cols)).toThrow(/more than once/);
    expect(() => partitionFieldsFromOption(['bucket(4, id)'], cols)).toThrow(/exists in schema/);
    expect(() => partitionFieldsFromOption(['day(id)'], cols)).toThrow(/Invalid source type/);
  });
});
