/**
 * Equivalence classes of columns tied by `col = col` conjuncts of one transitive type (join_dimension_branches):
 * a union-find over the flattened row's column indexes. A join's conjunct whose two columns are already in one
 * class is implied by the conjuncts placed below it (and by those kept before it at the same join), so it is
 * dropped instead of becoming another hash key (TPC-H Q9: `p_partkey = l_partkey` once `ps_partkey = l_partkey`
 * and `p_partkey = ps_partkey` hold).
 */
export class ColumnClasses {
  readonly #up = new Map<number, number>();

  find(c: number): number {
    let r = c;
    for (let u = this.#up.get(r); u !== undefined && u !== r; u = this.#up.get(r)) r = u;
    // path halving is not worth it: classes hold a handful of columns
    return r;
  }

  union(a: number, b: number): void {
    const [ra, rb] = [this.find(a), this.find(b)];
    if (ra !== rb) this.#up.set(ra, rb);
  }

  same(a: number, b: number): boolean {
    return this.find(a) === this.find(b);
  }
}
