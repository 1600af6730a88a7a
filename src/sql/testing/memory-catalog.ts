/**
 * In-memory CatalogView, SessionView and writable tables for tests (binder, executor, engine).
 * Relations get OIDs from 16384 up, schemas from 2200 (public) as PostgreSQL would.
 */
import type { Batch } from '../../common/batch.ts';
import { batchFromRows } from '../../common/batch.ts';
import type { CatalogView, RelationInfo, SchemaInfo } from '../../catalog/catalog-view.ts';
import type { SessionView, SettingInfo } from '../../catalog/session-view.ts';
import type { ColumnDef, ScanContext, WritableTableSource } from '../../catalog/table-source.ts';

export class MemoryTable implements WritableTableSource {
  readonly rows: unknown[][];
  constructor(readonly columns: readonly ColumnDef[], rows: readonly (readonly unknown[])[] = []) {
    this.rows = rows.map((r) => [...r]);
  }

  async *scan(_ctx: ScanContext): AsyncIterable<Batch> {
    const size = 2;
    for (let s = 0; s < this.rows.length; s += size) yield batchFromRows(this.rows.slice(s, s + size), this.columns.length);
  }

  async insert(batches: AsyncIterable<Batch>, _ctx: ScanContext): Promise<number> {
    const staged: unknown[][] = [];
    for await (const b of batches) for (let i = 0; i < b.length; i++) staged.push(b.columns.map((c) => c[i] ?? null));
    this.rows.push(...staged);
    return staged.length;
  }

  async truncate(): Promise<void> {
    this.rows.length = 0;
  }
}

export interface MemoryRelation {
  readonly schema: string;
  readonly name: string;
  readonly source: MemoryTable | RelationInfo['source'];
  readonly kind?: RelationInfo['kind'];
}

export class MemoryCatalog implements CatalogView {
  readonly database = 'lakegate';
  readonly #schemas: SchemaInfo[] = [
    { oid: 11, name: 'pg_catalog', owner: 'postgres' },
    { oid: 2200, name: 'public', owner: 'postgres' },
    { oid: 13000, name: 'information_schema', owner: 'postgres' },
  ];
  readonly #relations: RelationInfo[] = [];
  #nextOid = 16384;

  addSchema(name: string): SchemaInfo {
    const s = { oid: this.#nextOid++, name, owner: 'postgres' };
    this.#schemas.push(s);
    return s;
  }

  addRelation(rel: MemoryRelation): RelationInfo {
    const schema = this.schemaByName(rel.schema) ?? this.addSchema(rel.schema);
    const oid = this.#nextOid++;
    const info: RelationInfo = {
      oid, schema: schema.name, schemaOid: schema.oid, name: rel.name, kind: rel.kind ?? 'r',
      persistence: 'p', rowTypeOid: this.#nextOid++, source: rel.source,
    };
    this.#relations.push(info);
    return info;
  }

  schemas(): readonly SchemaInfo[] { return this.#schemas; }
  relations(): readonly RelationInfo[] { return this.#relations; }
  findRelation(schema: string, name: string): RelationInfo | undefined {
    return this.#relations.find((r) => r.schema === schema && r.name === name);
  }
  relationByOid(oid: number): RelationInfo | undefined { return this.#relations.find((r) => r.oid === oid); }
  schemaByName(name: string): SchemaInfo | undefined { return this.#schemas.find((s) => s.name === name); }
  schemaByOid(oid: number): SchemaInfo | undefined { return this.#schemas.find((s) => s.oid === oid); }
  databases(): readonly string[] { return [this.database]; }
}

export function testSession(overrides: Partial<Record<string, string>> = {}): SessionView {
  const settings = new Map<string, string>(Object.entries({
    TimeZone: 'UTC', DateStyle: 'ISO, MDY', IntervalStyle: 'postgres', search_path: '"$user", public',
    extra_float_digits: '1', server_version: '15.0', standard_conforming_strings: 'on', ...overrides,
  }) as [string, string][]);
  return {
    user: 'postgres', database: 'lakegate', backendPid: 4242, serverStartTime: 0n, localAddress: '127.0.0.1', localPort: 5432,
    searchPath: () => ['public'],
    getSetting: (name) => settings.get(name) ?? [...settings].find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1] ?? null,
    setSetting: (name, value) => { settings.set(name, value); return value; },
    settings: (): SettingInfo[] => [],
    sessions: () => [],
    cancelBackend: () => false,
    terminateBackend: () => false,
    currentTransactionId: () => 1n,
  };
}
