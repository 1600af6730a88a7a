import { afterEach, describe, expect, it } from 'vitest';
import { envFlagOn, envFlagSetOn, envSetting, isOffSpelling, resetEnvSettings } from './env-settings.ts';

const NAME = 'LAKEGATE_ENV_SETTINGS_TEST';

afterEach(() => {
  delete process.env[NAME];
  resetEnvSettings();
});

describe('envSetting / envFlagOn', () => {
  it('reads a variable once and keeps it until resetEnvSettings', () => {
    process.env[NAME] = 'off';
    expect(envSetting(NAME)).toBe('off');
    expect(envFlagOn(NAME)).toBe(false);
    process.env[NAME] = 'on';
    expect(envSetting(NAME)).toBe('off');
    expect(envFlagOn(NAME)).toBe(false);
    resetEnvSettings();
    expect(envSetting(NAME)).toBe('on');
    expect(envFlagOn(NAME)).toBe(true);
  });

  it('an unset variable is kept as unset; unset and empty flags are on', () => {
    expect(envSetting(NAME)).toBeUndefined();
    process.env[NAME] = '0';
    expect(envSetting(NAME)).toBeUndefined();
    expect(envFlagOn(NAME)).toBe(true);
    resetEnvSettings();
    expect(envFlagOn(NAME)).toBe(false);
    process.env[NAME] = '';
    resetEnvSettings();
    expect(envFlagOn(NAME)).toBe(true);
  });

  it("PostgreSQL's spellings of off", () => {
    for (const v of ['off', 'of', 'OFF', ' false ', 'f', 'fal', 'no', 'n', '0']) expect(isOffSpelling(v), v).toBe(true);
    for (const v of ['on', 'true', 'yes', '1', 'o', 'offf', 'nope']) expect(isOffSpelling(v), v).toBe(false);
  });

  it('envFlagSetOn: off unless set to something other than off', () => {
    delete process.env[NAME];
    resetEnvSettings();
    expect(envFlagSetOn(NAME)).toBe(false);
    for (const [v, on] of [['on', true], ['1', true], ['', false], ['off', false], ['no', false]] as const) {
      process.env[NAME] = v;
      resetEnvSettings();
      expect(envFlagSetOn(NAME), v).toBe(on);
    }
    delete process.env[NAME];
    resetEnvSettings();
  });
});
