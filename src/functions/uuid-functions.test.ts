import { describe, expect, it } from 'vitest';
import { uuidFunctions } from './uuid-functions.ts';
import { callFn } from './test-support.ts';

describe('uuid functions', () => {
  it.each(['gen_random_uuid', 'uuid_generate_v4'])('%s returns distinct canonical version-4 UUIDs', (name) => {
    const a = callFn(uuidFunctions, name, [], []) as string;
    const b = callFn(uuidFunctions, name, [], []) as string;
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(a).not.toBe(b);
    expect(uuidFunctions.find((d) => d.name === name)?.volatility).toBe('v');
  });
});
