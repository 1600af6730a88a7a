/**
 * The `options` startup parameter: command-line style switches `-c name=value` and `--name=value`,
 * split on spaces (a backslash escapes the next character), as libpq's PGOPTIONS sends them.
 * Dashes in names become underscores, as PostgreSQL's ParseLongOption does.
 * @see https://www.postgresql.org/docs/current/libpq-connect.html#LIBPQ-CONNECT-OPTIONS
 */
export function parseStartupOptions(options: string): Array<[string, string]> {
  const words: string[] = [];
  let cur = '';
  let has = false;
  for (let i = 0; i < options.length; i++) {
    const ch = options[i]!;
    if (ch === '\\' && i + 1 < options.length) {
      cur += options[++i];
      has = true;
    } else if (ch === ' ' || ch === '\t' || ch === '\n') {
      if (has) words.push(cur);
      cur = '';
      has = false;
    } else {
      cur += ch;
      has = true;
    }
  }
  if (has) words.push(cur);
  const out: Array<[string, string]> = [];
  const add = (assignment: string): void => {
    const eq = assignment.indexOf('=');
    if (eq > 0) out.push([assignment.slice(0, eq).replace(/-/g, '_'), assignment.slice(eq + 1)]);
  };
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (w === '-c' && i + 1 < words.length) add(words[++i]!);
    else if (w.startsWith('-c')) add(w.slice(2));
    else if (w.startsWith('--')) add(w.slice(2));
  }
  return out;
}

/** Startup parameters for the handler: as sent, plus the settings found in `options` (explicit ones win). */
export function expandStartupParameters(parameters: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = { ...parameters };
  const options = parameters['options'];
  if (options !== undefined) {
    for (const [name, value] of parseStartupOptions(options)) if (!(name in parameters)) out[name] = value;
  }
  return out;
}
