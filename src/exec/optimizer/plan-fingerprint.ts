/**
 * Structural fingerprints of plan nodes (share_repeated_subplans): two nodes with the same fingerprint compute
 * the same rows, because every field of the node and of its subtree is part of it. Plain data (kinds, column
 * indexes, types, literals, pushed filters, projections) is compared by value; anything else — a TableSource,
 * a function definition, a class instance — by identity, so two subtrees match only when they read the same
 * source objects and call the same definitions (a CTE inlined twice does). Marks kept beside the plan count
 * too: a join's pruned output columns (prune_join_columns) differ between copies read by different parents.
 * Each node's text holds its children's numbers, not their text, and each array or plain object met again —
 * the PlanColumns every node above a scan repeats, expressions kept by several rewrites — stands for its text by
 * an interned number, so a plan's fingerprints cost O(plan size), not O(depth × columns) (TPC-H Q2: 5 joins).
 */
import { Numeric } from '../../common/pgtypes/numeric.ts';
import { planChildren, type LogicalPlan } from '../../sql/index.ts';
import { deadJoinColumns } from './prune-join-columns.ts';

/** identity numbers of non-plain objects (sources, definitions, closures), stable for the process */
const identities = new WeakMap<object, number>();
let nextIdentity = 1;

function identityOf(o: object): number {
  let n = identities.get(o);
  if (n === undefined) identities.set(o, (n = nextIdentity++));
  return n;
}

function isPlain(o: object): boolean {
  const proto = Object.getPrototypeOf(o) as unknown;
  return proto === Object.prototype || proto === null;
}

/** Fingerprints of the nodes of one plan (subquery plans included), numbered densely: equal number = equal subtree. */
export class PlanFingerprints {
  private readonly numbers = new Map<string, number>();
  private readonly byNode = new Map<LogicalPlan, number>();

  /**
   * `loose`: scans' projections, joins' pruned columns and SQL text positions are left out, so subtrees written
   * twice that differ only in which columns their readers need match (unify-repeated-subplans.ts makes them one)
   */
  constructor(private readonly loose = false) {}

  /** the fingerprint number of `p` (computed once per node object) */
  of(p: LogicalPlan): number {
    const known = this.byNode.get(p);
    if (known !== undefined) return known;
    // a reference back to an enclosing node (a work table's recursive CTE): 0, a number no subtree gets
    if (this.open.has(p)) {
      this.contextMarks++;
      return 0;
    }
    this.open.add(p);
    try {
      return this.number(p);
    } finally {
      this.open.delete(p);
    }
  }

  /** plain objects and plan nodes being fingerprinted: a reference back to one is a cycle, not a subtree */
  private readonly open = new Set<object>();

  /** interned texts of arrays and plain objects: equal text = equal number */
  private readonly objectNumbers = new Map<string, string>();
  /** array / plain object → its interned number (only those whose text does not depend on where they were met) */
  private readonly byObject = new Map<object, string>();
  /** bumped whenever a text depends on where it was met (a node's child, a cycle): such texts are not interned */
  private contextMarks = 0;

  private number(p: LogicalPlan): number {
    const kids = planChildren(p);
    const own = this.loose && p.kind === 'TableScan' ? { ...p, projection: undefined } : p;
    const text = this.fields(own as unknown as Record<string, unknown>, new Set<unknown>(kids)) + '|' + kids.map((c) => this.of(c)).join(',')
      + (p.kind === 'Join' && !this.loose ? `|dead:${deadJoinColumns(p)?.join(',') ?? ''}` : '');
    let n = this.numbers.get(text);
    if (n === undefined) this.numbers.set(text, (n = this.numbers.size + 1));
    this.byNode.set(p, n);
    return n;
  }

  /** text of a value; `skip`: the node's children (their numbers are appended by of()) */
  private value(v: unknown, skip: ReadonlySet<unknown>): string {
    switch (typeof v) {
      case 'string': return JSON.stringify(v);
      case 'number': return Object.is(v, -0) ? '-0' : String(v);
      case 'bigint': return `${v}n`;
      case 'boolean': return v ? 'T' : 'F';
      case 'undefined': return 'U';
      case 'function': return `#${identityOf(v)}`;
      case 'symbol': return String(v);
      case 'object': break;
    }
    if (v === null) return 'N';
    if (skip.has(v)) {
      this.contextMarks++;
      return 'C';
    }
    if (Array.isArray(v)) return this.interned(v, skip);
    if (v instanceof Numeric) return `D${v.toString()}`;
    if (v instanceof Uint8Array) return `B${Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex')}`;
    if (!isPlain(v)) return `#${identityOf(v)}`;
    const o = v as Record<string, unknown>;
    // a plan nested in an expression (a subquery) is numbered as a node, so repeats inside it are found too
    if (typeof o.kind === 'string' && this.isPlanNode(o) && !skip.has(o)) return `P${this.of(o as unknown as LogicalPlan)}`;
    return this.interned(o, skip);
  }

  /** `O<n>` for an array or plain object, its text made once per object and numbered by text */
  private interned(o: readonly unknown[] | Record<string, unknown>, skip: ReadonlySet<unknown>): string {
    const known = this.byObject.get(o);
    if (known !== undefined) return known;
    const marks = this.contextMarks;
    const text = Array.isArray(o) ? `[${o.map((x) => this.value(x, skip)).join(',')}]` : this.fields(o as Record<string, unknown>, skip);
    if (this.contextMarks !== marks) return text;
    let n = this.objectNumbers.get(text);
    if (n === undefined) this.objectNumbers.set(text, (n = `O${this.objectNumbers.size + 1}`));
    this.byObject.set(o, n);
    return n;
  }

  private fields(o: Record<string, unknown>, skip: ReadonlySet<unknown>): string {
    // plan nodes are guarded by of(); a plain object met again inside itself is a cycle
    const isNode = PLAN_KINDS.has(o.kind as string);
    if (!isNode && this.open.has(o)) {
      this.contextMarks++;
      return '@';
    }
    // loose: where a copy was written in the SQL text (error positions) does not tell its rows apart
    const keys = Object.keys(o).sort().filter((k) => !this.loose || (k !== 'location' && k !== 'position'));
    if (!isNode) this.open.add(o);
    try {
      return `{${keys.map((k) => `${k}:${this.value(o[k], skip)}`).join(',')}}`;
    } finally {
      if (!isNode) this.open.delete(o);
    }
  }

  private isPlanNode(o: Record<string, unknown>): boolean {
    return PLAN_KINDS.has(o.kind as string) && Array.isArray(o.columns);
  }
}

const PLAN_KIND_LIST = ['TableScan', 'Values', 'Filter', 'Projection', 'ProjectSet', 'Aggregate', 'Join', 'Sort', 'Limit', 'SetOp',
  'Distinct', 'Window', 'RecursiveCte', 'WorkTableScan', 'FunctionScan', 'Insert', 'Overwrite', 'ModifyRows'] as const satisfies readonly LogicalPlan['kind'][];
const PLAN_KINDS: ReadonlySet<string> = new Set(PLAN_KIND_LIST);
