/**
 * Arrays of `n` rows that hold one element, their last: an element past the end of an empty array keeps V8's array
 * in dictionary mode, with no backing store of n slots (~0.5 µs against ~7 µs for `length = n` on this VM, and no
 * 8 bytes a row of garbage). Every other index is a hole, and what a hole reads as is its prototype's choice
 * (`holeProto`): NULL for an unread column (iceberg/read/unread-nulls.ts), an internal error for a lazy numeric
 * column read before it was materialized (pgtypes/numeric-column.ts).
 */

/** whether `key` names an index (Array.prototype's property names never start with a digit) */
const isIndexKey = (key: string | symbol): boolean => typeof key === 'string' && key.length > 0 && key.charCodeAt(0) >= 48 && key.charCodeAt(0) <= 57;

/**
 * Array.prototype's methods, but reading a hole returns `readHole()`; testing one (`in`) calls it too and says yes,
 * so that map / forEach / some / indexOf visit the holes instead of skipping them as absent
 */
export function holeProto(readHole: () => unknown): object {
  return new Proxy(Array.prototype, {
    get(target, key, receiver): unknown {
      if (isIndexKey(key)) return readHole();
      return Reflect.get(target, key, receiver) as unknown;
    },
    has(target, key): boolean {
      if (isIndexKey(key)) {
        readHole();
        return true;
      }
      return Reflect.has(target, key);
    },
  });
}

/**
 * Array.prototype's methods, but reading a hole first calls `fill(array)`, which must give the array every element
 * of its own and Array.prototype back (numeric-column.ts selfMaterializingNumerics: a column that makes its values
 * on first read, so a reader that never looks at them — a join's gather, a vector kernel reading the attached
 * doubles — makes none, and any other reader just sees values). Testing a hole (`in`) says yes without filling
 * (every row of such a column holds a value), so map / forEach / slice visit it and their read fills.
 */
export function fillingHoleProto(fill: (array: unknown[]) => void): object {
  return new Proxy(Array.prototype, {
    get(target, key, receiver: unknown[]): unknown {
      if (!isIndexKey(key)) return Reflect.get(target, key, receiver) as unknown;
      fill(receiver);
      if (Object.getPrototypeOf(receiver) !== Array.prototype) throw new Error('internal error: a self-filling column was not filled');
      return receiver[key as unknown as number];
    },
    has(target, key): boolean {
      return isIndexKey(key) || Reflect.has(target, key);
    },
  });
}

/** `n` rows holding only `last` at n − 1, the rest holes read through `proto` (from holeProto) */
export function oneSlotArray(n: number, last: unknown, proto: object): unknown[] {
  const out: unknown[] = [];
  if (n > 0) out[n - 1] = last;
  Object.setPrototypeOf(out, proto);
  return out;
}
