// Piscina worker entry for parallel scans (scan-pool.ts). Worker threads do not inherit the main thread's
// module.register() hooks, so this registers tsx's ESM loader in the worker, then loads the TypeScript code.
import { register } from 'tsx/esm/api';

register();
const { default: runScanTask } = await import('./scan-worker.ts');
export default runScanTask;
