// Connection limits per key, feed and market. When a newer connection authenticates beyond the
// limit, the oldest ones are evicted (upstream: "the current connection will be disconnected").
// The in-memory limiter counts this process; redis-limits.ts counts every process.

export interface ConnectionLimiter {
  /**
   * Records connection `id` under `scope` and returns the ids to evict (oldest first) so that at
   * most `limit` remain. Evicting ids held by another process is that limiter's job.
   */
  admit(scope: string, id: string, limit: number): Promise<string[]>;
  release(scope: string, id: string): void;
  /** Ids of this process that another process asked to evict arrive here. */
  onEvict(handler: (id: string) => void): void;
  /**
   * Those of `ids` that were evicted, whether or not the notice to onEvict arrived: a limiter
   * shared across processes has it (a notice can be lost on the way); one process's has none.
   */
  evicted?(ids: readonly string[]): Promise<string[]>;
  close(): Promise<void>;
}

export class MemoryConnectionLimiter implements ConnectionLimiter {
  private readonly scopes = new Map<string, string[]>();

  async admit(scope: string, id: string, limit: number): Promise<string[]> {
    let list = this.scopes.get(scope);
    if (!list) this.scopes.set(scope, (list = []));
    list.push(id);
    return list.length > limit ? list.splice(0, list.length - limit) : [];
  }

  release(scope: string, id: string): void {
    const list = this.scopes.get(scope);
    if (!list) return;
    const i = list.indexOf(id);
    if (i >= 0) list.splice(i, 1);
    if (list.length === 0) this.scopes.delete(scope);
  }

  onEvict(): void {
    // one process: admit's answer already names every connection to evict
  }

  async close(): Promise<void> {
    this.scopes.clear();
  }
}
