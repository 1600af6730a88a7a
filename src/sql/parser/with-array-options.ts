/**
 * Trino spells Iceberg table options with array values, `WITH (partitioning = ARRAY['day(ts)', 'bucket(16, id)'])`,
 * which PostgreSQL's reloption grammar rejects. Before parsing, each `name = ARRAY[ 'a', 'b' ]` inside a
 * `WITH (` option list becomes the string literal `'["a","b"]'` (a JSON array), padded with spaces to the same
 * length so later AST locations stay valid. Only string-literal elements are rewritten.
 */
// the options before this one may hold string literals with parentheses (an array already rewritten: '["day(ts)"]')
const OPTION_ARRAY = /(\bWITH\s*\((?:[^;()']|'(?:[^']|'')*')*?\w+\s*=\s*)ARRAY\s*\[((?:\s*'(?:[^']|'')*'\s*,?)*)\s*\]/gi;

export function rewriteWithArrayOptions(sql: string): string {
  if (!/\bARRAY\s*\[/i.test(sql) || !/\bWITH\s*\(/i.test(sql)) return sql;
  let out = sql;
  for (let guard = 0; guard < 20; guard++) {
    let changed = false;
    out = out.replace(OPTION_ARRAY, (whole: string, head: string, body: string) => {
      const items = [...body.matchAll(/'((?:[^']|'')*)'/g)].map((m) => m[1]!.replace(/''/g, "'"));
      const lit = `'${JSON.stringify(items).replace(/'/g, "''")}'`;
      const arrayPart = whole.length - head.length;
      changed = true;
      return head + lit + ' '.repeat(Math.max(0, arrayPart - lit.length));
    });
    if (!changed) break;
  }
  return out;
}
