/**
 * Small in-memory CatalogView and SessionView for pgcatalog tests: the shapes the lead's engine composes,
 * with a fixture mirroring the scratch PostgreSQL schema the expectations were taken from
 * (public.customers with PK + comments + defaults, public.orders with a composite PK, a view, sales.items).
 */
import type { Batch } from '../../common/batch.ts';
import type { CatalogView, RelationInfo, SchemaInfo } from '../../catalog/catalog-view.ts';
import type { SessionSummary, SessionView, SettingInfo } from '../../catalog/session-view.ts';
import type { ColumnDef, ScanContext, TableSource } from '../../catalog/table-source.ts';
import { GatewayError } from '../../common/errors.ts';
import { Oid, sqlType } from '../../common/pgtypes/index.ts';
import type { EvalContext } from '../../functions/registry-types.ts';
import { createSystemRelations, systemSchemas } from '../system-catalog.ts';
import type { FunctionCatalog } from '../function-catalog.ts';

export class MemoryTable implements TableSource {
  constructor(readonly columns: readonly ColumnDef[], readonly estimatedRows?: number) {}
  async *scan(): AsyncIterable<Batch> {}
}

export class MemoryCatalog implements CatalogView {
  constructor(
    readonly database: string,
    private readonly schemaList: SchemaInfo[],
    private readonly relationList: RelationInfo[],
    private readonly dbs: string[] = [database],
  ) {}
  schemas(): readonly SchemaInfo[] { return this.schemaList; }
  relations(): readonly RelationInfo[] { return this.relationList; }
  findRelation(schema: string, name: string): RelationInfo | undefined {
    return this.relationList.find((r) => r.schema === schema && r.name === name);
  }
  relationByOid(oid: number): RelationInfo | undefined { return this.relationList.find((r) => r.oid === oid); }
  schemaByName(name: string): SchemaInfo | undefined { return this.schemaList.find((s) => s.name === name); }
  schemaByOid(oid: number): SchemaInfo | undefined { return this.schemaList.find((s) => s.oid === oid); }
  databases(): readonly string[] { return this.dbs; }
}

function setting(name: string, value: string, vartype = 'string'): SettingInfo {
  return { name, setting: value, unit: null, category: 'Client Connection Defaults', shortDesc: name, context: 'user', vartype, source: 'default', enumvals: null, bootVal: value, resetVal: value };
}

export class MemorySession implements SessionView {
  readonly backendPid = 4242;
  readonly serverStartTime = 1_700_000_000_000_000n;
  readonly localAddress = '127.0.0.1';
  readonly localPort = 5433;
  readonly settingsMap = new Map<string, string>([
    ['server_version', '16.4 (lakegate 0.1.0)'], ['server_version_num', '160004'], ['search_path', '"$user", public'],
    ['client_encoding', 'UTF8'], ['DateStyle', 'ISO, MDY'], ['TimeZone', 'UTC'], ['standard_conforming_strings', 'on'],
  ]);
  canceled: number[] = [];
  path: string[] = ['public'];
  xid = 700n;
  constructor(readonly user = 'alice', readonly database = 'lake') {}
  searchPath(): readonly string[] { return this.path; }
  getSetting(name: string, missingOk = false): string | null {
    for (const [k, v] of this.settingsMap) if (k.toLowerCase() === name.toLowerCase()) return v;
    if (missingOk) return null;
    throw new GatewayError('42704', `unrecognized configuration parameter "${name}"`);
  }
  setSetting(name: string, value: string): string { this.settingsMap.set(name, value); return value; }
  settings(): readonly SettingInfo[] { return [...this.settingsMap].map(([k, v]) => setting(k, v)); }
  sessions(): readonly SessionSummary[] {
    return [{
      pid: this.backendPid, user: this.user, database: this.database, applicationName: 'psql', clientAddr: '127.0.0.1',
      clientPort: 50000, backendStart: this.serverStartTime, xactStart: null, queryStart: this.serverStartTime,
      state: 'active', query: 'select 1',
    }];
  }
  cancelBackend(pid: number): boolean { this.canceled.push(pid); return pid === this.backendPid; }
  terminateBackend(pid: number): boolean { return pid === this.backendPid; }
  currentTransactionId(): bigint { return this.xid; }
}

