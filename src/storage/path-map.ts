/**
 * PathMap: ordered `FROM=TO` prefix rewrites applied to every location before FileIO resolves it, for
 * tables written in one place and read in another (an Iceberg table's metadata, manifests and delete
 * files all hold absolute paths of where it was written).
 *
 * Matching compares canonical forms, so one rule covers the spellings writers use for the same place:
 * `s3a://` and `s3n://` match `s3://`; `file:///x`, `file:/x` and `file://localhost/x` match `/x`; the
 * malformed `file://rel/x` (PyIceberg with a relative warehouse) and `./rel/x` match `rel/x`.
 * A rule matches at a path-segment boundary only (`…/bunnies` does not rewrite `…/bunnies2`); the
 * longest matching FROM wins, ties go to the earlier rule. A location is rewritten once.
 * In the string form the first `=` separates FROM and TO; use the object form if FROM contains `=`.
 */

export interface PathMapping {
  readonly from: string;
  readonly to: string;
}

export type PathMapEntry = string | PathMapping;

interface Rule {
  readonly from: string;
  readonly to: string;
  readonly index: number;
}

export class PathMap {
  readonly #rules: readonly Rule[];

  constructor(entries: readonly PathMapEntry[] = []) {
    const rules = entries.map((e, index): Rule => {
      const { from, to } = typeof e === 'string' ? parseMapping(e) : e;
      return { from: stripTrailingSlash(canonicalLocation(from)), to: stripTrailingSlash(to), index };
    });
    this.#rules = rules.sort((a, b) => b.from.length - a.from.length || a.index - b.index);
  }

  /** The rewritten location, or the input unchanged when no rule matches. */
  apply(location: string): string {
    const canon = canonicalLocation(location);
    for (const { from, to } of this.#rules) {
      if (from === '') continue;
      if (canon === from) return to;
      if (canon.startsWith(from) && (from.endsWith('/') || canon[from.length] === '/')) return to + canon.slice(from.length);
    }
    return location;
  }
}

/** Parses `FROM=TO` (first `=` splits). */
export function parseMapping(entry: string): PathMapping {
  const eq = entry.indexOf('=');
  if (eq <= 0) throw new TypeError(`invalid path map entry "${entry}": expected FROM=TO`);
  return { from: entry.slice(0, eq).trim(), to: entry.slice(eq + 1).trim() };
}

/** The form locations are compared in (see the file header). */
export function canonicalLocation(location: string): string {
  let s = location;
  const scheme = /^(s3a|s3n):\/\//i.exec(s);
  if (scheme !== null) s = `s3://${s.slice(scheme[0].length)}`;
  else if (/^file:/i.test(s)) s = fileUriPath(s);
  while (s.startsWith('./')) s = s.slice(2);
  return s;
}

/**
 * The filesystem path inside a `file:` URI: `file:///abs` and `file://localhost/abs` → `/abs`,
 * `file:/abs` → `/abs`, `file://rel/x` (malformed, no authority meant) → `rel/x`, `file:rel` → `rel`.
 */
export function fileUriPath(uri: string): string {
  const rest = uri.slice('file:'.length);
  if (rest.startsWith('///')) return rest.slice(2);
  if (/^\/\/localhost\//i.test(rest)) return rest.slice('//localhost'.length);
  if (rest.startsWith('//')) return rest.slice(2);
  return rest;
}

function stripTrailingSlash(s: string): string {
  return s.length > 1 && s.endsWith('/') && !s.endsWith('://') ? s.slice(0, -1) : s;
}
