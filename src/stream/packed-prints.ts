// The trades of an emitted minute, kept packed while the minute stays open to corrections
// (AggregatorOptions.retainMs, 5 minutes by default). As objects each trade cost about 100 bytes
// of heap (the object, its bigint time and its price as a heap number): at 2,000 trades/s the
// aggregator's heap grew by 20-30 MiB a minute until the first emitted minutes were let go. Packed
// in typed arrays a trade costs 24 bytes and the garbage collector visits no objects for them.
// Unpacked again, whole and in the same order, only when a late trade corrects the minute.
import type { TradePrint } from '../domain/bars.js';

export class PackedPrints {
  private constructor(
    private readonly times: BigInt64Array,
    private readonly prices: Float64Array,
    private readonly sizes: Float64Array,
  ) {}

  static of(prints: readonly TradePrint[]): PackedPrints {
    const n = prints.length;
    const packed = new PackedPrints(new BigInt64Array(n), new Float64Array(n), new Float64Array(n));
    for (let i = 0; i < n; i++) {
      const p = prints[i]!;
      packed.times[i] = p.t_ns;
      packed.prices[i] = p.price;
      packed.sizes[i] = p.size;
    }
    return packed;
  }

  get length(): number {
    return this.times.length;
  }

  /** The trades as they were given to `of`. */
  unpack(): TradePrint[] {
    const out = new Array<TradePrint>(this.times.length);
    for (let i = 0; i < out.length; i++) out[i] = { t_ns: this.times[i]!, price: this.prices[i]!, size: this.sizes[i]! };
    return out;
  }
}
