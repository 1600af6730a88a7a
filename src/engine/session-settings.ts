/**
 * SessionSettings: one session's GUC values with PostgreSQL's transactional behaviour —
 * SET inside a transaction block is undone by ROLLBACK (or ROLLBACK TO its savepoint), SET LOCAL lasts
 * until the end of the transaction — and the list of reported settings that changed (ParameterStatus).
 */
import { pgError } from '../common/errors.ts';
import { SqlState } from '../common/sqlstate.ts';
import type { SettingInfo } from '../catalog/session-view.ts';
import { SETTING_DEFS, findSettingDef, normalizeSettingValue, type SettingDef } from './settings.ts';

interface Frame {
  /** values to restore when this frame is rolled back */
  readonly saved: Map<string, string | undefined>;
  /** values to restore at the end of the transaction (SET LOCAL) */
  readonly localSaved: Map<string, string | undefined>;
}

export class SessionSettings {
  private readonly values = new Map<string, string>();
  private readonly sources = new Map<string, string>();
  private readonly custom = new Map<string, string>();
  private readonly frames: Frame[] = [];
  private readonly changed = new Set<string>();
  /** each reported setting's value as last sent in ParameterStatus */
  private readonly lastReported = new Map<string, string>();
  private changes = 0;

  /** grows with every change of any value: per-statement readers cache what they derive from the settings by it */
  get version(): number {
    return this.changes;
  }

  constructor(initial: Readonly<Record<string, string>> = {}) {
    for (const [name, value] of Object.entries(initial)) {
      // unknown or read-only startup parameters are accepted and ignored, as the issue asks
      try {
        this.set(name, value, false, 'client');
      } catch {
        /* ignored */
      }
    }
    this.changed.clear();
    // RESET returns to the value the session started with (config `settings:`, startup parameters), as
    // PostgreSQL's reset_val, not to the built-in default
    for (const [name, value] of this.values) this.initial.set(name, { value, source: this.sources.get(name) ?? 'client' });
  }

  private readonly initial = new Map<string, { readonly value: string; readonly source: string }>();

  /** canonical name → value, or undefined if unknown (custom `a.b` names that were never set included) */
  get(name: string): string | undefined {
    const def = findSettingDef(name);
    if (def !== undefined) return this.values.get(def.name) ?? def.defaultValue;
    return this.custom.get(name.toLowerCase());
  }

  /** current_setting(name): 42704 for unknown names */
  require(name: string): string {
    const v = this.get(name);
    if (v === undefined) throw pgError(SqlState.undefined_object, `unrecognized configuration parameter "${name}"`);
    return v;
  }

  set(name: string, value: string, isLocal: boolean, source = 'session'): string {
    const def = findSettingDef(name);
    if (def === undefined) return this.setCustom(name, value, isLocal);
    if (def.context === 'internal' || def.context === 'postmaster' || def.context === 'sighup') {
      throw pgError(SqlState.cant_change_runtime_param, `parameter "${def.name}" cannot be changed ${def.context === 'internal' ? '' : 'without restarting the server'}`.trim());
    }
    const current = this.values.get(def.name) ?? def.defaultValue;
    const next = normalizeSettingValue(def, value, current);
    this.remember(def.name, this.values.get(def.name), isLocal);
    this.changes++;
    this.values.set(def.name, next);
    this.sources.set(def.name, source);
    if (def.report === true && next !== current) this.changed.add(def.name);
    return next;
  }

  reset(name: string): void {
    const def = findSettingDef(name);
    if (def === undefined) {
      const key = name.toLowerCase();
      if (!key.includes('.')) throw pgError(SqlState.undefined_object, `unrecognized configuration parameter "${name}"`);
      this.remember(key, this.custom.get(key), false, true);
      this.changes++;
      this.custom.set(key, '');
      return;
    }
    if (def.context === 'internal') throw pgError(SqlState.cant_change_runtime_param, `parameter "${def.name}" cannot be changed`);
    const before = this.get(def.name);
    this.remember(def.name, this.values.get(def.name), false);
    this.changes++;
    const start = this.initial.get(def.name);
    if (start === undefined) {
      this.values.delete(def.name);
      this.sources.delete(def.name);
    } else {
      this.values.set(def.name, start.value);
      this.sources.set(def.name, start.source);
    }
    if (def.report === true && before !== (start?.value ?? def.defaultValue)) this.changed.add(def.name);
  }

  resetAll(): void {
    for (const def of SETTING_DEFS) {
      if (def.context === 'user' || def.context === 'superuser') {
        if (this.values.has(def.name) && this.sources.get(def.name) !== 'client') this.reset(def.name);
      }
    }
  }

  /** BEGIN or SAVEPOINT */
  pushFrame(): void {
    this.frames.push({ saved: new Map(), localSaved: new Map() });
  }

