// Reads kept while the store's data version stays where it was: small lookups every request of a
// kind repeats (a ticker's splits, its listing), which on PostgreSQL are a round trip each.

/** Entries kept at most; past it the memo starts over (the reads are cheap to make again). */
const MAX_ENTRIES = 10_000;

export class VersionedMemo {
  private version?: string;
  private readonly values = new Map<string, Promise<unknown>>();

  constructor(private readonly currentVersion: () => string) {}

  /** The value `load` gave for `key` at the current data version, loading it on first ask. */
  get<V>(key: string, load: () => Promise<V>): Promise<V> {
    const version = this.currentVersion(); // before the read: a write meanwhile moves it
    if (version !== this.version || this.values.size >= MAX_ENTRIES) {
      this.values.clear();
      this.version = version;
    }
    let value = this.values.get(key) as Promise<V> | undefined;
    if (value === undefined) {
      value = load();
      this.values.set(key, value);
      // a failed read is not kept: the next ask reads again
      value.catch(() => {
        if (this.values.get(key) === value) this.values.delete(key);
      });
    }
    return value;
  }
}
