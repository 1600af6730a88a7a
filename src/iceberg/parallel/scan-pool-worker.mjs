// Piscina worker entry of the scan pool (scan-pool.ts). Worker threads do not inherit the main thread's
// module.register() hooks, so this registers tsx's ESM loader in the worker, then loads the TypeScript code: the
// scan worker (scan-worker.ts) behind the request wire (scan-request-wire.ts), which gives it each task's request
// whole, the scan's shared parts kept here from the scan's first tasks.
import { register } from 'tsx/esm/api';

register();
const { default: runScanTask } = await import('./scan-worker.ts');
const { MISSING_PARTS, receiveScanRequest } = await import('./scan-request-wire.ts');

export default async function runPoolTask(msg) {
  const req = receiveScanRequest(msg);
  return req === undefined ? MISSING_PARTS : runScanTask(req);
}
