/** One scan+aggregate for `node --cpu-prof`: npx tsx … profile-scan.ts <warehouse> <workers> [sql] */
import { createQueryEngine } from '../../../engine/index.ts';
import { acquireSharedScanPool, sharedScanPool } from '../scan-pool.ts';

const [warehouse = '/tmp/lakegate-pool-bench-8x300000', workers = '0', sql = 'SELECT sum(x), count(*) FROM ns.t'] = process.argv.slice(2);
const release = acquireSharedScanPool({ size: Number(workers), minRows: 0 });
if (Number(workers) > 0) console.log(`startup ${(await sharedScanPool()!.warm()).toFixed(0)} ms`);
const engine = await createQueryEngine({ databases: ['lakegate'], warehouse });
const session = await engine.connect({ user: 'p', database: 'lakegate', parameters: {}, backendPid: 1, remoteAddress: '127.0.0.1', remotePort: 1, localAddress: '127.0.0.1', localPort: 1, ssl: false });
for (let i = 0; i < 2; i++) {
  const t = performance.now();
  for await (const r of session.simpleQuery(sql)) if (r.kind === 'rows') for await (const b of r.batches) void b;
  console.log(`run ${i}: ${(performance.now() - t).toFixed(0)} ms`);
}
await session.close();
await engine.close();
await release();
