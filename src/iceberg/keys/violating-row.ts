/**
 * Which of a statement's new rows a 23505 refused (0-based, in the order the rows reached the key check):
 * kept beside the error, so that COPY FROM can name the input line as PostgreSQL's CONTEXT does
 * (`COPY t, line N`; engine/statements/copy-key-context.ts) without the key check knowing about COPY.
 */
const rows = new WeakMap<Error, number>();

/** remembers that `error` refuses new row `row`; returns the error */
export function noteViolatingRow<E extends Error>(error: E, row: number): E {
  rows.set(error, row);
  return error;
}

/** the new row a 23505 refused, when the check that raised it said */
export function violatingRow(error: unknown): number | undefined {
  return error instanceof Error ? rows.get(error) : undefined;
}
