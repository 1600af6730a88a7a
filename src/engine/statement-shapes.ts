/**
 * StatementShapes: simple-protocol SELECTs that differ from a statement parsed before only in the digits of
 * integer constants (`… WHERE id = 17`, then `… WHERE id = 18`) reuse that statement's parse tree and
 * literal-normalised shape (literal-params.ts) without running the parser: a new text cost ~16 µs of
 * libpg-query parse plus ~7 µs of normalisation (measured), more than executing a cached lookup.
 *
 * Why this is safe: a small lexer splits the text into integer tokens and everything else (the skeleton).
 * Two texts with the same skeleton give PostgreSQL's lexer the same token sequence except the values of
 * those integer constants. A learned shape keeps, for each constant the normaliser lifted into a `$n`, the
 * integer token it came from (matched by source location and text); every other integer token (LIMIT 10,
 * `x + 1`, a cast's argument, `-5`'s digits) must be equal in the new text. The lifted constants are
 * comparison operands in WHERE / JOIN ON, where PostgreSQL's grammar accepts an integer of any size
 * (ICONST or FCONST), so only their values change — and their types, taken by PostgreSQL's rule (int4 when
 * it fits, else int8, else numeric). Texts the lexer does not fully understand are never shaped: `$`
 * (parameters, dollar quotes), backslashes (E'' strings), comments, non-ASCII characters (AST locations are
 * bytes), numbers with dots, exponents, underscores or letters.
 *
 * A shaped statement carries the learned statement's AST, valid only for kind checks: its constants are the
 * old text's. The session binds it through the normalised shape, and parses it for real when that fails
 * (isShaped).
 */
import type { ParsedStatement } from '../sql/index.ts';
import { Oid } from '../common/pgtypes/oids.ts';
import { LruCache } from './lru-cache.ts';
import type { LiftedLiteral, LiteralNormalised } from './literal-params.ts';

/** a text cut into its integer tokens and the rest */
interface Lexed {
  /** the text with each integer token replaced by \u0000 */
  readonly skeleton: string;
  readonly tokens: readonly string[];
  readonly starts: readonly number[];
}

interface Shape {
  readonly statement: ParsedStatement;
  readonly norm: LiteralNormalised;
  /** per lifted literal: the index of the integer token it takes its value from, or -1 (constant) */
  readonly slots: readonly number[];
  /** integer tokens no literal takes: their text must be equal */
  readonly fixed: readonly (string | null)[];
}

const INT4_MAX = 2147483647n;
const INT8_MAX = 2n ** 63n - 1n;

/** PostgreSQL's type of an unsigned integer literal: int4, int8 when it does not fit, else numeric */
export function integerLiteralOid(digits: string): number {
  const v = BigInt(digits);
  return v <= INT4_MAX ? Oid.int4 : v <= INT8_MAX ? Oid.int8 : Oid.numeric;
}

const isIdentChar = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;

/** the integer tokens of `sql`, or null when the text holds anything the lexer does not handle */
export function lexIntegers(sql: string): Lexed | null {
  // a backslash may escape a quote (E'', standard_conforming_strings = off): quotes would no longer pair up
  // non-ASCII anywhere: AST locations are bytes, token starts characters
  // eslint-disable-next-line no-control-regex
  if (sql.includes('\\') || /[^\x00-\x7e]/.test(sql)) return null;
  const tokens: string[] = [], starts: number[] = [];
  let skeleton = '', from = 0;
  for (let i = 0; i < sql.length;) {
    const c = sql.charCodeAt(i);
    if (c === 36 /* $ */) return null;
    if ((c === 45 /* - */ && sql.charCodeAt(i + 1) === 45) || (c === 47 /* / */ && sql.charCodeAt(i + 1) === 42)) return null;
    if (c === 39 /* ' */ || c === 34 /* " */) {
      // a quoted string or identifier: doubled quotes stay inside
      let j = i + 1;
      for (;;) {
        const k = sql.indexOf(String.fromCharCode(c), j);
        if (k < 0) return null;
        if (sql.charCodeAt(k + 1) === c) j = k + 2;
        else {
          i = k + 1;
          break;
        }
      }
      continue;
    }
    if (isIdentChar(c) || c === 46 /* . */) {
      let j = i + 1;
      while (j < sql.length && (isIdentChar(sql.charCodeAt(j)) || sql.charCodeAt(j) === 46)) j++;
      const word = sql.slice(i, j);
      if (c >= 48 && c <= 57 && /^\d+$/.test(word)) {
        skeleton += `${sql.slice(from, i)}\u0000`;
        from = j;
        tokens.push(word);
        starts.push(i);
      } else if (/^\.?\d/.test(word) || /\.\d/.test(word)) {
        return null; // 1.5, .5, 1e5, 0x1F, 1_000: not handled
      }
      i = j;
      continue;
    }
    i++;
  }
  return { skeleton: skeleton + sql.slice(from), tokens, starts };
}

