/**
 * Where a CPU profile sample's self time goes, for bench/profile-tpch.ts: one category per frame, decided by the
 * frame's source file (and, for V8's pseudo frames, its name). The categories answer issue #4's question "where does
 * the time go": Parquet decode, scan filters, kernels, joins, exchange between threads, planning, wire encoding, GC.
 *
 * Frames of shared helpers (src/common/, Node's own modules, builtins and WebAssembly without a URL) take the
 * category of their nearest classified caller ('inherit'): Array.prototype.push inside a join gather is join time,
 * a Numeric made for a group sum is kernel time, libpg-query's WebAssembly is planning, parquet-wasm's is decode.
 */

export const PROFILE_CATEGORIES = [
  'decode', 'scan_filter', 'io', 'scan_setup', 'kernels', 'joins', 'exchange', 'planning', 'wire', 'gc', 'program', 'other',
] as const;

/** a category of busy time; 'idle' (the thread waits in its event loop) is counted apart */
export type ProfileCategory = (typeof PROFILE_CATEGORIES)[number];

export const CATEGORY_LABELS: Readonly<Record<ProfileCategory, string>> = {
  decode: 'Parquet decode (pages, RLE/dictionary, decompression, Arrow → columns)',
  scan_filter: 'scan filters and late materialization',
  io: 'file reads (storage, file cache)',
  scan_setup: 'scan setup (Iceberg metadata, pruning, tasks, main-thread scan driver)',
  kernels: 'kernels (expressions, aggregates, group tables, sorts, other operators)',
  joins: 'joins (hash tables, probes, gathers, runtime key filters)',
  exchange: 'exchange (postMessage, column transfer, packs, batch concat, piscina)',
  planning: 'planning and binding (parser, binder, optimizer, planner, session)',
  wire: 'wire encoding (row encoders, socket writes)',
  gc: 'GC (main/worker thread pauses)',
  program: 'native outside JS ((program): message deserialization, libuv callbacks, compilation)',
  other: 'other (module loading, server, unclassified)',
};

/** Short column headers for the markdown tables. */
export const CATEGORY_SHORT: Readonly<Record<ProfileCategory, string>> = {
  decode: 'decode', scan_filter: 'filter', io: 'io', scan_setup: 'scan setup', kernels: 'kernels', joins: 'joins',
  exchange: 'exchange', planning: 'planning', wire: 'wire', gc: 'GC', program: 'native', other: 'other',
};

export type FrameClass = ProfileCategory | 'idle' | 'inherit';

/** V8's pseudo frames, by function name (their URL is empty) */
const PSEUDO_FRAMES: ReadonlyMap<string, FrameClass> = new Map<string, FrameClass>([
  ['(idle)', 'idle'], ['(garbage collector)', 'gc'], ['(program)', 'program'], ['(root)', 'other'],
]);

/** builtins without a URL that are themselves the exchange between threads */
const EXCHANGE_BUILTINS = new Set(['postMessage', 'structuredClone', 'receiveMessageOnPort', 'MessageChannel', 'serialize', 'deserialize']);

/**
 * Ordered rules over the normalized path (src/…, node_modules/<pkg>/…, node:…): the first match wins, so the
 * specific files of a folder come before the folder. A path no rule matches is 'other'.
 */
