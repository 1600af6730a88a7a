/** One output column of a plan node. */
import type { SqlType } from '../../common/pgtypes/oids.ts';

export interface PlanColumn {
  readonly name: string;
  readonly type: SqlType;
}