  /** RELEASE SAVEPOINT: the frame's undo records move to its parent */
  releaseFrame(): void {
    const frame = this.frames.pop();
    const parent = this.frames[this.frames.length - 1];
    if (frame === undefined || parent === undefined) return;
    for (const [k, v] of frame.saved) if (!parent.saved.has(k)) parent.saved.set(k, v);
    for (const [k, v] of frame.localSaved) if (!parent.localSaved.has(k)) parent.localSaved.set(k, v);
  }

  /** ROLLBACK / ROLLBACK TO: undo everything set inside the frame */
  rollbackFrame(): void {
    const frame = this.frames.pop();
    if (frame === undefined) return;
    for (const [k, v] of frame.localSaved) if (!frame.saved.has(k)) frame.saved.set(k, v);
    for (const [k, v] of frame.saved) this.restore(k, v);
  }

  /** COMMIT of the whole transaction: keep SETs, undo SET LOCALs */
  commitAll(): void {
    while (this.frames.length > 1) this.releaseFrame();
    const frame = this.frames.pop();
    if (frame === undefined) return;
    for (const [k, v] of frame.localSaved) this.restore(k, v);
  }

  rollbackAll(): void {
    while (this.frames.length > 0) this.rollbackFrame();
  }

  /** reported settings changed since the last call whose value differs from the one last reported (ReportChangedGUCOptions) */
  takeChanges(): Array<[string, string]> {
    const out: Array<[string, string]> = [];
    for (const name of this.changed) {
      const value = this.get(name) ?? '';
      if (this.lastReported.get(name) === value) continue; // SET LOCAL undone by the same transaction's end
      this.lastReported.set(name, value);
      out.push([name, value]);
    }
    this.changed.clear();
    return out;
  }

  reported(): Array<[string, string]> {
    const out = SETTING_DEFS.filter((d) => d.report === true).map((d) => [d.name, this.get(d.name) ?? ''] as [string, string]);
    for (const [name, value] of out) this.lastReported.set(name, value);
    return out;
  }

  info(): SettingInfo[] {
    const out: SettingInfo[] = SETTING_DEFS.map((d: SettingDef) => ({
      name: d.name,
      setting: this.get(d.name) ?? d.defaultValue,
      unit: d.unit ?? null,
      category: d.category,
      shortDesc: d.description,
      context: d.context,
      vartype: d.type,
      source: this.sources.get(d.name) ?? 'default',
      enumvals: d.enumValues ?? null,
      bootVal: d.defaultValue,
      resetVal: this.initial.get(d.name)?.value ?? d.defaultValue,
    }));
    return out;
  }

  /** SHOW ALL rows: name, setting, description */
  showAll(): Array<[string, string, string]> {
    const rows: Array<[string, string, string]> = SETTING_DEFS.map((d) => [d.name, this.showValue(d.name), d.description]);
    return rows.sort((a, b) => (a[0].toLowerCase() < b[0].toLowerCase() ? -1 : 1));
  }

  /** SHOW renders values with their unit as PostgreSQL does (statement_timeout 0 → "0", 5000 → "5s") */
  showValue(name: string): string {
    const def = findSettingDef(name);
    const value = this.require(name);
    if (def?.unit === 'ms') return formatMs(Number(value));
    if (def?.unit === 'kB') return formatKb(Number(value));
    return value;
  }

  private setCustom(name: string, value: string, isLocal: boolean): string {
    const key = name.toLowerCase();
    if (!key.includes('.')) throw pgError(SqlState.undefined_object, `unrecognized configuration parameter "${name}"`);
    this.remember(key, this.custom.get(key), isLocal, true);
    this.changes++;
    this.custom.set(key, value);
    return value;
  }

  private remember(name: string, previous: string | undefined, isLocal: boolean, custom = false): void {
    const frame = this.frames[this.frames.length - 1];
    if (frame === undefined) return;
    const key = custom ? `custom:${name}` : name;
    const target = isLocal ? frame.localSaved : frame.saved;
    if (!target.has(key) && !(isLocal && frame.saved.has(key))) target.set(key, previous);
  }

  private restore(key: string, value: string | undefined): void {
    this.changes++;
    if (key.startsWith('custom:')) {
      const name = key.slice('custom:'.length);
      if (value === undefined) this.custom.delete(name);
      else this.custom.set(name, value);
      return;
    }
    const before = this.get(key);
    if (value === undefined) this.values.delete(key);
    else this.values.set(key, value);
    const def = findSettingDef(key);
    if (def?.report === true && before !== this.get(key)) this.changed.add(key);
  }
}

function formatMs(ms: number): string {
  if (ms === 0) return '0';
  if (ms % 86_400_000 === 0) return `${ms / 86_400_000}d`;
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  if (ms % 60_000 === 0) return `${ms / 60_000}min`;
  if (ms % 1000 === 0) return `${ms / 1000}s`;
  return `${ms}ms`;
}

function formatKb(kb: number): string {
  if (kb % (1024 * 1024) === 0) return `${kb / (1024 * 1024)}GB`;
  if (kb % 1024 === 0) return `${kb / 1024}MB`;
  return `${kb}kB`;
}
