import { describe, expect, it } from 'vitest';
import { SessionSettings } from './session-settings.ts';
import { parseSearchPath } from './search-path.ts';

describe('SessionSettings', () => {
  it('has PostgreSQL defaults and canonical names', () => {
    const s = new SessionSettings();
    expect(s.get('datestyle')).toBe('ISO, MDY');
    expect(s.get('TIMEZONE')).toBe('UTC');
    expect(s.get('standard_conforming_strings')).toBe('on');
    expect(s.get('transaction_isolation')).toBe('read committed');
  });

  it('applies startup parameters and ignores unknown or read-only ones', () => {
    const s = new SessionSettings({ DateStyle: 'ISO', extra_float_digits: '2', foo: 'bar', server_version: '1' });
    expect(s.get('DateStyle')).toBe('ISO, MDY');
    expect(s.get('extra_float_digits')).toBe('2');
    expect(s.get('server_version')).not.toBe('1');
  });

  it('rejects unknown parameters with 42704 and bad values with 22023', () => {
    const s = new SessionSettings();
    expect(() => s.set('no_such_thing', '1', false)).toThrow(expect.objectContaining({ code: '42704' }));
    expect(() => s.set('bytea_output', 'weird', false)).toThrow(expect.objectContaining({ code: '22023' }));
    expect(() => s.set('server_version', '1', false)).toThrow(expect.objectContaining({ code: '55P02' }));
    expect(s.set('lakegate.custom', 'x', false)).toBe('x');
    expect(s.get('lakegate.custom')).toBe('x');
  });

  it('accepts POSIX TimeZone specs (shown upper-cased) and rejects Z like PostgreSQL', () => {
    const s = new SessionSettings();
    expect(s.set('TimeZone', 'utc+3', false)).toBe('UTC+3');
    expect(s.set('TimeZone', '<+02>-02', false)).toBe('<+02>-02');
    expect(s.set('TimeZone', 'America/Chicago', false)).toBe('America/Chicago');
    expect(() => s.set('TimeZone', 'Z', false)).toThrow(expect.objectContaining({ code: '22023', message: 'invalid value for parameter "TimeZone": "Z"' }));
    expect(() => s.set('TimeZone', 'XYZ', false)).toThrow(expect.objectContaining({ code: '22023' }));
  });

  it('keeps the other half of DateStyle', () => {
    const s = new SessionSettings();
    s.set('DateStyle', 'DMY', false);
    expect(s.get('DateStyle')).toBe('ISO, DMY');
    s.set('DateStyle', 'SQL', false);
    expect(s.get('DateStyle')).toBe('SQL, DMY');
  });

  it('undoes SET on rollback and SET LOCAL at commit', () => {
    const s = new SessionSettings();
    s.pushFrame();
    s.set('application_name', 'a', false);
    s.set('statement_timeout', '5s', true);
    expect(s.get('statement_timeout')).toBe('5000');
    s.commitAll();
    expect(s.get('application_name')).toBe('a');
    expect(s.get('statement_timeout')).toBe('0');
    s.pushFrame();
    s.set('application_name', 'b', false);
    s.pushFrame();
    s.set('application_name', 'c', false);
    s.rollbackFrame();
    expect(s.get('application_name')).toBe('b');
    s.rollbackAll();
    expect(s.get('application_name')).toBe('a');
  });

  it('reports changes of GUC_REPORT settings only', () => {
    const s = new SessionSettings();
    s.set('application_name', 'x', false);
    s.set('work_mem', '8MB', false);
    expect(s.takeChanges()).toEqual([['application_name', 'x']]);
    expect(s.takeChanges()).toEqual([]);
  });

  it('reports a value only when it differs from the one last reported (ReportChangedGUCOptions)', () => {
    const s = new SessionSettings();
    expect(s.reported()).toContainEqual(['application_name', '']);
    // a SET LOCAL undone before the next ReadyForQuery: nothing to report
    s.pushFrame();
    s.set('application_name', 'piped', true);
    s.commitAll();
    expect(s.takeChanges()).toEqual([]);
    s.set('application_name', 'x', false);
    expect(s.takeChanges()).toEqual([['application_name', 'x']]);
    s.set('application_name', 'x', false);
    expect(s.takeChanges()).toEqual([]);
    s.reset('application_name');
    expect(s.takeChanges()).toEqual([['application_name', '']]);
  });

  it('shows values with units as PostgreSQL does', () => {
    const s = new SessionSettings();
    s.set('statement_timeout', '5000', false);
    expect(s.showValue('statement_timeout')).toBe('5s');
    expect(s.showValue('work_mem')).toBe('4MB');
  });
});

describe('parseSearchPath', () => {
  it('splits, unquotes and folds case like PostgreSQL', () => {
    expect(parseSearchPath('"$user", public')).toEqual(['$user', 'public']);
    expect(parseSearchPath('"My Schema",Other')).toEqual(['My Schema', 'other']);
    expect(parseSearchPath('')).toEqual([]);
  });
});
