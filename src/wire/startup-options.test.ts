import { describe, expect, it } from 'vitest';
import { expandStartupParameters, parseStartupOptions } from './startup-options.ts';

describe('startup options', () => {
  it('parses -c name=value, -cname=value and --name=value with escapes', () => {
    expect(parseStartupOptions('-c search_path=a,b --work-mem=4MB -cgeqo=off -c x=with\\ space')).toEqual([
      ['search_path', 'a,b'],
      ['work_mem', '4MB'],
      ['geqo', 'off'],
      ['x', 'with space'],
    ]);
    expect(parseStartupOptions('  ')).toEqual([]);
  });

  it('explicit startup parameters win over options', () => {
    expect(expandStartupParameters({ user: 'u', TimeZone: 'UTC', options: '-c TimeZone=Europe/Paris -c DateStyle=ISO' })).toEqual({
      user: 'u',
      TimeZone: 'UTC',
      DateStyle: 'ISO',
      options: '-c TimeZone=Europe/Paris -c DateStyle=ISO',
    });
  });
});
