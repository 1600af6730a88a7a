/**
 * PostgreSQL's overload resolution (func_match_argtypes + func_select_candidate), shared by functions
 * and operators. Candidates are argument-type vectors already expanded for defaults and VARIADIC.
 * @see https://www.postgresql.org/docs/15/typeconv-func.html
 * @see https://github.com/postgres/postgres/blob/REL_15_STABLE/src/backend/parser/parse_func.c
 */
import { Oid } from '../common/pgtypes/oids.ts';
import { typeInfo } from '../common/pgtypes/registry.ts';
import { checkPolymorphic, isAnyLike, isPolymorphic, type CoerceFn } from './polymorphic.ts';

export interface Candidate<T> {
  readonly def: T;
  /** declared types, one per actual argument */
  readonly args: readonly number[];
}

const STRING_CATEGORY = 'S';

function category(oid: number): string {
  if (isPolymorphic(oid) || isAnyLike(oid)) return 'P';
  return typeInfo(oid)?.typcategory ?? 'X';
}

function preferred(oid: number): boolean {
  return typeInfo(oid)?.typispreferred ?? false;
}

/** can_coerce_type(nargs, inputs, declared, COERCION_IMPLICIT), including the polymorphic consistency check. */
export function canCoerceAll(inputs: readonly number[], declared: readonly number[], coerce: CoerceFn): boolean {
  let poly = false;
  for (let i = 0; i < inputs.length; i++) {
    const a = inputs[i]!;
    const d = declared[i]!;
    if (a === d || a === Oid.unknown || isAnyLike(d)) continue;
    if (isPolymorphic(d)) {
      poly = true;
      continue;
    }
    if (d === Oid.record && (a === Oid.record || typeInfo(a)?.typtype === 'c')) continue;
    if (!coerce(a, d)) return false;
  }
  return !poly || checkPolymorphic(inputs, declared, coerce) !== undefined;
}

/** func_match_argtypes: candidates whose declared types every input can reach implicitly. */
export function matchArgTypes<T>(inputs: readonly number[], candidates: readonly Candidate<T>[], coerce: CoerceFn): Candidate<T>[] {
  return candidates.filter((c) => canCoerceAll(inputs, c.args, coerce));
}

function keepBest<T>(cands: Candidate<T>[], score: (c: Candidate<T>) => number): Candidate<T>[] {
  let best = -1;
  let out: Candidate<T>[] = [];
  for (const c of cands) {
    const s = score(c);
    if (s > best) {
      best = s;
      out = [c];
    } else if (s === best) out.push(c);
  }
  return out;
}

/**
 * func_select_candidate: narrows implicitly-reachable candidates to one, or returns the survivors
 * (length 0 never; > 1 means ambiguous).
 */
export function selectCandidate<T>(inputs: readonly number[], candidates: readonly Candidate<T>[], coerce: CoerceFn): Candidate<T>[] {
  const n = inputs.length;
  const nunknowns = inputs.filter((t) => t === Oid.unknown).length;
  // 1. most exact matches on known inputs
  let cands = keepBest([...candidates], (c) => {
    let m = 0;
    for (let i = 0; i < n; i++) if (inputs[i] !== Oid.unknown && c.args[i] === inputs[i]) m++;
    return m;
  });
  if (cands.length === 1) return cands;
  // 2. most exact-or-preferred matches at positions needing coercion
  const slotCategory = inputs.map(category);
  cands = keepBest(cands, (c) => {
    let m = 0;
    for (let i = 0; i < n; i++) {
      if (inputs[i] === Oid.unknown) continue;
      const d = c.args[i]!;
      if (d === inputs[i] || (category(d) === slotCategory[i] && preferred(d))) m++;
    }
    return m;
  });
  if (cands.length === 1) return cands;
  if (nunknowns === 0) return cands;
  // 3. resolve unknown inputs by the categories the candidates accept there (string category wins conflicts)
  let resolved = false;
  const cat: string[] = [];
  const hasPreferred: boolean[] = [];
  for (let i = 0; i < n; i++) {
    if (inputs[i] !== Oid.unknown) continue;
    resolved = true;
    let sc = '';
    let sp = false;
    let conflict = false;
    for (const c of cands) {
      const d = c.args[i]!;
      const dc = category(d);
      const dp = preferred(d);
      if (sc === '') {
        sc = dc;
        sp = dp;
      } else if (dc === sc) sp = sp || dp;
      else if (dc === STRING_CATEGORY) {
        sc = dc;
        sp = dp;
      } else conflict = true;
    }
    if (conflict && sc !== STRING_CATEGORY) {
      resolved = false;
      break;
    }
    cat[i] = sc;
    hasPreferred[i] = sp;
  }
  if (resolved) {
    const kept = cands.filter((c) => {
      for (let i = 0; i < n; i++) {
        if (inputs[i] !== Oid.unknown) continue;
        const d = c.args[i]!;
        if (category(d) !== cat[i]) return false;
        if (hasPreferred[i] === true && !preferred(d)) return false;
      }
      return true;
    });
    if (kept.length === 1) return kept;
    if (kept.length > 0) cands = kept;
  }
  // 4. last gasp: all known inputs share one type — assume the unknowns are that type too
  if (nunknowns < n) {
    let known: number = Oid.unknown;
    for (const t of inputs) {
      if (t === Oid.unknown) continue;
      if (known === Oid.unknown) known = t;
      else if (known !== t) {
        known = Oid.unknown;
        break;
      }
    }
    if (known !== Oid.unknown) {
      const all = inputs.map(() => known);
      const hits = cands.filter((c) => canCoerceAll(all, c.args, coerce));
      if (hits.length === 1) return hits;
    }
  }
  return cands;
}
