// The trades of one ticker's minute as the store holds them, for a minute bar finalized from the
// stored trades: whatever process took each trade, and whether or not the bus carried it, the
// bar is then the aggregate REST gives of the same trades.
import type { TradePrint } from '../domain/bars.js';
import type { Store } from '../store/index.js';

const PAGE = 50_000;

export async function storedMinutePrints(store: Store, futures: boolean, ticker: string, startMs: number): Promise<TradePrint[]> {
  const gte = BigInt(startMs) * 1_000_000n;
  const lt = gte + 60_000_000_000n;
  const prints: TradePrint[] = [];
  if (futures) {
    let after: { ts: bigint; seq: bigint } | undefined;
    for (;;) {
      const page = await store.futures.readTrades({ ticker, gte, lt, order: 'asc', limit: PAGE, after });
      for (const r of page) prints.push({ t_ns: r.timestamp, price: r.price, size: r.size });
      if (page.length < PAGE) return prints;
      const last = page[page.length - 1]!;
      after = { ts: last.timestamp, seq: last.sequence_number };
    }
  }
  let after;
  for (;;) {
    const page = await store.market.readTrades({ ticker, gte, lt, order: 'asc', limit: PAGE, after });
    for (const { row } of page) prints.push({ t_ns: row.sip_timestamp, price: row.price, size: row.size });
    if (page.length < PAGE) return prints;
    after = page[page.length - 1]!.position;
  }
}
