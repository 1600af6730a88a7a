// A typed COPY batch (typed-columns.ts) split by partition off the writer's thread: the rows' partition groups
// are computed from int32 source columns (date/int: identity, day, month, year, bucket, truncate) and every
// column is gathered into new buffers in which each group's rows are contiguous (a stable counting sort), so the
// thread that decodes COPY input only copies runs into the partitions' stages (TypedStage, perm null) instead of
// gathering every value (session 14: staging was a quarter of that thread's CPU by month). Plain JS with no
// TypeScript imports so it loads in a worker thread without tsx (partition-split-pool.ts); the math is shared
// with typed-partition-groups.ts, which computes the same groups on the writer's thread.
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { addColumnBuffers } from './column-buffers.mjs';

const C1 = 0xcc9e2d51;
const C2 = 0x1b873593;
const rotl = (x, r) => (x << r) | (x >>> (32 - r));
const mixK1 = (k) => Math.imul(rotl(Math.imul(k, C1), 15), C2);
const mixH1 = (h, k) => (Math.imul(rotl(h ^ k, 13), 5) + 0xe6546b64) | 0;

function fmix(h, n) {
  h ^= n;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) | 0;
}

/** murmur3_x86_32 (seed 0) of the 8-byte little-endian long (hi, lo): Iceberg's hash of int/long/date */
export function murmurLong(lo, hi) {
  return fmix(mixH1(mixH1(0, mixK1(lo | 0)), mixK1(hi | 0)), 8);
}

/** murmur3_x86_32 (seed 0) of data[start, end) */
export function murmurRange(data, start, end) {
  let h = 0;
  const n = end - start;
  const blocks = start + (n & ~3);
  let i = start;
  for (; i < blocks; i += 4) h = mixH1(h, mixK1(data[i] | (data[i + 1] << 8) | (data[i + 2] << 16) | (data[i + 3] << 24)));
  let k1 = 0;
  switch (n & 3) {
    case 3: k1 ^= data[i + 2] << 16; // falls through
    case 2: k1 ^= data[i + 1] << 8; // falls through
    case 1: k1 ^= data[i]; h ^= mixK1(k1);
  }
  return fmix(h, n);
}

/** days since 1970-01-01 → months since 1970-01 (Howard Hinnant's civil_from_days) */
export function monthOfDays(days) {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  return (y - 1970) * 12 + m - 1;
}

const floorMod = (a, b) => ((a % b) + b) % b;

/** the partition value of a valid int32 value under the transform `name`(`param`) of a `domain` column; null: not computed here */
export function int32PartitionFn(name, param, domain) {
  switch (name) {
    case 'identity': return (v) => v;
    case 'bucket': return (v) => (murmurLong(v, v < 0 ? -1 : 0) & 0x7fffffff) % param;
    case 'truncate': return domain === 'int' ? (v) => v - floorMod(v, param) : null;
    case 'day': return domain === 'date' ? (v) => v : null;
    case 'month': return domain === 'date' ? monthOfDays : null;
    case 'year': return domain === 'date' ? (v) => Math.floor(monthOfDays(v) / 12) : null;
    default: return null;
  }
}

/** the thread's spare buffers (the inputs of earlier tasks), reused for the next outputs */
const spare = new Map();
let spareBytes = 0;
const MAX_SPARE_BYTES = 16 * 1024 * 1024;

function take(bytes) {
  const b = spare.get(bytes)?.pop();
  if (b === undefined) return new ArrayBuffer(bytes);
  spareBytes -= bytes;
  return b;
}

function keep(buffers) {
  for (const b of buffers) {
    if (spareBytes + b.byteLength > MAX_SPARE_BYTES) continue;
    let list = spare.get(b.byteLength);
    if (list === undefined) spare.set(b.byteLength, (list = []));
    list.push(b);
    spareBytes += b.byteLength;
  }
}

const pow2 = (n) => 2 ** Math.ceil(Math.log2(Math.max(n, 64)));

/** per-row group ids (0 … count − 1, in order of first appearance) of the partition tuple of `fields` */
function groupsOf(fields, columns, length) {
  let groupOf = null;
  for (const f of fields) {
    const col = columns[f.pos];
    const fn = int32PartitionFn(f.name, f.param, col.domain);
    const ids = new Int32Array(length);
    const seen = new Map();
    const { values, validity } = col;
    let lastV = 0;
    let lastId = -1;
    for (let i = 0; i < length; i++) {
      let id;
      if (validity !== null && (validity[i >> 3] & (1 << (i & 7))) === 0) {
        id = seen.get(null);
        if (id === undefined) seen.set(null, (id = seen.size));
      } else if (lastId >= 0 && values[i] === lastV) id = lastId;
      else {
        const key = fn((lastV = values[i]));
        id = seen.get(key);
        if (id === undefined) seen.set(key, (id = seen.size));
        lastId = id;
      }
      ids[i] = id;
    }
    if (groupOf === null) {
      groupOf = ids;
      continue;
    }
    const combined = new Map();
    const n = seen.size;
    for (let i = 0; i < length; i++) {
      const key = groupOf[i] * n + ids[i];
      let g = combined.get(key);
      if (g === undefined) combined.set(key, (g = combined.size));
      groupOf[i] = g;
    }
  }
  groupOf ??= new Int32Array(length);
  // renumber in row order (combined ids may not be)
  const order = new Map();
  for (let i = 0; i < length; i++) {
    let g = order.get(groupOf[i]);
    if (g === undefined) order.set(groupOf[i], (g = order.size));
    groupOf[i] = g;
  }
  return { groupOf, count: Math.max(order.size, 1) };
}

