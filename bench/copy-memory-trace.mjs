// Loaded into the lakegate child by `npm run bench:copy -- --trace` (node --import, so into each worker thread too): every
// LAKEGATE_MEMORY_TRACE_MS (500) it writes the process's memory on stderr (rss for all threads; heap, external and
// ArrayBuffers of this thread's isolate) and the garbage collections of this isolate so far (count and ms by kind), so a
// COPY's peak RSS can be split into the JS heap, buffers outside it and the rest (other isolates, wasm memory).
import { PerformanceObserver } from 'node:perf_hooks';
import { isMainThread, threadId } from 'node:worker_threads';

const ms = Number(process.env.LAKEGATE_MEMORY_TRACE_MS ?? 500);
const mb = (b) => (b / 1048576).toFixed(0);
const KINDS = { 1: 'minor', 2: 'major', 4: 'incremental', 8: 'weakcb' };
const gc = new Map();
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    const k = KINDS[e.detail?.kind] ?? 'other';
    const g = gc.get(k) ?? { n: 0, ms: 0 };
    g.n++;
    g.ms += e.duration;
    gc.set(k, g);
  }
}).observe({ entryTypes: ['gc'] });
let peak = 0;
setInterval(() => {
  const m = process.memoryUsage();
  if (m.rss > peak) peak = m.rss;
  const gcs = [...gc].map(([k, g]) => `${k} ${g.n}/${g.ms.toFixed(0)}ms`).join(' ');
  process.stderr.write(`[mem ${isMainThread ? 'main' : `t${threadId}`}] rss ${mb(m.rss)} heapUsed ${mb(m.heapUsed)} heapTotal ${mb(m.heapTotal)} external ${mb(m.external)} arrayBuffers ${mb(m.arrayBuffers)} peak ${mb(peak)} MB; gc ${gcs}\n`);
}, ms).unref();
