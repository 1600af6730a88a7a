/**
 * engine: implements wire's QueryHandler (parse → bind → plan → execute, plus session statements).
 * Public surface of the module; the composition root (server/) calls createQueryEngine.
 */
import type { QueryHandler } from '../wire/handler.ts';
import { notSupported } from '../common/errors.ts';

export interface EngineOptions {
  /** database names served; the first is the default */
  readonly databases: readonly string[];
  readonly serverVersion: string;
  readonly warehouse?: string;
}

export interface QueryEngine extends QueryHandler {
  close(): Promise<void>;
}

export async function createQueryEngine(_options: EngineOptions): Promise<QueryEngine> {
  throw notSupported('the query engine (not wired yet)');
}
