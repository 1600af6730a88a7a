/**
 * Parse tree → SQL text (pgsql-deparser, the companion of libpg-query), for stored view definitions and
 * column defaults that pg_get_viewdef / pg_get_expr / information_schema show.
 */
import { deparseSync as deparseNode } from 'pgsql-deparser';
import { internalError } from '../../common/errors.ts';

export function deparseSync(node: unknown): string {
  try {
    return deparseNode(node as Parameters<typeof deparseNode>[0]);
  } catch (e) {
    throw internalError('could not turn a parse tree back into SQL', e);
  }
}