function gatherValidity(v, perm, length) {
  const out = new Uint8Array(take((length + 7) >> 3)).fill(0);
  for (let d = 0; d < length; d++) {
    const r = perm[d];
    if ((v[r >> 3] & (1 << (r & 7))) !== 0) out[d >> 3] |= 1 << (d & 7);
  }
  return out;
}

/** column rows in `perm` order, in new buffers */
function gather(col, perm, length) {
  const validity = col.nullCount === 0 || col.validity === null ? null : gatherValidity(col.validity, perm, length);
  const base = { ...col, validity: validity };
  switch (col.kind) {
    case 'int32': {
      const src = col.values;
      const out = new Int32Array(take(length * 4), 0, length);
      for (let d = 0; d < length; d++) out[d] = src[perm[d]];
      return { ...base, values: out };
    }
    case 'int64': case 'decimal': {
      const w = col.kind === 'int64' ? 2 : 4;
      const b = col.kind === 'int64' ? col.values : col.words;
      const src = new Int32Array(b.buffer, b.byteOffset, length * w);
      const buf = take(length * w * 4);
      const out = new Int32Array(buf, 0, length * w);
      if (w === 2) {
        for (let d = 0; d < length; d++) { const r = perm[d] << 1; out[2 * d] = src[r]; out[2 * d + 1] = src[r + 1]; }
      } else {
        for (let d = 0; d < length; d++) {
          const r = perm[d] << 2;
          const o = d << 2;
          out[o] = src[r]; out[o + 1] = src[r + 1]; out[o + 2] = src[r + 2]; out[o + 3] = src[r + 3];
        }
      }
      const words = new BigInt64Array(buf, 0, length * w / 2);
      return col.kind === 'int64' ? { ...base, values: words } : { ...base, words };
    }
    case 'utf8': {
      const so = col.offsets;
      const sd = col.data;
      const used = so[length] - so[0];
      const offsets = new Int32Array(take((length + 1) * 4), 0, length + 1);
      const data = new Uint8Array(take(pow2(used)), 0, used);
      const dv = new DataView(data.buffer);
      const sv = new DataView(sd.buffer, sd.byteOffset, sd.byteLength);
      let p = 0;
      offsets[0] = 0;
      for (let d = 0; d < length; d++) {
        const r = perm[d];
        let j = so[r];
        const e = so[r + 1];
        if (e - j <= 128) {
          for (; j + 4 <= e; j += 4, p += 4) dv.setInt32(p, sv.getInt32(j, true), true);
          for (; j < e; j++) data[p++] = sd[j];
        } else {
          data.set(sd.subarray(j, e), p);
          p += e - j;
        }
        offsets[d + 1] = p;
      }
      return { ...base, offsets, data };
    }
    default: throw new Error(`partition split: no buffer for a ${col.kind} column`);
  }
}

/** the distinct ArrayBuffers behind buffer columns */
export function splitBuffers(columns) {
  const out = new Set();
  addColumnBuffers(columns, out);
  return [...out];
}

/**
 * `task`: { length, columns (buffer columns), fields: [{ pos, name, param }] } → { columns, starts, count }: group
 * g's rows are [starts[g], starts[g + 1]) of `columns`, groups in order of first appearance, rows in input order
 * within a group. One group: the input columns are returned as they are.
 */
export function splitByPartition(task) {
  const { length, columns, fields } = task;
  const { groupOf, count } = groupsOf(fields, columns, length);
  const starts = new Int32Array(count + 1);
  if (count === 1) {
    starts[1] = length;
    return { columns, starts, count };
  }
  for (let i = 0; i < length; i++) starts[groupOf[i] + 1]++;
  for (let g = 0; g < count; g++) starts[g + 1] += starts[g];
  const perm = new Int32Array(length);
  const fill = starts.slice(0, count);
  for (let i = 0; i < length; i++) perm[fill[groupOf[i]]++] = i;
  return { columns: columns.map((c) => gather(c, perm, length)), starts, count };
}

/** piscina task: splitByPartition, the outputs moved back; inputs kept here for the next outputs (a one-group batch's are its output) */
export default function splitTask(task) {
  const r = splitByPartition(task);
  const outputs = splitBuffers(r.columns);
  if (r.columns !== task.columns) keep(splitBuffers(task.columns));
  return move({ [transferableSymbol]: [...outputs, r.starts.buffer], [valueSymbol]: r });
}