/** a statement's text as parseSql cuts it from a one-statement submission: no surrounding blanks or `;` */
const statementText = (sql: string): string => sql.trim().replace(/;\s*$/, '').trimEnd();

export class StatementShapes {
  private readonly shapes = new LruCache<string, Shape>(256);
  /** statements lookup made, with their normalised shape (their AST cannot give it: other constants) */
  private readonly shaped = new WeakMap<ParsedStatement, LiteralNormalised>();

  /** the statement and normalised shape of `sql` from a learned shape, or undefined */
  lookup(sql: string): { readonly statement: ParsedStatement; readonly norm: LiteralNormalised } | undefined {
    const lexed = lexIntegers(sql);
    if (lexed === null) return undefined;
    const shape = this.shapes.get(lexed.skeleton);
    if (shape === undefined) return undefined;
    for (let k = 0; k < shape.fixed.length; k++) {
      const f = shape.fixed[k];
      if (f !== null && f !== lexed.tokens[k]) return undefined;
    }
    const literals: LiftedLiteral[] = shape.norm.literals.map((l, i) => {
      const slot = shape.slots[i]!;
      if (slot < 0) return l;
      const text = lexed.tokens[slot]!;
      return { text, oid: integerLiteralOid(text), location: lexed.starts[slot]! };
    });
    const statement: ParsedStatement = { ast: shape.statement.ast, text: statementText(sql), location: shape.statement.location };
    const norm: LiteralNormalised = { ast: shape.norm.ast, key: shape.norm.key, literals };
    this.shaped.set(statement, norm);
    return { statement, norm };
  }

  /** remembers the shape of a one-statement SELECT `sql` just parsed into `statement`; `normalised` gives its shape */
  learn(sql: string, statement: ParsedStatement, normalised: () => LiteralNormalised | null): void {
    const lexed = lexIntegers(sql);
    if (lexed === null || lexed.tokens.length === 0 || statement.text !== statementText(sql)) return;
    const norm = normalised();
    if (norm === null) return;
    const byStart = new Map(lexed.starts.map((s, k) => [s, k]));
    const fixed: (string | null)[] = [...lexed.tokens];
    const slots: number[] = [];
    for (const l of norm.literals) {
      const k = l.location === undefined ? undefined : byStart.get(l.location);
      if (k === undefined) {
        slots.push(-1); // a quoted string, a negative number…: part of the skeleton
        continue;
      }
      // the token must be the literal exactly as PostgreSQL reads it (no leading zeros, same type rule), once
      if (lexed.tokens[k] !== l.text || integerLiteralOid(l.text) !== l.oid || fixed[k] === null) return;
      slots.push(k);
      fixed[k] = null;
    }
    if (!slots.some((s) => s >= 0)) return;
    this.shapes.set(lexed.skeleton, { statement, norm, slots, fixed });
  }

  /** whether `statement` came from lookup (its AST holds another text's constants) */
  isShaped(statement: ParsedStatement): boolean {
    return this.shaped.has(statement);
  }

  /** the normalised shape of a statement lookup made (its constants), else undefined */
  normOf(statement: ParsedStatement): LiteralNormalised | undefined {
    return this.shaped.get(statement);
  }
}
