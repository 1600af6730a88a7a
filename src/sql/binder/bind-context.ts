/** The binder's public types: what it needs (BindContext) and what it produces (BoundQuery). */
import type { CatalogView } from '../../catalog/catalog-view.ts';
import type { SqlType } from '../../common/pgtypes/oids.ts';
import type { LogicalPlan } from '../logical/plan.ts';
import type { FunctionRegistry } from './function-registry.ts';

export interface BindContext {
  readonly catalog: CatalogView;
  /** effective search_path, incl. pg_catalog first if not listed, as PG does */
  readonly searchPath: readonly string[];
  readonly functions: FunctionRegistry;
  /** in/out: given types; unknown (oid 0) ones get inferred and written back */
  readonly paramTypes: SqlType[];
  readonly tempSchema?: string;
}

export interface BoundColumn {
  readonly name: string;
  readonly type: SqlType;
  /** pg_class OID when the column is a plain reference to a base relation column, else 0 */
  readonly tableOid: number;
  /** pg_attribute.attnum (1-based) in that case, else 0 */
  readonly attnum: number;
}

export interface BoundQuery {
  readonly columns: readonly BoundColumn[];
  readonly paramTypes: readonly SqlType[];
  readonly plan: LogicalPlan;
}
