/**
 * envSetting / envFlagOn: server-wide defaults taken from `LAKEGATE_*` environment variables, read once per
 * name and kept. `process.env` is an accessor into the C++ environment (about 1 µs a read), and the scan
 * path asks for several of them on every point lookup. Code that changes `process.env` at runtime (tests,
 * A/B benchmark drivers) calls resetEnvSettings() afterwards so the next read sees the new value.
 */

/** values by variable name; a name absent from the environment is kept as undefined */
const values = new Map<string, string | undefined>();
/** envFlagOn answers by variable name */
const flags = new Map<string, boolean>();

/** PostgreSQL's boolean spellings of off (prefixes of off / false / no, and 0) */
export function isOffSpelling(v: string): boolean {
  return /^(off?|f(a(l(se?)?)?)?|no?|0)$/.test(v.trim().toLowerCase());
}

/** the variable's value as the process started with it (or as set before the last resetEnvSettings) */
export function envSetting(name: string): string | undefined {
  let v = values.get(name);
  if (v === undefined && !values.has(name)) {
    v = process.env[name];
    values.set(name, v);
  }
  return v;
}

/** a switch's value: on unless it spells off (unset and empty are on) */
export function spelledOn(v: string | null | undefined): boolean {
  return v === undefined || v === null || v === '' || !isOffSpelling(v);
}

/** a switch that is on unless the variable spells off (unset and empty are on) */
export function envFlagOn(name: string): boolean {
  let on = flags.get(name);
  if (on === undefined) {
    on = spelledOn(envSetting(name));
    flags.set(name, on);
  }
  return on;
}

/** a switch that is off unless the variable is set to something other than an off spelling */
export function envFlagSetOn(name: string): boolean {
  const key = `${name}?`;
  let on = flags.get(key);
  if (on === undefined) {
    const v = envSetting(name);
    on = v !== undefined && v !== '' && !isOffSpelling(v);
    flags.set(key, on);
  }
  return on;
}

/** a session setting's switch (null / undefined: unset), else the environment variable's default */
export function settingFlagOn(sessionValue: string | null | undefined, envName: string): boolean {
  return sessionValue === undefined || sessionValue === null ? envFlagOn(envName) : spelledOn(sessionValue);
}

/** forgets every value read: the next envSetting / envFlagOn reads process.env again */
export function resetEnvSettings(): void {
  values.clear();
  flags.clear();
}
