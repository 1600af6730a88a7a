/**
 * PortalTable: a connection's portals by name, the unnamed one ('') in a field of its own. Nearly every client
 * binds the unnamed portal once per round trip (pgbench, libpq's PQexecParams, JDBC, node-postgres), and at Sync it
 * is dropped again (message-loop.ts readyForQuery): kept in a Map that costs a set, a few gets and a delete per
 * round trip, and V8's Map.delete / Map.clear allocate a smaller backing table when the Map empties. Named portals
 * (cursors of a transaction block) stay in a Map, made on first use.
 */
export class PortalTable<P> {
  private unnamed: P | undefined = undefined;
  private named: Map<string, P> | null = null;

  get size(): number {
    return (this.unnamed === undefined ? 0 : 1) + (this.named === null ? 0 : this.named.size);
  }

  get(name: string): P | undefined {
    return name === '' ? this.unnamed : this.named?.get(name);
  }

  has(name: string): boolean {
    return this.get(name) !== undefined;
  }

  set(name: string, portal: P): void {
    if (name === '') this.unnamed = portal;
    else (this.named ??= new Map()).set(name, portal);
  }

  delete(name: string): boolean {
    if (name !== '') return this.named?.delete(name) ?? false;
    const had = this.unnamed !== undefined;
    this.unnamed = undefined;
    return had;
  }

  clear(): void {
    this.unnamed = undefined;
    this.named?.clear();
  }

  /** every portal with its name, the unnamed one first (a copy: callers close portals while they walk it) */
  entries(): Array<[string, P]> {
    const out: Array<[string, P]> = [];
    if (this.unnamed !== undefined) out.push(['', this.unnamed]);
    if (this.named !== null) for (const e of this.named) out.push(e);
    return out;
  }
}
