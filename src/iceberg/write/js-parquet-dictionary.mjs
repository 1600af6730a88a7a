// Dictionaries of one Parquet column chunk for the JS Parquet writer: each distinct value gets a code in order
// of first appearance (the dictionary page lists them in that order), by open addressing over typed arrays —
// no JS object per value. Fixed-width values are 1, 2 or 4 32-bit words (INT32, INT64, a 128-bit decimal);
// strings are UTF-8 byte ranges. `add` gives up (returns false) once the dictionary page would pass `limitBytes`,
// and the chunk is then written PLAIN (arrow-rs's fallback, taken here for the whole chunk).
// Plain JS (loaded by the encode worker without tsx).

const GOLDEN = 0x9e3779b1 | 0;

function mix(h) {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/** signed order of two values of `kw` words (the top word signed, the others unsigned) */
export function compareWords(a, ai, b, bi, kw) {
  const ta = a[ai + kw - 1];
  const tb = b[bi + kw - 1];
  if (ta !== tb) return ta < tb ? -1 : 1;
  for (let k = kw - 2; k >= 0; k--) {
    const x = a[ai + k] >>> 0;
    const y = b[bi + k] >>> 0;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/** direct-index window of FixedDictionary: code + 1 per value base … base + WINDOW − 1 (0: not seen yet) */
const WINDOW = 1 << 16;
/** one per thread, shared by the dictionaries built one after the other (each clears its slots: `release`) */
const DIRECT = new Int32Array(WINDOW);

/** whether the `kw`-word value at w[p] is its low word sign-extended (a decimal or int64 that fits 32 bits) */
function narrow(w, p, kw) {
  const s = w[p] >> 31;
  for (let k = 1; k < kw; k++) if (w[p + k] !== s) return false;
  return true;
}

export class FixedDictionary {
  /** `kw`: words per value; `valueBytes`: bytes per value in the dictionary page */
  constructor(kw, valueBytes, limitBytes) {
    this.kw = kw;
    this.limit = Math.floor(limitBytes / valueBytes);
    this.entries = new Int32Array(1024 * kw);
    this.size = 0;
    this.table = new Int32Array(2048);
    /** the value `direct` slot 0 stands for (set by the first value), NaN until then */
    this.base = NaN;
  }

  hash(w, at) {
    let h = w[at];
    for (let k = 1; k < this.kw; k++) h = Math.imul(h ^ w[at + k], GOLDEN) + k;
    return mix(h);
  }

  grow() {
    const kw = this.kw;
    if (this.size * kw >= this.entries.length) {
      const e = new Int32Array(this.entries.length * 2);
      e.set(this.entries);
      this.entries = e;
    }
    if (this.size * 2 >= this.table.length) {
      const t = new Int32Array(this.table.length * 2);
      const mask = t.length - 1;
      for (let c = 0; c < this.size; c++) {
        let s = this.hash(this.entries, c * kw) & mask;
        while (t[s] !== 0) s = (s + 1) & mask;
        t[s] = c + 1;
      }
      this.table = t;
    }
  }

  /** clears this dictionary's slots of the thread's DIRECT table (call once its `add`s are done) */
  release() {
    if (this.base !== this.base) return;
    const kw = this.kw;
    const e = this.entries;
    for (let c = 0; c < this.size; c++) {
      if (kw !== 1 && !narrow(e, c * kw, kw)) continue;
      const d = e[c * kw] - this.base;
      if (d >= 0 && d < WINDOW) DIRECT[d] = 0;
    }
    this.base = NaN;
  }

  /**
   * codes of the non-null rows [from, to) of a column held as `stride` words per row in `w`, appended to
   * codes[at…]. Values within WINDOW of the first one (dates, small keys, low-cardinality decimals: every
   * dictionary column of TPC-H lineitem) find their code by direct index instead of hashing (that path was
   * 10 % of the encode thread); they never enter the hash table, which only values outside the window probe.
   * Returns the next free position, or -1 when the dictionary passed its limit.
   */
  add(w, stride, validity, from, to, codes, at) {
    const kw = this.kw;
    const direct = DIRECT;
    for (let i = from; i < to; i++) {
      if (validity !== null && ((validity[i >> 3] >> (i & 7)) & 1) === 0) continue;
      const p = i * stride;
      const v = w[p];
      if (kw === 1 || narrow(w, p, kw)) {
        if (this.base !== this.base) this.base = v - (WINDOW >> 1);
        const d = v - this.base;
        if (d >= 0 && d < WINDOW) {
          let c = direct[d];
          if (c === 0) {
            if (this.size >= this.limit) return -1;
            c = ++this.size;
            this.entries.set(w.subarray(p, p + kw), (c - 1) * kw);
            direct[d] = c;
            if (this.size * 2 >= this.table.length || this.size * kw >= this.entries.length) this.grow();
          }
          codes[at++] = c - 1;
          continue;
        }
      }
      let mask = this.table.length - 1;
      let s = this.hash(w, p) & mask;
      let code = -1;
      for (;;) {
        const e = this.table[s];
        if (e === 0) break;
        const q = (e - 1) * kw;
        let same = true;
        for (let k = 0; k < kw; k++) if (this.entries[q + k] !== w[p + k]) { same = false; break; }
        if (same) { code = e - 1; break; }
        s = (s + 1) & mask;
      }
      if (code < 0) {
        if (this.size >= this.limit) return -1;
        code = this.size++;
        this.entries.set(w.subarray(p, p + kw), code * kw);
        this.table[s] = code + 1;
        if (this.size * 2 >= this.table.length || this.size * kw >= this.entries.length) this.grow();
        mask = this.table.length - 1;
      }
      codes[at++] = code;
    }
    return at;
  }
}

/** unsigned byte order of two byte ranges (UTF-8 → code point order) */
export function compareBytes(a, a0, a1, b, b0, b1) {
  const n = Math.min(a1 - a0, b1 - b0);
  for (let k = 0; k < n; k++) {
    const d = a[a0 + k] - b[b0 + k];
    if (d !== 0) return d;
  }
  return (a1 - a0) - (b1 - b0);
}

/** slots of BytesDictionary's `recent` codes (a power of two) */
const RECENT_SLOTS = 1024;

export class BytesDictionary {
  constructor(limitBytes) {
    this.limit = limitBytes;
    this.pageBytes = 0;
    this.data = new Uint8Array(1 << 16);
    this.dataLen = 0;
    this.offsets = new Int32Array(1025);
    this.size = 0;
    this.table = new Int32Array(2048);
    this.recent = new Int32Array(RECENT_SLOTS);
  }

  static hash(b, s, e) {
    let h = 0x811c9dc5 ^ (e - s);
    for (let k = s; k < e; k++) h = Math.imul(h ^ b[k], 0x01000193);
    return mix(h);
  }

  grow() {
    if (this.size + 1 >= this.offsets.length) {
      const o = new Int32Array(this.offsets.length * 2);
      o.set(this.offsets);
      this.offsets = o;
    }
    if (this.size * 2 >= this.table.length) {
      const t = new Int32Array(this.table.length * 2);
      const mask = t.length - 1;
      for (let c = 0; c < this.size; c++) {
        let s = BytesDictionary.hash(this.data, this.offsets[c], this.offsets[c + 1]) & mask;
        while (t[s] !== 0) s = (s + 1) & mask;
        t[s] = c + 1;
      }
      this.table = t;
    }
  }

  /** as FixedDictionary.release */
  release() {}

  /**
   * as FixedDictionary.add, for the UTF-8 column (offsets, data). Each value first tries the code last seen
   * with its length, first and last byte (`recent`), checked byte by byte: a low-cardinality column (flags,
   * ship modes) then skips hashing every byte of every value, which was 12–17 % of the encode thread.
   */
  add(offsets, data, validity, from, to, codes, at) {
    const recent = this.recent;
    // the entries as locals for the guesses (re-read after an insertion, which may replace them)
    let known = this.offsets;
    let knownData = this.data;
    for (let i = from; i < to; i++) {
      if (validity !== null && ((validity[i >> 3] >> (i & 7)) & 1) === 0) continue;
      const s0 = offsets[i];
      const s1 = offsets[i + 1];
      const len = s1 - s0;
      const slot = len === 0 ? 0 : (Math.imul(len, 0x9e37) ^ (data[s0] << 4) ^ data[s1 - 1]) & (RECENT_SLOTS - 1);
      const guess = recent[slot] - 1;
      if (guess >= 0 && known[guess + 1] - known[guess] === len) {
        const q0 = known[guess];
        let k = 0;
        while (k < len && knownData[q0 + k] === data[s0 + k]) k++;
        if (k === len) {
          codes[at++] = guess;
          continue;
        }
      }
      const mask = this.table.length - 1;
      let s = BytesDictionary.hash(data, s0, s1) & mask;
      let code = -1;
      for (;;) {
        const e = this.table[s];
        if (e === 0) break;
        const q0 = this.offsets[e - 1];
        if (this.offsets[e] - q0 === len) {
          let k = 0;
          while (k < len && this.data[q0 + k] === data[s0 + k]) k++;
          if (k === len) { code = e - 1; break; }
        }
        s = (s + 1) & mask;
      }
      if (code < 0) {
        this.pageBytes += 4 + len;
        if (this.pageBytes > this.limit) return -1;
        if (this.dataLen + len > this.data.length) {
          const d = new Uint8Array(Math.max(this.data.length * 2, this.dataLen + len));
          d.set(this.data.subarray(0, this.dataLen));
          this.data = d;
        }
        this.data.set(data.subarray(s0, s1), this.dataLen);
        this.dataLen += len;
        code = this.size++;
        this.offsets[code + 1] = this.dataLen;
        this.table[s] = code + 1;
        if (this.size * 2 >= this.table.length || this.size + 1 >= this.offsets.length) this.grow();
        known = this.offsets;
        knownData = this.data;
      }
      recent[slot] = code + 1;
      codes[at++] = code;
    }
    return at;
  }
}
