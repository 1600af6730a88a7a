import { describe, expect, it } from 'vitest';
import { STABLE_OID_BASE, STABLE_OID_SPAN, StableOids, isMetadataTableOid, metadataTableOid, stableOidSlot } from './stable-oids.ts';
import { primaryKeyIndexOid } from '../pgcatalog/well-known-oids.ts';

/** identities whose first slots collide, found by search (deterministic: FNV-1a) */
function collidingPair(): [string, string] {
  const seen = new Map<number, string>();
  for (let i = 0; ; i++) {
    const id = `table:${i}`;
    const slot = stableOidSlot(id);
    const other = seen.get(slot);
    if (other !== undefined) return [other, id];
    seen.set(slot, id);
  }
}

describe('StableOids', () => {
  it('derives the OID from the identity alone, in the reserved range below 2^31', () => {
    const a = new StableOids();
    const b = new StableOids();
    b.assign('namespace:other');
    const oid = a.assign('table:5b8a7e1c');
    expect(b.assign('table:5b8a7e1c')).toBe(oid);
    expect(oid).toBe(stableOidSlot('table:5b8a7e1c'));
    expect(oid).toBeGreaterThanOrEqual(STABLE_OID_BASE);
    expect(oid).toBeLessThan(STABLE_OID_BASE + STABLE_OID_SPAN);
    expect(STABLE_OID_BASE + STABLE_OID_SPAN).toBeLessThan(2 ** 31);
    expect(a.assign('table:5b8a7e1c')).toBe(oid);
  });

  it('keeps primary-key index OIDs distinct for distinct relation OIDs of the range', () => {
    const lo = STABLE_OID_BASE;
    const hi = STABLE_OID_BASE + STABLE_OID_SPAN - 1;
    expect(new Set([primaryKeyIndexOid(lo), primaryKeyIndexOid(hi), primaryKeyIndexOid(lo + 1)]).size).toBe(3);
  });

  it('probes on a collision, the same way whichever registry sees the same objects in the same order', () => {
    const [first, second] = collidingPair();
    const notes: string[] = [];
    const a = new StableOids((id, holder) => notes.push(`${id}<${holder}`));
    const b = new StableOids();
    const a1 = a.assign(first);
    const a2 = a.assign(second);
    expect(a2).not.toBe(a1);
    expect(a2).toBe(stableOidSlot(second, 1) === a1 ? stableOidSlot(second, 2) : stableOidSlot(second, 1));
    expect(notes).toEqual([`${second}<${first}`]);
    expect([b.assign(first), b.assign(second)]).toEqual([a1, a2]);
  });

  it('frees slots on release, so a later object probes as in a fresh process', () => {
    const [first, second] = collidingPair();
    const r = new StableOids();
    r.assign(first);
    r.assign(`${first}/rowtype`);
    r.assign(`${first}/index/i1`);
    r.releasePrefix(`${first}/`);
    r.release(first);
    expect(r.has(first)).toBe(false);
    expect(r.has(`${first}/index/i1`)).toBe(false);
    expect(r.assign(second)).toBe(stableOidSlot(second));
  });

  it('gives metadata tables a pure (relation, row type) pair in their own range', () => {
    const oid = metadataTableOid('1612345678$files');
    expect(metadataTableOid('1612345678$files/rowtype')).toBe(oid + 1);
    expect(oid % 2).toBe(0);
    expect(isMetadataTableOid(oid)).toBe(true);
    expect(isMetadataTableOid(oid + 1)).toBe(true);
    expect(isMetadataTableOid(stableOidSlot('table:x'))).toBe(false);
    expect(metadataTableOid('1612345678$snapshots')).not.toBe(oid);
  });
});
