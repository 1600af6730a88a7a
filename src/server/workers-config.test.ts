/** The `workers` setting (scan worker threads): file/env/flag precedence and validation. */
import { describe, expect, it } from 'vitest';
import { ConfigError, configFromEnv, loadConfig, parseConfig } from './config.ts';

describe('workers config', () => {
  it('is absent by default (the server then uses os.availableParallelism())', () => {
    expect(parseConfig({}).workers).toBeUndefined();
  });

  it('comes from LAKEGATE_WORKERS and --workers, the flag winning', async () => {
    expect(configFromEnv({ LAKEGATE_WORKERS: '0' })).toMatchObject({ workers: '0' });
    expect((await loadConfig({}, { LAKEGATE_WORKERS: '3' })).workers).toBe(3);
    expect((await loadConfig({ workers: '1' }, { LAKEGATE_WORKERS: '3' })).workers).toBe(1);
    expect((await loadConfig({ workers: 0 }, {})).workers).toBe(0);
  });

  it('rejects negative or fractional counts', () => {
    expect(() => parseConfig({ workers: -1 })).toThrow(ConfigError);
    expect(() => parseConfig({ workers: 1.5 })).toThrow(ConfigError);
  });
});
