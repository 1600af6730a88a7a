// Piscina worker entry of the COPY decode pool (copy-decode-pool.ts). Worker threads do not inherit the main
// thread's module.register() hooks, so this registers tsx's ESM loader, then loads the TypeScript task. The
// result's buffers (typed columns, or the chunk given back) are moved to the main thread, not copied.
import { register } from 'tsx/esm/api';
import { move, transferableSymbol, valueSymbol } from 'piscina';

register();
const { decodeCopyChunk, chunkResultBuffers } = await import('./copy-decode-task.ts');

/** `null` warms the thread up (tsx and the decoder loaded) */
export default function decodeCopyChunkTask(task) {
  if (task === null) return null;
  const result = decodeCopyChunk(task, false);
  return move({ [transferableSymbol]: chunkResultBuffers(result), [valueSymbol]: result });
}
