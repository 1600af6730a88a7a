/** ExecOperator: the uniform interface of physical operators (pull-based streams of batches). */
import type { Batch } from '../common/batch.ts';

export interface ExecOperator {
  readonly name: string;
  readonly children: readonly ExecOperator[];
  execute(): AsyncIterable<Batch>;
}
