// Minute bars built from published trades. Unlike imported bars (kept as first written), a live
// bar is replaced when a late trade corrects it.
import type { SqlDriver } from '../driver.js';
import type { BarRow } from '../../ingest/market-records.js';

const UPSERT = `INSERT INTO minute_bars (ticker, t, o, h, l, c, v, vw, n) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT (ticker, t) DO UPDATE SET o = excluded.o, h = excluded.h, l = excluded.l, c = excluded.c,
  v = excluded.v, vw = excluded.vw, n = excluded.n`;

export class LiveBarsRepository {
  constructor(private readonly db: SqlDriver) {}

  /** Writes or replaces minute bars (one statement per bar: a live batch is a few bars). */
  async upsertMinuteBars(rows: readonly BarRow[]): Promise<number> {
    let written = 0;
    for (const b of rows) {
      written += (await this.db.run(UPSERT, [b.ticker, b.t, b.o, b.h, b.l, b.c, b.v ?? null, b.vw ?? null, b.n ?? null])).changes;
    }
    return written;
  }
}
