/**
 * COPY FROM's clean-record loop generated once per table schema (new Function over the parser templates of
 * copy-field-scanners.ts). The decoder's own clean path (copy-typed-decoder.ts cleanRecord) walks a record twice —
 * once to its newline watching for a quote, then field by field — and calls each column's scanner through one call
 * site (`sink.scan`) that sees 16 different functions per lineitem row (megamorphic: nothing inlined). This loop
 * reads a record once: every column's parser is inlined in column order, each field must end at the delimiter
 * (the last one at the newline, or be a simply quoted last field), and the values are kept in locals until the
 * record is complete; only then are they appended, each to its column's builder through a call site of its own.
 * A record it cannot read so — incomplete, a quote or backslash where cleanRecord would not take it, a NULL it
 * does not know, a spelling the parsers refuse, too few or too many fields, a possible end marker — is left
 * untouched: the loop returns its start, the decoder reads it with cleanRecord or the general readers (which give
 * the errors and their order), then calls the loop again.
 */
import type { CopyColumnSink, LoopColumn } from './copy-column-sinks.ts';
import { SCANNER_HELPERS } from './copy-field-scanners.ts';
import { BoundedMemo } from '../../common/bounded-memo.ts';

/** what the generated loop reads and updates on the decoder (copy-typed-decoder.ts) */
export interface CleanRecordHost {
  /** records read so far: the line errors name */
  line: number;
  /** rows of the current batch */
  rows: number;
  cleanDecoded: number;
  cleanTried: number;
  /** the decoder tries only every 16th record on the clean path: the loop returns after a batch to let it */
  readonly cleanRarely: boolean;
  /** the row just decoded filled the batch: hand it over and start the next (every sink gets a new builder) */
  batchDone(): void;
}

/** decodes the clean records of buf[pos, len); returns where the first record it did not decode starts */
export type CleanRecordLoop = (host: CleanRecordHost, buf: Uint8Array, pos: number, len: number) => number;

export interface CleanLoopShape {
  readonly csv: boolean;
  readonly delimiter: number;
  readonly quote: number;
  readonly escape: number;
  /** per column: FORCE_NULL / FORCE_NOT_NULL (csv) */
  readonly forceNull: readonly boolean[];
  readonly forceNotNull: readonly boolean[];
  readonly batchRows: number;
}

type LoopFactory = (sinks: readonly CopyColumnSink[]) => CleanRecordLoop;

/**
 * compiled loops by source: a decoder per COPY (and per chunk on the decode workers) reuses the one function of
 * its schema, so V8 optimizes it once. Bounded: schemas come from users.
 */
const factories = new BoundedMemo<string, LoopFactory>(64);

function loopFactory(source: string): LoopFactory {
  const helpers = Object.keys(SCANNER_HELPERS);
  const make = new Function(...helpers, 'sinks', source) as (...args: unknown[]) => CleanRecordLoop;
  return (s) => make(...helpers.map((k) => SCANNER_HELPERS[k]), s);
}

/**
 * the loop for these sinks (one per target column, as built by the decoder), or null when a column has no typed
 * builder. The delimiter must not be a byte of a number's or a date's spelling (the decoder then splits first).
 */
export function compileCleanRecordLoop(shape: CleanLoopShape, sinks: readonly CopyColumnSink[]): CleanRecordLoop | null {
  const columns: LoopColumn[] = [];
  for (const s of sinks) {
    const col = s.loopColumn;
    if (col === null) return null;
    columns.push(col);
  }
  if (columns.length === 0) return null;
  return factories.get(loopSource(shape, sinks, columns), loopFactory)(sinks);
}

