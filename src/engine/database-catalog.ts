/**
 * DatabaseCatalog: the user schemas and relations of one database, shared by all its sessions,
 * with OIDs that stay stable for the life of the server. Sessions see it through SessionCatalog,
 * which adds the system relations and the session's own temp schema.
 */
import { pgError } from '../common/errors.ts';
import { SqlState } from '../common/sqlstate.ts';
import type { RelationInfo, SchemaInfo } from '../catalog/catalog-view.ts';
import { StableOids } from './stable-oids.ts';
import { MemorySequenceStore } from '../catalog/sequences/memory-sequence-store.ts';

/** First OID for user objects, as in PostgreSQL (FirstNormalObjectId). */
export const FIRST_USER_OID = 16384;

export class OidAllocator {
  private next = FIRST_USER_OID;
  alloc(): number {
    return this.next++;
  }
}

export class DatabaseCatalog {
  private readonly schemasByName = new Map<string, SchemaInfo>();
  private readonly relationsByKey = new Map<string, RelationInfo>();
  /** identity-derived OIDs of schemas and Iceberg objects, the same in every process (stable-oids.ts) */
  /**
   * Set when several processes serve the warehouse: a relation added here (a table or view held in memory,
   * not an Iceberg table) would exist in one process only, so it is refused. Temp tables are per session
   * and stay allowed.
   */
  localRelationsRefused = false;
  /** sequences of the memory schemas (`public`): in this process only, like memory tables */
  readonly sequences = new MemorySequenceStore();
  readonly stableOids = new StableOids((identity, holder) => process.stderr.write(`lakegate: OID slot of ${identity} is held by ${holder}; probing\n`));

  constructor(
    readonly name: string,
    readonly oid: number,
    private readonly oids: OidAllocator,
    owner: string,
  ) {
    this.schemasByName.set('public', { oid: 2200, name: 'public', owner, comment: 'standard public schema' });
  }

  allocOid(): number {
    return this.oids.alloc();
  }

  schemas(): SchemaInfo[] {
    return [...this.schemasByName.values()];
  }

  schema(name: string): SchemaInfo | undefined {
    return this.schemasByName.get(name);
  }

  createSchema(name: string, owner: string, ifNotExists: boolean): SchemaInfo | undefined {
    if (this.schemasByName.has(name)) {
      if (ifNotExists) return undefined;
      throw pgError(SqlState.duplicate_schema, `schema "${name}" already exists`);
    }
    // a schema is an Iceberg namespace whenever a warehouse is served: its OID comes from its name
    const info: SchemaInfo = { oid: this.stableOids.assign(namespaceIdentity(name)), name, owner };
    this.schemasByName.set(name, info);
    return info;
  }

  dropSchema(name: string, missingOk: boolean, cascade: boolean): boolean {
    if (!this.schemasByName.has(name)) {
      if (missingOk) return false;
      throw pgError(SqlState.invalid_schema_name, `schema "${name}" does not exist`);
    }
    const members = this.relations().filter((r) => r.schema === name);
    if (members.length > 0 && !cascade) {
      throw pgError(SqlState.dependent_objects_still_exist, `cannot drop schema ${name} because other objects depend on it`, {
        detail: members.map((r) => `table ${name}.${r.name} depends on schema ${name}`).join('\n'),
        hint: 'Use DROP ... CASCADE to drop the dependent objects too.',
      });
    }
    for (const r of members) this.relationsByKey.delete(key(r.schema, r.name));
    this.schemasByName.delete(name);
    this.stableOids.release(namespaceIdentity(name));
    return true;
  }

  relations(): RelationInfo[] {
    return [...this.relationsByKey.values()];
  }

  findRelation(schema: string, name: string): RelationInfo | undefined {
    return this.relationsByKey.get(key(schema, name));
  }

  addRelation(info: RelationInfo): void {
    if (this.localRelationsRefused) {
      const what = info.kind === 'v' ? 'view' : info.kind === 'r' ? 'table' : 'relation';
      throw pgError(SqlState.feature_not_supported, `cannot create ${what} "${info.name}" in schema "${info.schema}" when processes > 1`, {
        detail: `Schema "${info.schema}" is not an Iceberg namespace, so the ${what} would be held in the memory of one lakegate server process and missing from the others.`,
        hint: 'Create it in a schema that is an Iceberg namespace (CREATE SCHEMA makes one), as a TEMP table, or set processes to 1.',
      });
    }
    if (!this.schemasByName.has(info.schema)) {
      throw pgError(SqlState.invalid_schema_name, `schema "${info.schema}" does not exist`);
    }
    if (this.relationsByKey.has(key(info.schema, info.name))) {
      throw pgError(SqlState.duplicate_table, `relation "${info.name}" already exists`);
    }
    this.relationsByKey.set(key(info.schema, info.name), info);
  }

  removeRelation(schema: string, name: string): RelationInfo | undefined {
    const info = this.relationsByKey.get(key(schema, name));
    this.relationsByKey.delete(key(schema, name));
    return info;
  }

  replaceRelation(info: RelationInfo): void {
    this.relationsByKey.set(key(info.schema, info.name), info);
  }
}

/** the StableOids identity of a schema (an Iceberg namespace has no uuid: its name is its identity) */
export function namespaceIdentity(name: string): string {
  return `namespace:${name}`;
}

function key(schema: string, name: string): string {
  return `${schema}\u0000${name}`;
}