const col = (name: string, oid: number, typmod = -1, extra: Partial<ColumnDef> = {}): ColumnDef => ({ name, type: sqlType(oid, typmod), nullable: true, ...extra });

/** OIDs of the fixture objects */
export const Fixture = { sales: 16408, customers: 16384, customersType: 16386, orders: 16393, ordersType: 16395, summary: 16404, summaryType: 16406, items: 16409, itemsType: 16411 } as const;

export function fixtureCatalog(options: { withSystem?: boolean } = {}): MemoryCatalog {
  const schemas: SchemaInfo[] = [
    { oid: 2200, name: 'public', owner: 'alice', comment: 'standard public schema' },
    { oid: Fixture.sales, name: 'sales', owner: 'alice' },
  ];
  const rel = (oid: number, schema: string, schemaOid: number, name: string, kind: RelationInfo['kind'], rowTypeOid: number, cols: ColumnDef[], extra: Partial<RelationInfo> = {}): RelationInfo => ({
    oid, schema, schemaOid, name, kind, persistence: 'p', rowTypeOid, source: new MemoryTable(cols, kind === 'r' ? 10 : undefined), ...extra,
  });
  const relations: RelationInfo[] = [
    rel(Fixture.customers, 'public', 2200, 'customers', 'r', Fixture.customersType, [
      col('id', Oid.int4, -1, { nullable: false }),
      col('name', Oid.varchar, 54, { nullable: false, comment: 'full name' }),
      col('balance', Oid.numeric, (12 << 16 | 2) + 4, { defaultExpr: '0' }),
      col('created', Oid.timestamptz, -1, { defaultExpr: 'now()' }),
      col('note', Oid.text),
    ], { primaryKey: [0], comment: 'the customers' }),
    rel(Fixture.orders, 'public', 2200, 'orders', 'r', Fixture.ordersType, [
      col('id', Oid.int8, -1, { nullable: false }), col('line', Oid.int4, -1, { nullable: false }), col('cust', Oid.int4),
      col('amount', Oid.float8), col('d', Oid.date), col('tags', Oid._text),
    ], { primaryKey: [0, 1] }),
    rel(Fixture.summary, 'public', 2200, 'order_summary', 'v', Fixture.summaryType, [col('cust', Oid.int4), col('total', Oid.float8)], {
      viewDefinition: 'SELECT orders.cust, sum(orders.amount) AS total FROM orders GROUP BY orders.cust',
    }),
    rel(Fixture.items, 'sales', Fixture.sales, 'items', 'r', Fixture.itemsType, [
      col('sku', Oid.text, -1, { nullable: false }), col('qty', Oid.int2), col('flag', Oid.bool), col('c', Oid.bpchar, 7),
    ], { primaryKey: [0] }),
  ];
  if (options.withSystem === true) return new MemoryCatalog('lake', [...systemSchemas(), ...schemas], [...createSystemRelations(), ...relations], ['lake', 'other']);
  return new MemoryCatalog('lake', schemas, relations, ['lake', 'other']);
}

export function scanContext(catalog: CatalogView = fixtureCatalog(), session: SessionView = new MemorySession()): ScanContext {
  return { signal: new AbortController().signal, session, catalog };
}

export function evalContext(catalog: CatalogView = fixtureCatalog(), session: SessionView = new MemorySession(), signal = new AbortController().signal): EvalContext {
  return { session, catalog, transactionTimestamp: 1_700_000_000_000_000n, statementTimestamp: 1_700_000_000_000_000n, signal };
}

export function functionCatalogOf(parts: Partial<FunctionCatalog>): FunctionCatalog {
  return { allRoutines: () => [], allOperators: () => [], allCasts: () => [], ...parts };
}
