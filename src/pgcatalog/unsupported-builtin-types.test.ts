/**
 * The binder's list of PostgreSQL built-in types without values (common/pgtypes/unknown-type-error.ts) is a copy:
 * src/sql may not read pgcatalog's data. This keeps it equal to pg_type's rows that the type registry lacks.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { typeByName } from '../common/pgtypes/registry.ts';
import { UNSUPPORTED_BUILTINS, unknownTypeError } from '../common/pgtypes/unknown-type-error.ts';
import { NamespaceOid } from './well-known-oids.ts';

type Row = readonly [oid: number, typname: string, typnamespace: number, typlen: number, typbyval: boolean, typtype: string];

describe('UNSUPPORTED_BUILTINS', () => {
  it("is exactly pg_catalog's base and multirange types the registry lacks", () => {
    const json = JSON.parse(readFileSync(new URL('./data/pg-other-types.json', import.meta.url), 'utf8')) as { types: Row[] };
    const lacking = json.types
      .filter(([, name, ns, , , typtype]) => ns === NamespaceOid.pg_catalog && ['b', 'r', 'm'].includes(typtype) && !name.startsWith('_') && typeByName(name) === undefined)
      .map(([, name]) => name);
    expect(lacking.length).toBeGreaterThan(20);
    expect([...UNSUPPORTED_BUILTINS].sort()).toEqual([...lacking].sort());
  });

  it('names such a type with 0A000, any other unknown name with 42704', () => {
    expect(unknownTypeError(['pg_catalog', 'point'], 5)).toMatchObject({ code: '0A000', message: 'type "point" is not supported', position: 5 });
    expect(unknownTypeError(['tsvector[]'], undefined)).toMatchObject({ code: '0A000' });
    expect(unknownTypeError(['nope'], undefined)).toMatchObject({ code: '42704', message: 'type "nope" does not exist' });
  });
});
