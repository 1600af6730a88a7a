/** The function library the binder resolves calls against (built in src/functions). */
export type { FunctionRegistry, ResolvedFunction, ResolvedOperator } from '../../functions/index.ts';

/** value converter produced by a cast lookup */
export type CastFn = (value: unknown, targetTypmod: number, ctx: import('../../functions/registry-types.ts').EvalContext) => unknown;
