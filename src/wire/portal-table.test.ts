import { describe, expect, it } from 'vitest';
import { PortalTable } from './portal-table.ts';

describe('PortalTable', () => {
  it('keeps the unnamed portal beside the named ones, as a Map would', () => {
    const t = new PortalTable<{ id: number }>();
    expect([t.size, t.has(''), t.get('c1'), t.delete(''), t.delete('c1')]).toEqual([0, false, undefined, false, false]);
    const a = { id: 1 }, b = { id: 2 }, c = { id: 3 };
    t.set('', a);
    t.set('c1', b);
    expect([t.size, t.get(''), t.get('c1'), t.has('c2')]).toEqual([2, a, b, false]);
    t.set('', c); // a new Bind of the unnamed portal replaces it
    expect([t.size, t.get('')]).toEqual([2, c]);
    expect(t.entries()).toEqual([['', c], ['c1', b]]);
    expect(t.delete('')).toBe(true);
    expect([t.size, t.has(''), t.entries()]).toEqual([1, false, [['c1', b]]]);
    t.set('', a);
    t.clear();
    expect([t.size, t.entries()]).toEqual([0, []]);
  });

  it('entries() is a copy: portals can be closed while it is walked', () => {
    const t = new PortalTable<number>();
    t.set('', 0);
    t.set('a', 1);
    t.set('b', 2);
    const seen: string[] = [];
    for (const [name] of t.entries()) {
      seen.push(name);
      t.delete(name);
    }
    expect([seen, t.size]).toEqual([['', 'a', 'b'], 0]);
  });
});