export const PATH_RULES: readonly (readonly [FrameClass, RegExp])[] = [
  // --- exchange: what crosses between the main thread and the scan workers
  ['exchange', /^src\/iceberg\/parallel\/(column-transfer|string-codes|key-list-wire|filter-wire|cloneable|scan-pool|scan-pool-worker|scan-request-wire|pack-batches|parallel-scan|source-parallel-scan|task-groups|scan-worker|merge-task|row-group-splits|scan-task|io-from-description|worker-errors)\b/],
  ['exchange', /^src\/exec\/exchange\//],
  ['exchange', /^src\/exec\/partial\/(state-wire|expr-wire|int8-key-wire|fragment-packs)\b/],
  ['exchange', /^src\/common\/batch-concat\b/],
  ['exchange', /^node_modules\/piscina\//],
  ['exchange', /^node:(internal\/worker|internal\/per_context\/messageport|worker_threads)/],
  // --- Parquet decode
  ['decode', /^node_modules\/(parquet-wasm|apache-arrow|snappy|snappyjs|fzstd|flatbuffers)\//],
  ['decode', /^src\/iceberg\/read\/(parquet-|row-group-decode|js-row-group-decode|rle-hybrid-decode|snappy-decompress|native-snappy|dictionary-|thrift-compact|arrow-values|arrow-fast-columns|lazy-decimal-data|exact-doubles|page-window|wasm-panic-trap)/],
  // --- scan filters and late materialization (rows judged before the other columns are decoded)
  ['scan_filter', /^src\/iceberg\/read\/(arrow-row-filter|arrow-[a-z-]*-filter|arrow-column-pair|arrow-leaf|late-|file-scan-task-reader|file-proved-filter|int-key-set|like-string-test|utf8-like-matcher|sorted-probe|unread-nulls|point-|row-group-stats|delete-loader|page-index|page-row-ranges)/],
  ['scan_filter', /^src\/iceberg\/parallel\/(row-filter|exact-rows)\b/],
  ['scan_filter', /^src\/iceberg\/scan\/(sorted-in-keys|int-key-list)\b/],
  // --- file reads
  ['io', /^src\/iceberg\/read\/(file-cache|byte-lru|range-blob)/],
  ['io', /^src\/storage\//],
  ['io', /^node:(fs|internal\/fs)/],
  // --- planning and binding (join-order is planning: before the join rule)
  ['planning', /^src\/exec\/(optimizer\/|planner|filter-pushdown|join-order|recursive-invariants)/],
  ['planning', /^src\/(sql|engine|pgcatalog)\//],
  ['planning', /^node_modules\/(libpg-query|@pgsql|pgsql-deparser|pgsql-parser)\//],
  // --- joins
  ['joins', /^src\/exec\/(join-|equi-keys|runtime-key-filter|batch-util)/],
  ['joins', /^src\/exec\/operators\/(hash-join|nested-loop-join)-exec\b/],
  // --- scan setup: Iceberg metadata, pruning and the main thread's scan driver
  ['scan_setup', /^src\/exec\/operators\/table-scan-exec\b/],
  ['scan_setup', /^src\/iceberg\//],
  ['scan_setup', /^src\/catalog\//],
  ['scan_setup', /^node_modules\/(avsc|better-sqlite3|lossless-json)\//],
  // --- kernels: expressions, aggregates (worker partials too), group tables, sorts and the other operators
  ['kernels', /^src\/exec\/(expr|partial|operators|memory)\//],
  ['kernels', /^src\/exec\/(group-table|group-lookup|direct-key-index|hash-mix|norm-key-column|in-list-set)\b/],
  ['kernels', /^src\/functions\//],
  // --- wire
  ['wire', /^src\/wire\//],
  ['wire', /^node:(net|internal\/stream_base_commons|internal\/net)/],
  // --- shared helpers: charged to their caller
  ['inherit', /^src\/common\//],
  ['inherit', /^src\/exec\/(context|operator|instrumentation|index)\b/],
  ['inherit', /^node:(?!internal\/modules|internal\/bootstrap|internal\/main)/],
  ['inherit', /^wasm:/],
  ['inherit', /^$/],
];

/**
 * The path a rule sees: the part of a frame's URL from its last `node_modules/` or its `src/` folder on
 * (`file:///work/main/src/exec/x.ts` → `src/exec/x.ts`), Node's `node:` modules as they are, '' for none.
 */
export function normalizeFramePath(url: string): string {
  if (url === '') return '';
  if (url.startsWith('node:') || url.startsWith('wasm:')) return url;
  const nm = url.lastIndexOf('/node_modules/');
  if (nm >= 0) return url.slice(nm + 1);
  const src = url.lastIndexOf('/src/');
  if (src >= 0) return url.slice(src + 1);
  // Node's internal modules are reported without the node: scheme in some profiles
  if (/^internal\//.test(url)) return `node:${url}`;
  return url.replace(/^file:\/\//, '');
}

/** The class of one frame by its own function name and URL ('inherit': its caller's category). */
export function classifyFrame(functionName: string, url: string): FrameClass {
  const pseudo = PSEUDO_FRAMES.get(functionName);
  if (pseudo !== undefined && url === '') return pseudo;
  if (url === '' && EXCHANGE_BUILTINS.has(functionName)) return 'exchange';
  const path = normalizeFramePath(url);
  for (const [cls, re] of PATH_RULES) if (re.test(path)) return cls;
  return 'other';
}
