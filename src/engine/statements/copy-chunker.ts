/**
 * CopyChunker: COPY FROM STDIN text/csv CopyData payloads → chunks of whole records, the unit the decode
 * workers take (copy-parallel-decoder.ts). The main thread only copies payloads into the chunk being filled
 * and, once it holds `target` bytes, cuts it after its last record end: the last newline (text format: a
 * newline always ends a record) or, for csv, the last newline outside quotes (a quoted field may hold
 * newlines; inside quotes ESCAPE followed by QUOTE or ESCAPE is data, as copy-typed-decoder.ts reads it).
 * Each chunk owns its ArrayBuffer, so it can be transferred to a worker without a copy.
 * @see https://www.postgresql.org/docs/current/sql-copy.html#id-1.9.3.55.9.3
 */

/** bytes a chunk buffer holds beyond its target (the payload that crosses it) */
const SLACK = 64 * 1024;

export class CopyChunker {
  private buf: Uint8Array;
  private len = 0;
  /** bytes to hold before the next cut is tried (grows when a record is longer than a chunk) */
  private need: number;

  /** `quote` / `escape`: csv only (-1 for text) */
  constructor(private readonly csv: boolean, private readonly quote: number, private readonly escape: number, private target: number) {
    this.buf = new Uint8Array(target + SLACK);
    this.need = target;
  }

  /** the chunk size aimed at from now on */
  setTarget(bytes: number): void {
    this.target = bytes;
    this.need = bytes;
  }

  /** appends one payload; returns a chunk of whole records once `target` bytes are held, else null */
  push(payload: Uint8Array): Uint8Array | null {
    const end = this.len + payload.length;
    if (end > this.buf.length) {
      const grown = new Uint8Array(Math.max(end + SLACK, this.buf.length * 2));
      grown.set(this.buf.subarray(0, this.len));
      this.buf = grown;
    }
    this.buf.set(payload, this.len);
    this.len = end;
    if (end < this.need) return null;
    const held = this.buf.subarray(0, end);
    const cut = this.csv ? csvRecordsEnd(held, this.quote, this.escape) : held.lastIndexOf(10) + 1;
    if (cut === 0) {
      // one record longer than the chunk: wait for its end
      this.need = end * 2;
      return null;
    }
    this.need = this.target;
    const chunk = this.buf.subarray(0, cut);
    const rest = end - cut;
    const next = new Uint8Array(Math.max(this.target + SLACK, rest + SLACK));
    next.set(this.buf.subarray(cut, end));
    this.buf = next;
    this.len = rest;
    return chunk;
  }

  /** the bytes left at the end of the input (the last record may lack its newline); null when none */
  end(): Uint8Array | null {
    if (this.len === 0) return null;
    const chunk = this.buf.subarray(0, this.len);
    this.buf = new Uint8Array(0);
    this.len = 0;
    return chunk;
  }
}

/**
 * csv: the index after the last newline of `b` that is outside quotes (0 when there is none). Quotes are
 * found with indexOf (native); `b` must start outside quotes (at a record start).
 */
export function csvRecordsEnd(b: Uint8Array, quote: number, escape: number): number {
  const len = b.length;
  let last = -1;
  let i = 0;
  for (;;) {
    // outside quotes: up to the next quote, every newline ends a record
    let q = b.indexOf(quote, i);
    if (q < 0) q = len;
    if (q > i) {
      const nl = b.lastIndexOf(10, q - 1);
      if (nl >= i) last = nl;
    }
    if (q === len) return last + 1;
    i = q + 1;
    // inside quotes: to the closing quote (a doubled quote closes and opens again)
    if (escape === quote) {
      const c = b.indexOf(quote, i);
      if (c < 0) return last + 1;
      i = c + 1;
      continue;
    }
    for (;;) {
      if (i >= len) return last + 1;
      const c = b[i]!;
      if (c === escape && i + 1 < len && (b[i + 1] === quote || b[i + 1] === escape)) i += 2;
      else if (c === quote) {
        i++;
        break;
      } else i++;
    }
  }
}
