/**
 * How soon a commit that lost a race tries again. A lost catalog compare-and-swap means the winner's commit
 * is complete: the next attempt reloads and re-applies at once (an append on top of an append is cheap, and
 * a row delta's validations see the winner). A metadata file name already taken (a writer still committing)
 * and later losses back off, jittered, so writers hammering one table stop colliding in lockstep.
 */
import type { IcebergCatalog, TableIdentifier } from '../../catalog/iceberg/index.ts';
import { GatewayError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';

/** 40001s of a lost catalog compare-and-swap */
const swapsLost = new WeakSet<object>();

/** the catalog's compare-and-swap; its 40001 marked as a lost swap (retryDelayMs) */
export async function catalogSwap(catalog: Pick<IcebergCatalog, 'commitTable'>, id: TableIdentifier, expected: string, next: string): Promise<void> {
  try {
    await catalog.commitTable(id, expected, next);
  } catch (e) {
    throw markSwapLost(e);
  }
}

export function markSwapLost(e: unknown): unknown {
  if (e instanceof GatewayError && e.code === SqlState.serialization_failure) swapsLost.add(e);
  return e;
}

/** the wait before retry `n + 1` after `e`: none after a first lost swap, else jittered exponential backoff */
export function retryDelayMs(n: number, e: unknown): number {
  if (n === 0 && typeof e === 'object' && e !== null && swapsLost.has(e)) return 0;
  return Math.min(1000, 10 * 2 ** n) * (0.5 + Math.random());
}
