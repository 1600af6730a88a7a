/**
 * The 53200 error a query gets when a reservation is refused, with PostgreSQL's message (`out of memory`,
 * DETAIL `Failed on request of size N in …`) and a detail/hint that say which limit was reached.
 */
import { pgError, type GatewayError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import { formatMemoryBytes } from './memory-units.ts';
import { QUERY_MEMORY_LIMIT_SETTING, showQueryMemoryLimit } from './query-memory-limit.ts';
import type { HeapReading, Refusal } from './server-memory.ts';

export interface OutOfMemoryFacts {
  readonly operator: string;
  readonly request: number;
  readonly why: Refusal;
  readonly queryLimit: number;
  readonly serverLimit: number;
  readonly heap: HeapReading;
}

export function queryOutOfMemory(f: OutOfMemoryFacts): GatewayError {
  const head = `Failed on request of size ${Math.ceil(f.request)} in operator "${f.operator}"`;
  if (f.why === 'query') {
    const limit = showQueryMemoryLimit(f.queryLimit);
    const bigger = showQueryMemoryLimit(Math.max(f.queryLimit * 2, 1024 * 1024));
    return pgError(SqlState.out_of_memory, 'out of memory', {
      detail: `${head}: the query's memory use reached ${QUERY_MEMORY_LIMIT_SETTING} (${limit}).`,
      hint: `Raise ${QUERY_MEMORY_LIMIT_SETTING}, e.g. SET ${QUERY_MEMORY_LIMIT_SETTING} = '${bigger}'.`,
    });
  }
  if (f.why === 'server') {
    return pgError(SqlState.out_of_memory, 'out of memory', {
      detail: `${head}: the memory held by all running queries reached the server's share for query state (${formatMemoryBytes(f.serverLimit)}).`,
      hint: 'Retry when fewer large queries run, or start the server with a larger heap (node --max-old-space-size).',
    });
  }
  return pgError(SqlState.out_of_memory, 'out of memory', {
    detail: `${head}: the server's JavaScript heap is nearly full (${formatMemoryBytes(f.heap.used)} of ${formatMemoryBytes(f.heap.limit)} in use).`,
    hint: 'Retry when fewer large queries run, or start the server with a larger heap (node --max-old-space-size).',
  });
}
