// The feed's connections as the connection limiter knows them. Each authenticated connection is
// admitted under its key × feed × market scope; the limiter names the older ones to close.
// Two things can go wrong across processes, and a sweep every few seconds mends both (a limiter
// of this process alone, which answers at once and hears of nothing, is not swept):
// - the limiter could not be asked (Redis down or slow): the connection is served meanwhile (as
//   rate limits fail open) and asked for again until the limiter answers;
// - another process evicted one of ours and its notice was lost (pub/sub drops what a
//   reconnecting subscriber misses): the limiter keeps a record of evictions, looked up here.
import type { ConnectionLimiter } from './limits.js';

const SWEEP_MS = 5_000;
/** Ids looked up per limiter call during a sweep. */
const LOOKUP_CHUNK = 500;

interface Admission {
  scope: string;
  limit: number;
  /** The limiter has recorded this connection. */
  recorded: boolean;
  /** The limiter is being asked (a sweep does not ask again meanwhile). */
  asking: boolean;
}

export class Admissions {
  private readonly byId = new Map<string, Admission>();
  private readonly timer: NodeJS.Timeout | undefined;
  private sweeping = false;

  constructor(
    private readonly limiter: ConnectionLimiter,
    /** Closes connection `id` of this process, if it is still open, with max_connections. */
    private readonly evict: (id: string) => void,
    private readonly log: (msg: string, err?: unknown) => void,
    sweepMs = SWEEP_MS,
  ) {
    limiter.onEvict((id) => this.evictOne(id));
    if (limiter.evicted) {
      this.timer = setInterval(() => void this.sweep(), sweepMs);
      this.timer.unref();
    }
  }

  /** Connections open in this process that the limiter has not recorded yet. */
  get unrecorded(): number {
    let n = 0;
    for (const a of this.byId.values()) if (!a.recorded) n++;
    return n;
  }

  async admit(id: string, scope: string, limit: number): Promise<void> {
    const admission: Admission = { scope, limit, recorded: false, asking: false };
    this.byId.set(id, admission);
    await this.record(id, admission);
  }

  release(id: string): void {
    const a = this.byId.get(id);
    if (!a) return;
    this.byId.delete(id);
    if (a.recorded) this.limiter.release(a.scope, id);
  }

  close(): void {
    clearInterval(this.timer);
    this.byId.clear();
  }

  private async record(id: string, a: Admission): Promise<void> {
    let older: string[];
    a.asking = true;
    try {
      older = await this.limiter.admit(a.scope, id, a.limit);
    } catch (err) {
      this.log('connection limit not checked yet: the limiter is unavailable; asking again shortly', err);
      return;
    } finally {
      a.asking = false;
    }
    if (this.byId.get(id) !== a) {
      this.limiter.release(a.scope, id); // closed while the limiter answered
      return;
    }
    a.recorded = true;
    for (const old of older) this.evictOne(old);
  }

  private evictOne(id: string): void {
    if (!this.byId.delete(id)) return;
    this.evict(id);
  }

  /** One pass: connections not yet recorded are offered again, evictions missed are carried out. */
  async sweep(): Promise<void> {
    if (this.sweeping) return;
    this.sweeping = true;
    try {
      for (const [id, a] of [...this.byId]) if (!a.recorded && !a.asking) await this.record(id, a);
      const recorded = [...this.byId].filter(([, a]) => a.recorded).map(([id]) => id);
      for (let i = 0; i < recorded.length && this.limiter.evicted; i += LOOKUP_CHUNK) {
        const gone = await this.limiter.evicted(recorded.slice(i, i + LOOKUP_CHUNK));
        for (const id of gone) this.evictOne(id);
      }
    } catch (err) {
      this.log('connection limit evictions not looked up: the limiter is unavailable', err);
    } finally {
      this.sweeping = false;
    }
  }
}
