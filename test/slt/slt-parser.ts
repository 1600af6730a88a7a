/**
 * Parses our sqllogictest dialect (../shared/HABITS.md, "sqllogictest dialect") into records.
 *
 *   # name: select/arith.slt          header; `# lakegate: pending <reason>` runs the file only under PG_COMPAT
 *   skipif pg | onlyif pg | onlyif lakegate | skipif lakegate   (before a record; several allowed)
 *   statement ok | statement count N | statement error [pgcode XXXXX] [position N] [regex]
 *   query <types> [nosort|rowsort|valuesort] [colnames]   then SQL, `----`, expected rows
 *   query error [pgcode XXXXX] [position N] [regex]
 *   hash-threshold N | halt
 * A blank line ends a record; `#` lines are comments.
 * @see https://sqlite.org/sqllogictest/doc/trunk/about.wiki
 */

export type SortMode = 'nosort' | 'rowsort' | 'valuesort';

export interface Conditions {
  readonly skipif: readonly string[];
  readonly onlyif: readonly string[];
}

export interface ExpectedError {
  readonly pgcode: string | null;
  readonly position: number | null;
  /** regex searched in the error message, or null */
  readonly message: string | null;
}

interface RecordBase extends Conditions {
  /** 1-based line of the record's first line (the conditions are above it) */
  readonly line: number;
}

export type SltRecord =
  | (RecordBase & { readonly kind: 'statement'; readonly sql: string; readonly expect: { readonly ok: true } | { readonly count: number } | { readonly error: ExpectedError } })
  | (RecordBase & {
      readonly kind: 'query';
      readonly sql: string;
      readonly types: string;
      readonly sort: SortMode;
      readonly colnames: boolean;
      /** expected lines after `----` (empty if no `----`) */
      readonly expected: readonly string[];
      readonly hasSeparator: boolean;
      /** 0-based line range [start, end) in the source of the expected block, for --complete */
      readonly expectedRange: readonly [number, number];
      /** 0-based index of the last SQL line, where `----` goes if missing */
      readonly sqlEnd: number;
    })
  | (RecordBase & { readonly kind: 'query-error'; readonly sql: string; readonly error: ExpectedError })
  | (RecordBase & { readonly kind: 'hash-threshold'; readonly threshold: number })
  | (RecordBase & { readonly kind: 'halt' });

export interface SltFile {
  readonly path: string;
  readonly name: string | null;
  /** reason given in `# lakegate: pending <reason>`, or null */
  readonly pending: string | null;
  readonly records: readonly SltRecord[];
  readonly lines: readonly string[];
}

export class SltParseError extends Error {}

function parseError(path: string, line: number, msg: string): SltParseError {
  return new SltParseError(`${path}:${line}: ${msg}`);
}

/** `[pgcode X] [position N] [regex…]` after `statement error` / `query error`. */
function parseExpectedError(rest: string): ExpectedError {
  let s = rest.trim();
  let pgcode: string | null = null;
  let position: number | null = null;
  const code = /^pgcode\s+([0-9A-Z]{5})\b\s*/.exec(s);
  if (code) {
    pgcode = code[1] ?? null;
    s = s.slice(code[0].length);
  }
  const pos = /^position\s+(\d+)\b\s*/.exec(s);
  if (pos) {
    position = Number(pos[1]);
    s = s.slice(pos[0].length);
  }
  return { pgcode, position, message: s.length > 0 ? s : null };
}

export function parseSlt(text: string, path: string): SltFile {
  const lines = text.split('\n');
  const records: SltRecord[] = [];
  let name: string | null = null;
  let pending: string | null = null;
  let skipif: string[] = [];
  let onlyif: string[] = [];
  let i = 0;

  const blank = (l: string | undefined): boolean => l === undefined || l.trim() === '';
  /** SQL lines from i until a blank line or `----`. */
  const readSql = (): { sql: string; end: number } => {
    const start = i;
    while (i < lines.length && !blank(lines[i]) && lines[i] !== '----') i++;
    return { sql: lines.slice(start, i).join('\n'), end: i - 1 };
  };

  while (i < lines.length) {
    const raw = lines[i] ?? '';
    const line = raw.trim();
    const lineNo = i + 1;
    if (line === '') {
      i++;
      continue;
    }
    if (line.startsWith('#')) {
      const header = /^#\s*name:\s*(.*)$/.exec(line);
      if (header && name === null) name = header[1]?.trim() ?? '';
      const pend = /^#\s*lakegate:\s*pending\b\s*(.*)$/.exec(line);
      if (pend) pending = pend[1]?.trim() || 'pending';
      i++;
      continue;
    }
    const words = line.split(/\s+/);
    const head = words[0];
    const cond = { skipif, onlyif, line: lineNo };
    if (head === 'skipif' || head === 'onlyif') {
      const target = words[1];
      if (!target) throw parseError(path, lineNo, `${head} needs a target`);
      (head === 'skipif' ? skipif : onlyif).push(target);
      i++;
      continue;
    }
    i++;
    if (head === 'statement') {
      const mode = words[1];
      const rest = line.replace(/^statement\s+\S+\s*/, '');
      const { sql } = readSql();
      if (!sql) throw parseError(path, lineNo, 'statement without SQL');
      if (mode === 'ok') records.push({ ...cond, kind: 'statement', sql, expect: { ok: true } });
      else if (mode === 'count') {
        const n = Number(words[2]);
        if (!Number.isInteger(n)) throw parseError(path, lineNo, 'statement count needs a number');
        records.push({ ...cond, kind: 'statement', sql, expect: { count: n } });
      } else if (mode === 'error') records.push({ ...cond, kind: 'statement', sql, expect: { error: parseExpectedError(rest) } });
      else throw parseError(path, lineNo, `unknown statement mode "${mode}"`);
    } else if (head === 'query') {
      if (words[1] === 'error') {
        const { sql } = readSql();
        records.push({ ...cond, kind: 'query-error', sql, error: parseExpectedError(line.replace(/^query\s+error\s*/, '')) });
      } else {
        const types = words[1] ?? '';
        if (!/^[ITRBD]+$/.test(types)) throw parseError(path, lineNo, `bad query types "${types}" (letters ITRBD)`);
        let sort: SortMode = 'nosort';
        let colnames = false;
        for (const w of words.slice(2)) {
          if (w === 'nosort' || w === 'rowsort' || w === 'valuesort') sort = w;
          else if (w === 'colnames') colnames = true;
          else if (w.startsWith('label')) continue; // sqlite label-x, ignored
          else throw parseError(path, lineNo, `unknown query option "${w}"`);
        }
        const { sql, end } = readSql();
        if (!sql) throw parseError(path, lineNo, 'query without SQL');
        let hasSeparator = false;
        const expected: string[] = [];
        let start = i;
        if (lines[i] === '----') {
          hasSeparator = true;
          i++;
          start = i;
          while (i < lines.length && !blank(lines[i])) {
            expected.push(lines[i] ?? '');
            i++;
          }
        }
        const stop = start + expected.length;
        records.push({ ...cond, kind: 'query', sql, types, sort, colnames, expected, hasSeparator, expectedRange: [start, stop], sqlEnd: end });
      }
    } else if (head === 'hash-threshold') {
      records.push({ ...cond, kind: 'hash-threshold', threshold: Number(words[1] ?? 0) });
    } else if (head === 'halt') {
      records.push({ ...cond, kind: 'halt' });
    } else {
      throw parseError(path, lineNo, `unknown record "${head}"`);
    }
    skipif = [];
    onlyif = [];
  }
  return { path, name, pending, records, lines };
}