/** the factory's body: the sinks in locals, then the loop */
function loopSource(shape: CleanLoopShape, sinks: readonly CopyColumnSink[], columns: readonly LoopColumn[]): string {
  const { csv, delimiter, batchRows } = shape;
  const special = csv ? shape.quote : 92;
  const n = sinks.length;
  const all = Array.from({ length: n }, (_, c) => c);
  /** csv: an empty unquoted field is the NULL string '' (except under FORCE_NOT_NULL) */
  const mayBeNull = (c: number): boolean => csv && !shape.forceNotNull[c]!;
  const parses = all.map((c) => `s${c}.parses`).join(' && ');
  const reload = all.map((c) => `b${c} = s${c}.current;`).join(' ');
  const locals = all.map((c) => {
    const col = columns[c]!;
    const value = col.kind === 'value' ? `v${c} = 0` : `t${c} = 0, u${c} = 0${col.pad ? `, pad${c} = 0` : ''}`;
    return `let ${value}, z${c} = false;`;
  }).join(' ');
  /** a string field's characters [from, to) within its column's length (else the record is left), padding noted */
  const textLength = (c: number, from: string, to: string): string => {
    const col = columns[c]!;
    if (col.kind !== 'text' || col.maxChars < 0) return '';
    return `{
        let chars = ${to} - ${from};
        if (high >= 0x80${col.pad ? '' : ` && chars > ${col.maxChars}`}) {
          chars = 0;
          for (let k = ${from}; k < ${to}; k++) if ((buf[k] & 0xc0) !== 0x80) chars++;
        }
        if (chars > ${col.maxChars}) return start;
        ${col.pad ? `pad${c} = ${col.maxChars} - chars;` : ''}
      }`;
  };
  /** a field before the last one: it ends at the delimiter */
  const field = (c: number): string => {
    const col = columns[c]!;
    const read = col.kind === 'value'
      ? `${col.parser.parse({ src: 'buf', start: 'p', end: 'len', delimiter: String(delimiter), result: 'fe', value: `v${c}`, builder: '' })}
      if (fe < 0 || fe >= len) return start;`
      : `fe = p;
      let high = 0;
      for (; fe < len; fe++) {
        const x = buf[fe];
        if (x === ${delimiter} || x === 10 || x === ${special}) break;
        high |= x;
      }
      if (fe >= len || buf[fe] !== ${delimiter}) return start;
      t${c} = p;
      u${c} = fe;
      ${textLength(c, 'p', 'fe')}`;
    const body = `{
      ${read}
      p = fe + 1;
    }`;
    return `
    // column ${c}
    ${mayBeNull(c) ? `z${c} = p < len && buf[p] === ${delimiter};
    if (z${c}) p++;
    else ` : ''}${body}`;
  };
  /** the last field: it ends at the newline (a trailing \r is not data), or is "…" with nothing inside to undo */
  const last = (c: number): string => {
    const col = columns[c]!;
    const quoted = csv
      ? `if (fe !== p) return start;
      let k = fe + 1;
      high = 0;
      for (; k < len; k++) {
        const x = buf[k];
        if (x === ${shape.quote} || x === ${shape.escape} || x === 10) break;
        high |= x;
      }
      if (k + 1 >= len || buf[k] !== ${shape.quote} || buf[k + 1] !== 10) return start;
      fs = fe + 1;
      fend = k;
      nl = k + 1;
      ${shape.forceNull[c]! ? `z${c} = fend === fs;` : `z${c} = false;`}`
      : 'return start;';
    const read = col.kind === 'value'
      ? `${col.parser.parse({ src: 'buf', start: 'fs', end: 'fend', delimiter: '-1', result: 'fe', value: `v${c}`, builder: '' })}
      if (fe < 0) return start;`
      : `t${c} = fs;
      u${c} = fend;
      ${textLength(c, 'fs', 'fend')}`;
    return `
    // column ${c}, the last
    fe = p;
    let high = 0;
    for (; fe < len; fe++) {
      const x = buf[fe];
      if (x === 10 || x === ${delimiter} || x === ${special}) break;
      high |= x;
    }
    if (fe >= len || buf[fe] === ${delimiter}) return start;
    let nl = fe;
    let fs = p;
    let fend = fe;
    if (buf[fe] === 10) {
      if (fe > p && buf[fe - 1] === 13) fend = fe - 1;
      z${c} = ${mayBeNull(c) ? 'fend === p' : 'false'};
    } else {
      ${quoted}
    }
    if (!z${c}) {
      ${read}
    }`;
  };
  const append = (c: number): string => {
    const col = columns[c]!;
    const put = col.kind === 'value' ? col.parser.append(`b${c}`, `v${c}`) : `b${c}.appendBytes(buf, t${c}, u${c}${col.pad ? `, pad${c}` : ''});`;
    return `
      if (z${c}) s${c}.appendNull();
      else ${put}`;
  };
  return `
  ${all.map((c) => `const s${c} = sinks[${c}];`).join(' ')}
  return function readCleanRecords(host, buf, pos, len) {
    ${all.map((c) => `let b${c} = s${c}.current;`).join(' ')}
    // a column that turned to JS values in this batch: the decoder's path until the batch ends
    if (!(${parses})) return pos;
    ${locals}
    while (pos < len) {
      const start = pos;
      ${csv ? '// maybe the end marker `\\.`: the decoder\'s own path\n      if (buf[start] === 92) return start;' : ''}
      let p = start;
      /** the end of the field just read (-1: the parser refused it) */
      let fe = -1;
      ${all.slice(0, n - 1).map(field).join('')}
      ${last(n - 1)}
      host.cleanTried++;
      host.line++;
      ${all.map(append).join('')}
      host.cleanDecoded++;
      pos = nl + 1;
      if (++host.rows === ${batchRows}) {
        host.batchDone();
        ${reload}
        if (host.cleanRarely || !(${parses})) return pos;
      }
    }
    return pos;
  };`;
}
