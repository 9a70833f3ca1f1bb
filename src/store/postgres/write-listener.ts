// Other processes' writes to one PostgreSQL schema, heard over LISTEN/NOTIFY: each process
// announces its commits on one channel, and a process's data version moves when it hears another's.
import pg from 'pg';

/** The channel tickerbase processes announce their writes on; the payload names the schema. */
export const WRITES_CHANNEL = 'tickerbase_writes';

/**
 * A connection of its own that LISTENs for other processes' writes to one schema, started on
 * first use and reconnected a second after it is lost. Its socket is unref'd: it never keeps a
 * process alive.
 */
export class WriteListener {
  private count = 0;
  private client: pg.Client | undefined;
  private listening = false;
  private closed = false;
  private retry: NodeJS.Timeout | undefined;

  constructor(
    private readonly config: pg.ClientConfig,
    private readonly schema: string,
    /** The tag of this process's own live announcements (not counted: see PostgresDriver.announce). */
    private readonly ownLiveTag: string,
  ) {}

  /** Announcements heard so far, or undefined while not listening (starting it on first call). */
  heard(): number | undefined {
    if (!this.listening) {
      if (this.client === undefined && this.retry === undefined && !this.closed) this.start();
      return undefined;
    }
    return this.count;
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.retry);
    this.listening = false;
    this.client?.end().catch(() => {});
    this.client = undefined;
  }

  private start(): void {
    const client = new pg.Client({ ...this.config, keepAlive: true, keepAliveInitialDelayMillis: 10_000 });
    this.client = client;
    const lost = () => {
      if (this.client !== client) return;
      this.listening = false;
      this.client = undefined;
      client.end().catch(() => {});
      if (!this.closed) {
        this.retry = setTimeout(() => {
          this.retry = undefined;
          if (!this.closed && this.client === undefined) this.start();
        }, 1000);
        this.retry.unref();
      }
    };
    client.on('error', lost);
    client.on('end', lost);
    client.on('notification', (m) => {
      if (m.channel !== WRITES_CHANNEL) return;
      const payload = m.payload ?? '';
      if (payload === this.schema || (payload.startsWith(`${this.schema}|live|`) && payload !== `${this.schema}|live|${this.ownLiveTag}`)) this.count++;
    });
    client
      .connect()
      .then(() => {
        (client as unknown as { connection?: { stream?: { unref?: () => void } } }).connection?.stream?.unref?.();
        return client.query(`LISTEN ${WRITES_CHANNEL}`);
      })
      .then(() => {
        if (this.client !== client) return;
        this.count++; // writes may have gone unheard before: a version of its own
        this.listening = true;
      }, lost);
  }
}
