import { describe, expect, it } from 'vitest';
import { formatMemoryKb, parseMemoryKb } from './memory-units.ts';
import { DEFAULT_QUERY_MEMORY_KB, SERVER_QUERY_MEMORY_BYTES, USABLE_MEMORY_BYTES, normalizeQueryMemoryLimit, queryMemoryLimitBytes } from './query-memory-limit.ts';

describe('memory units (work_mem style, kB)', () => {
  it('parses units, plain kB numbers and decimals as PostgreSQL does', () => {
    expect(parseMemoryKb('x', '512MB', 64)).toBe(512 * 1024);
    expect(parseMemoryKb('x', '2GB', 64)).toBe(2 * 1024 * 1024);
    expect(parseMemoryKb('x', '4096', 64)).toBe(4096);
    expect(parseMemoryKb('x', ' 1.5MB ', 64)).toBe(1536);
    expect(parseMemoryKb('x', '1 TB', 64)).toBe(1024 ** 3);
    expect(parseMemoryKb('x', '65536B', 64)).toBe(64);
  });

  it('rejects bad units (case matters) and values out of range with PostgreSQL wording', () => {
    expect(() => parseMemoryKb('work_mem', '10mb', 64)).toThrow('invalid value for parameter "work_mem": "10mb"');
    expect(() => parseMemoryKb('work_mem', 'lots', 64)).toThrow('invalid value for parameter "work_mem": "lots"');
    expect(() => parseMemoryKb('work_mem', '10', 64)).toThrow('10 kB is outside the valid range for parameter "work_mem" (64 .. 2147483647)');
    expect(() => parseMemoryKb('work_mem', '3TB', 64)).toThrow(/outside the valid range/);
  });

  it('prints the largest unit that divides the value', () => {
    expect(formatMemoryKb(1024 * 1024)).toBe('1GB');
    expect(formatMemoryKb(2048)).toBe('2MB');
    expect(formatMemoryKb(1536)).toBe('1536kB');
    expect(formatMemoryKb(1024 ** 3)).toBe('1TB');
  });
});

describe('lakegate.query_memory_limit default', () => {
  it('is a quarter of min(RAM, V8 heap limit), half of the server-wide share, in whole MB', () => {
    expect(SERVER_QUERY_MEMORY_BYTES).toBe(Math.floor(USABLE_MEMORY_BYTES / 2));
    if (process.env['LAKEGATE_QUERY_MEMORY_LIMIT'] === undefined) {
      expect(DEFAULT_QUERY_MEMORY_KB % 1024).toBe(0);
      expect(DEFAULT_QUERY_MEMORY_KB * 1024).toBeLessThanOrEqual(SERVER_QUERY_MEMORY_BYTES / 2);
      expect(DEFAULT_QUERY_MEMORY_KB * 1024).toBeGreaterThan(SERVER_QUERY_MEMORY_BYTES / 2 - 1024 * 1024);
    }
    expect(queryMemoryLimitBytes(null)).toBe(DEFAULT_QUERY_MEMORY_KB * 1024);
    expect(queryMemoryLimitBytes(normalizeQueryMemoryLimit('1MB'))).toBe(1024 * 1024);
  });
});
