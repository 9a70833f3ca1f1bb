// Who is subscribed to what, for one feed and market: an index from channel and symbol (or `*`)
// to subscribers, so routing an event costs two map lookups however many topics exist.
// Subscriptions of one subscriber are a set of topic strings: `T.EUR/USD` and `T.EUR-USD` are
// separate entries naming the same pair, and the pair flows while either is held.
import type { Topic } from './topics.js';

/** A channel and symbol (or `*`) gaining its first subscriber or losing its last; `text` is the topic as a subscriber spelled it. */
export interface DemandChange {
  ev: string;
  symbol: string;
  text: string;
  held: boolean;
}

export class SubscriptionRegistry<S> {
  /** Told of every DemandChange (the relay subscribes upstream to what local clients want). */
  watcher: ((change: DemandChange) => void) | undefined;
  /** ev → symbol (or `*`) → subscribers */
  private readonly index = new Map<string, Map<string, Set<S>>>();
  /** subscriber → topic text → index key (`ev\0symbol`) */
  private readonly held = new Map<S, Map<string, string>>();

  /** Adds a topic; false when the subscriber already held this exact topic string. */
  add(sub: S, topic: Topic): boolean {
    let mine = this.held.get(sub);
    if (!mine) this.held.set(sub, (mine = new Map()));
    if (mine.has(topic.text)) return false;
    const key = `${topic.ev}\0${topic.symbol}`;
    mine.set(topic.text, key);
    let bySymbol = this.index.get(topic.ev);
    if (!bySymbol) this.index.set(topic.ev, (bySymbol = new Map()));
    let subs = bySymbol.get(topic.symbol);
    if (!subs) {
      bySymbol.set(topic.symbol, (subs = new Set()));
      this.watcher?.({ ev: topic.ev, symbol: topic.symbol, text: topic.text, held: true });
    }
    subs.add(sub);
    return true;
  }

  /** Removes a topic string; the subscriber keeps receiving the symbol while another held topic names it. */
  remove(sub: S, text: string): void {
    const mine = this.held.get(sub);
    const key = mine?.get(text);
    if (!mine || key === undefined) return;
    mine.delete(text);
    for (const other of mine.values()) if (other === key) return;
    const sep = key.indexOf('\0');
    const ev = key.slice(0, sep);
    const symbol = key.slice(sep + 1);
    const bySymbol = this.index.get(ev);
    const subs = bySymbol?.get(symbol);
    subs?.delete(sub);
    if (subs && subs.size === 0) {
      bySymbol!.delete(symbol);
      this.watcher?.({ ev, symbol, text, held: false });
    }
    if (bySymbol && bySymbol.size === 0) this.index.delete(ev);
  }

  removeAll(sub: S): void {
    const mine = this.held.get(sub);
    if (!mine) return;
    for (const text of [...mine.keys()]) this.remove(sub, text);
    this.held.delete(sub);
  }

  /** Topics the subscriber holds (as received). */
  topicsOf(sub: S): string[] {
    return [...(this.held.get(sub)?.keys() ?? [])];
  }

  /** Subscribers of an event, each once even when several of its topics match. */
  match(ev: string, symbol: string, visit: (sub: S) => void): void {
    const bySymbol = this.index.get(ev);
    if (!bySymbol) return;
    const all = bySymbol.get('*');
    const one = bySymbol.get(symbol);
    if (all) for (const s of all) visit(s);
    if (one) for (const s of one) if (!all?.has(s)) visit(s);
  }

  /**
   * The subscriber sets an event reaches: the channel's wildcard holders, then the symbol's. A
   * subscriber in both receives the event once (the caller merges). Routing by set costs one
   * visit per set, however many subscribers it holds.
   */
  sets(ev: string, symbol: string, visit: (subs: ReadonlySet<S>) => void): void {
    const bySymbol = this.index.get(ev);
    if (!bySymbol) return;
    const all = bySymbol.get('*');
    if (all) visit(all);
    if (symbol === '*') return;
    const one = bySymbol.get(symbol);
    if (one) visit(one);
  }

  /** Whether anyone wants this channel at all (lets publishers skip work). */
  wants(ev: string): boolean {
    return this.index.has(ev);
  }
}
