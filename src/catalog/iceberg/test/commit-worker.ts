/**
 * Child process for the cross-process commit test: opens the catalog at argv[2] (SQLite file or
 * postgresql:// URI) as catalog argv[3] and commits argv[4] times once the parent writes `go` to table race.t, reloading and retrying
 * on 40001 like the Iceberg commit layer. Prints `{"links":[[base, new]…],"conflicts":k}`.
 */
import { randomUUID } from 'node:crypto';
import { GatewayError } from '../../../common/errors.ts';
import { openSqlCatalog } from '../open-sql-catalog.ts';

const [uri, catalogName, count] = process.argv.slice(2);
const catalog = await openSqlCatalog({ uri: uri ?? '', catalogName: catalogName ?? 'lakegate' });
// start together: say `ready`, then wait for the parent's `go` on stdin
process.stdout.write('ready\n');
await new Promise((r) => process.stdin.once('data', r));
process.stdin.pause();
const t = { namespace: ['race'], name: 't' };
const links: [string, string][] = [];
let conflicts = 0;
while (links.length < Number(count)) {
  const { metadataLocation } = await catalog.loadTableLocation(t);
  const next = `/wh/race/t/metadata/${process.pid}-${links.length}-${randomUUID()}.metadata.json`;
  try {
    await catalog.commitTable(t, metadataLocation, next);
    links.push([metadataLocation, next]);
  } catch (e) {
    if (!(GatewayError.is(e) && e.code === '40001')) throw e;
    conflicts++;
  }
}
await catalog.close();
process.stdout.write(`${JSON.stringify({ links, conflicts })}\n`);
