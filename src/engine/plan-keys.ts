/**
 * PlanKeys: the keys of a session's plan cache. A bound plan is valid for one catalog version (the server's
 * plus the session's own staged changes) and one search_path, so both lead the key; the rest names the
 * statement — its text, a Parse's parameter types and text, or a literal-normalised shape (literal-params.ts).
 * Keys of repeated statements are kept per parsed statement or shape, so a repeated statement builds and
 * hashes no new key string.
 */
import type { ParsedStatement } from '../sql/index.ts';
import type { LiteralNormalised } from './literal-params.ts';

/** what the keys depend on: both read on every lookup */
export interface PlanKeyScope {
  /** grows whenever bound plans may have become stale */
  readonly planVersion: number;
  /** the session's search_path setting text */
  searchPathText(): string;
}

interface Kept {
  readonly version: number;
  readonly searchPath: string;
  readonly key: string;
}

export class PlanKeys {
  private readonly kept = new WeakMap<object, Kept>();

  constructor(private readonly scope: PlanKeyScope) {}

  /** the key of a statement named by `rest`, valid for this catalog version and search_path */
  of(rest: string): string {
    return `${this.scope.planVersion}\u0000${this.scope.searchPathText()}\u0000${rest}`;
  }

  /** the key of a literal-normalised shape (its text is long: a fresh key would be hashed whole each time) */
  ofShape(norm: LiteralNormalised): string {
    return this.keptFor(norm, shapeKeyText);
  }

  /** the key of a statement's text */
  ofText(stmt: ParsedStatement): string {
    return this.keptFor(stmt, statementText);
  }

  /** the key of a Parse: its parameter types and text (kept per parsed statement for its last types) */
  ofParse(stmt: ParsedStatement, paramTypes: readonly number[]): string {
    const types = paramTypes.length === 0 ? '' : paramTypes.join(',');
    const version = this.scope.planVersion;
    const searchPath = this.scope.searchPathText();
    const kept = this.keptParse.get(stmt);
    if (kept !== undefined && kept.version === version && kept.searchPath === searchPath && kept.types === types) return kept.key;
    const key = this.of(`${types}\u0000${stmt.text}`);
    this.keptParse.set(stmt, { version, searchPath, types, key });
    return key;
  }

  private readonly keptParse = new WeakMap<ParsedStatement, Kept & { readonly types: string }>();

  /** of(rest(owner)), kept per owner while the catalog version and search_path stay */
  private keptFor<T extends object>(owner: T, rest: (owner: T) => string): string {
    const version = this.scope.planVersion;
    const searchPath = this.scope.searchPathText();
    const kept = this.kept.get(owner);
    if (kept !== undefined && kept.version === version && kept.searchPath === searchPath) return kept.key;
    const key = this.of(rest(owner));
    this.kept.set(owner, { version, searchPath, key });
    return key;
  }
}

/** the key text of a literal shape: its parameters' types and its normalised text (module-level: no closure per statement) */
function shapeKeyText(norm: LiteralNormalised): string {
  return `${norm.literals.map((l) => l.oid).join(',')}\u0000${norm.key}`;
}

function statementText(stmt: ParsedStatement): string {
  return stmt.text;
}
